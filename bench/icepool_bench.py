#!/usr/bin/env python3
"""Times icepool on the reference cases of crates/fray-dice/benches/odds.rs, on this machine.

Usage: bench/icepool_bench.sh (installs icepool 2.1.3 into bench/.venv, then runs this).

For each case it reports
  cold: the first evaluation in a fresh interpreter (import excluded), one process per case;
  warm: the median of repeated evaluations in one process (icepool's caches help it here).
fray is compared against the warm figure, the harder target. It also checks that icepool's
fractions equal fray's (`fray odds --json`, when target/release/fray exists).
"""
import json
import os
import statistics
import subprocess
import sys
import time

import icepool
from icepool import Die, Vector

d6 = Die(range(1, 7))
d8 = Die(range(1, 9))
d10 = Die(range(1, 11))


def hits_crits(n):
    die = d6.explode(depth=10).map(lambda x: Vector((int(x >= 5), int(x >= 11))))
    return n @ die


def count(n, t):
    return n @ d6.explode(depth=10).map(lambda x: int(x >= t))


def opend6(k):
    return (k - 1) @ d6 + d6.explode(depth=20)


CASES = [
    ("3d6", lambda: 3 @ d6),
    ("30d6", lambda: 30 @ d6),
    ("3d6kh3", lambda: d6.pool(3).highest(3).sum()),
    ("4d6kh3", lambda: d6.pool(4).highest(3).sum()),
    ("5d6kh3", lambda: d6.pool(5).highest(3).sum()),
    ("6d6kh3", lambda: d6.pool(6).highest(3).sum()),
    ("4d6kl3", lambda: d6.pool(4).lowest(3).sum()),
    ("5d6kl3", lambda: d6.pool(5).lowest(3).sum()),
    ("6d6kl3", lambda: d6.pool(6).lowest(3).sum()),
    ("1Dc{20}", lambda: opend6(1)),
    ("2Dc{20}", lambda: opend6(2)),
    ("4Dc{20}", lambda: opend6(4)),
    ("8Dc{20}", lambda: opend6(8)),
    ("12Dc{20}", lambda: opend6(12)),
    ("1d6!!cs>=5cs>=11", lambda: hits_crits(1)),
    ("5d6!!cs>=5cs>=11", lambda: hits_crits(5)),
    ("10d6!!cs>=5cs>=11", lambda: hits_crits(10)),
    ("20d6!!cs>=5cs>=11", lambda: hits_crits(20)),
    ("40d6!!cs>=5cs>=11", lambda: hits_crits(40)),
    ("20d6!!cs>=5", lambda: count(20, 5)),
    ("40d6!!cs>=11", lambda: count(40, 11)),
    ("max(0, d10+3 vs d8+2)", lambda: (d10 + 3 - (d8 + 2)).map(lambda x: max(0, x))),
]


def evaluate(make):
    """Build the die and force its full distribution, as fray's bench does."""
    die = make()
    return [(outcome, quantity) for outcome, quantity in die.items()], die.denominator()


def fractions(make):
    items, denom = evaluate(make)
    from fractions import Fraction

    out = []
    for outcome, quantity in items:
        value = [int(x) for x in outcome] if isinstance(outcome, (tuple, Vector)) else int(outcome)
        p = Fraction(quantity, denom)
        out.append({"value": value, "p": f"{p.numerator}/{p.denominator}"})
    return out


def cold(index):
    make = CASES[index][1]
    start = time.perf_counter()
    evaluate(make)
    return time.perf_counter() - start


def warm(make, budget=1.0):
    times = []
    total = 0.0
    while total < budget or len(times) < 5:
        start = time.perf_counter()
        evaluate(make)
        elapsed = time.perf_counter() - start
        times.append(elapsed)
        total += elapsed
        if len(times) >= 2000:
            break
    return statistics.median(times)


def fmt(seconds):
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.2f} ms"
    return f"{seconds:.2f} s"


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--cold":
        print(cold(int(sys.argv[2])))
        return
    fray = os.path.join(os.path.dirname(__file__), "..", "target", "release", "fray")
    print(f"icepool {icepool.__version__}, Python {sys.version.split()[0]}")
    print(f"| case | icepool cold | icepool warm (median) | same fractions as fray |")
    print("|---|---|---|---|")
    for index, (name, make) in enumerate(CASES):
        out = subprocess.run([sys.executable, __file__, "--cold", str(index)], capture_output=True, text=True, check=True)
        cold_s = float(out.stdout.strip())
        warm_s = warm(make)
        same = "n/a"
        if os.path.exists(fray):
            doc = json.loads(subprocess.run([fray, "odds", name, "--json"], capture_output=True, text=True, check=True).stdout)
            same = "yes" if doc["outcomes"] == fractions(make) else "NO"
        print(f"| `{name}` | {fmt(cold_s)} | {fmt(warm_s)} | {same} |", flush=True)


if __name__ == "__main__":
    main()

#!/usr/bin/env bash
# A fingerprint of what every shipped example does: for each, the JSON report of
# `fray sim -n 3000 --seed 7` (fights per second removed) and the JSON event logs of
# `fray fight` with seeds 1 to 5. A change meant only to make fights faster must leave every
# line unchanged: any difference in any decision or die moves the rest of the stream.
#
#   bash bench/same-fights.sh > /tmp/before.txt    # on the old code
#   bash bench/same-fights.sh | diff /tmp/before.txt -
#
# Needs a release build (`cargo build --release`).
set -euo pipefail
cd "$(dirname "$0")/.."
for s in examples/*/*.toml; do
    sim=$(target/release/fray sim "$s" -n 3000 --seed 7 --json | sed 's/"fights_per_second":[0-9.e+-]*//' | sha256sum)
    fights=$(for seed in 1 2 3 4 5; do target/release/fray fight "$s" --seed "$seed" --json; done | sha256sum)
    printf '%-45s sim %.16s fights %.16s\n' "$s" "$sim" "$fights"
done

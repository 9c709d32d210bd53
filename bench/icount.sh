#!/usr/bin/env bash
# Instructions per simulated fight, counted by valgrind's callgrind: a figure that does not move
# with the machine's load or clock, for comparing one change with the next. Fights per second
# stay the measure the targets are set in (BENCHMARKS.md); this is the one to optimise against.
#
#   bash bench/icount.sh                         # the five benchmark scenarios
#   bash bench/icount.sh examples/ticks/knife-fight.toml
#
# Needs valgrind (on every machine of this kind) and a release build (`cargo build --release`).
# The count includes fray's start-up (reading the scenario), about 1 % at 5,000 fights.
set -euo pipefail
cd "$(dirname "$0")/.."
fights=${FIGHTS:-5000}
scenarios=("$@")
if [ ${#scenarios[@]} -eq 0 ]; then
    scenarios=(examples/fluid/barbarian-vs-marauder.toml examples/opend6/blaster-duel.toml
        examples/hardboiled/bar-room-brawl.toml examples/phasesix/sword-and-shield.toml
        examples/ticks/pistol-duel.toml)
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT
printf '%-45s %12s\n' scenario instr/fight
for s in "${scenarios[@]}"; do
    valgrind --tool=callgrind --callgrind-out-file="$out" ${FRAY:-target/release/fray} sim "$s" -n "$fights" --threads 1 \
        >/dev/null 2>&1
    total=$(callgrind_annotate "$out" | awk '/PROGRAM TOTALS/ {gsub(",", "", $1); print $1}')
    printf '%-45s %12d\n' "$s" $((total / fights))
done

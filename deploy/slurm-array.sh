#!/usr/bin/env bash
# Run one `fray sim` split into PARTS parts as a Slurm job array, then merge the parts into the
# report of the whole run (the same numbers as the run on one machine: batches are seeded by
# their index, so it does not matter which node runs which part).
#
# Usage, on a login node of the cluster, with `fray` installed on the nodes and OUTDIR on a file
# system every node sees:
#
#   deploy/slurm-array.sh SCENARIO.toml PARTS OUTDIR [fray sim flags…]
#
#   deploy/slurm-array.sh examples/fluid/barbarian-vs-marauder.toml 16 runs/bvm -n 10000000 --seed 7
#   deploy/slurm-array.sh examples/fluid/barbarian-vs-marauder.toml 8 runs/pc \
#       -n 1000000 --sweep marauder.pc=10..20
#
# It submits two jobs: an array job of PARTS tasks, task K running
#   fray sim SCENARIO FLAGS… --shard K/PARTS --json > OUTDIR/part-K.json
# and a job that starts once every task has succeeded and runs
#   fray merge OUTDIR/part-*.json --json > OUTDIR/merged.json   (and the text report, merged.txt)
#
# Environment:
#   FRAY         the fray binary on the nodes (default: fray on the PATH)
#   SBATCH_ARGS  more flags for both sbatch calls, e.g. "--partition=short --time=01:00:00"
# Each task uses the CPUs Slurm gives it (--cpus-per-task, default 1; set it in SBATCH_ARGS).
set -euo pipefail

FRAY=${FRAY:-fray}

usage() {
    echo "usage: $0 SCENARIO.toml PARTS OUTDIR [fray sim flags…]" >&2
    exit 2
}

case "${1:-}" in
--part)
    # Inside the array job: run part SLURM_ARRAY_TASK_ID.
    shift
    parts=$1 outdir=$2 scenario=$3
    shift 3
    k=${SLURM_ARRAY_TASK_ID:?the part runs inside a Slurm array job}
    tmp="$outdir/part-$k.json.tmp"
    "$FRAY" sim "$scenario" "$@" --threads "${SLURM_CPUS_PER_TASK:-1}" --shard "$k/$parts" --json >"$tmp"
    # Renamed only when whole: a part file is never half written.
    mv "$tmp" "$outdir/part-$k.json"
    ;;
--merge)
    # After every part: merge them.
    shift
    parts=$1 outdir=$2
    files=()
    for ((k = 1; k <= parts; k++)); do
        files+=("$outdir/part-$k.json")
    done
    "$FRAY" merge "${files[@]}" --json >"$outdir/merged.json"
    "$FRAY" merge "${files[@]}" >"$outdir/merged.txt"
    echo "merged $parts parts into $outdir/merged.json and $outdir/merged.txt"
    ;;
*)
    [[ $# -ge 3 ]] || usage
    scenario=$1 parts=$2 outdir=$3
    shift 3
    [[ $parts =~ ^[1-9][0-9]*$ ]] || { echo "PARTS must be a whole number of at least 1, not '$parts'" >&2; exit 2; }
    [[ -r $scenario ]] || { echo "cannot read $scenario" >&2; exit 2; }
    mkdir -p "$outdir"
    scenario=$(realpath "$scenario")
    outdir=$(realpath "$outdir")
    # Check the scenario once here, before any job is queued.
    "$FRAY" check "$scenario" >/dev/null
    read -r -a extra <<<"${SBATCH_ARGS:-}"
    array=$(sbatch --parsable "${extra[@]}" --job-name=fray-part --array="1-$parts" \
        --output="$outdir/part-%a.log" "$0" --part "$parts" "$outdir" "$scenario" "$@")
    array=${array%%;*}
    merge=$(sbatch --parsable "${extra[@]}" --job-name=fray-merge --dependency="afterok:$array" \
        --output="$outdir/merge.log" "$0" --merge "$parts" "$outdir")
    echo "submitted parts as job $array and the merge as job $merge; the report will be $outdir/merged.txt"
    ;;
esac

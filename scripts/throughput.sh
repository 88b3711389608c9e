#!/usr/bin/env bash
# Verified variant runs per second (one kernel run checked against the exact oracle), per op,
# at n = 4096 (softmax 4x1024) and n = 2^20 (softmax 256x4096), on the given build's backend,
# each with the runner's time per case split into its stages.
#   scripts/throughput.sh [--build DIR] [--seeds a..b]
set -euo pipefail
RF_CALLER_DIR=${RF_CALLER_DIR:-$PWD}   # paths given are the caller's (lib/opts.sh)
cd "$(dirname "$0")/.."
RF_PROG="throughput.sh"
source scripts/lib/opts.sh
BUILD=build; SEEDS=1..64
while [ $# -gt 0 ]; do
  case "$1" in
    --build) rf_opt_path BUILD "$@"; shift 2;;
    --seeds) rf_opt_value SEEDS "$@"; shift 2;;
    -h|--help) sed -n '2,4p' "$RF_SELF"; exit 0;;
    *) rf_opt_unknown "$1";;
  esac
done
RF=$BUILD/fuzz/redfuzz
[ -x "$RF" ] || { echo "throughput.sh: $RF not built" >&2; exit 2; }
printf '%-8s %-12s %s\n' op size "verified runs/s"
for op in sum max argmax softmax; do
  for size in small large; do
    if [ "$op" = softmax ]; then
      [ $size = small ] && args=(--shape 4x1024) || args=(--shape 256x4096)
    else
      [ $size = small ] && args=(--n 4096) || args=(--n 2^20)
    fi
    # Small cases: every distribution x the seeds (768 cases), so one-time costs do not count.
    dists=uniform; [ $size = small ] && dists=all
    # Load every kernel when the context is created, not on its first launch in some case.
    out=$(CUDA_MODULE_LOADING=EAGER "$RF" sweep --op $op "${args[@]}" --dist $dists --seed "$SEEDS" --quiet 2>&1 || true)
    # sweep refuses a size beyond the backend's limits (exit 2) rather than skipping it.
    if echo "$out" | grep -q "beyond this backend's limits"; then line="n/a (beyond this backend's limits)"
    else line=$(echo "$out" | grep -o '[0-9]* verified runs/s'); fi
    printf '%-8s %-12s %s\n' $op "${args[1]}" "$line"
    # Where the time goes (redfuzz sweep's profile of the runner).
    echo "$out" | grep -E '^time per case|^background re-check|kernel runs/s' | sed 's/^/         /' || true
  done
done

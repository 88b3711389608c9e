#!/usr/bin/env bash
# The main job: set-up, build, then a short fuzz campaign on the default backend (sim).
#   scripts/run.sh [--time S]        (default 60 s of fuzzing)
# 1. the seeds' boundary lengths and shapes, every variant (mutants too) and distribution, and
#    one launch with more blocks than a second stage has threads (redfuzz sweep);
# 2. a libFuzzer campaign over every correct variant (scripts/fuzz.sh), new failures shrunk
#    into regressions/.
# Exit status: 0 nothing failed, 1 a sweep or the campaign found a failure, 2 bad usage.
set -euo pipefail
cd "$(dirname "$0")/.."
RF_PROG="run.sh"
source scripts/lib/opts.sh
RF_OPT_ALLOWED=([--time]="a number of seconds")
TIME=60
while [ $# -gt 0 ]; do
  case "$1" in
    --time) rf_opt_value TIME "$@"; shift 2;;
    -h|--help) sed -n '2,8p' "$0"; exit 0;;
    *) rf_opt_unknown "$1";;
  esac
done
[[ "$TIME" =~ ^[0-9]+$ ]] || { echo "run.sh: --time: '$TIME' is not a number of seconds (allowed: 0, 1, 2, ...)" >&2; exit 2; }
bash scripts/bootstrap.sh
cmake --preset sim >/dev/null
cmake --build --preset sim -j "$(nproc)"
echo "== boundary sweep (simulator): every variant, every distribution, the seeds' sizes"
status=0
build/fuzz/redfuzz sweep --mutants | tail -n 40 || status=1
echo "== many blocks: n = 16384 in 300 blocks of 32 threads (more partials than a block has threads;"
echo "   mutants that need other shapes say NOT caught here, the sweep above catches them)"
build/fuzz/redfuzz sweep --mutants --op sum,max,argmax --n 16384 --block 32 --grid 300 \
  | tail -n 17 || status=1
echo "== fuzz campaign: ${TIME}s on the simulator"
bash scripts/fuzz.sh --backend sim --time "$TIME" || status=1
[ $status -eq 0 ] && echo "run.sh: no failure found" || echo "run.sh: FAILURES FOUND (see above)"
exit $status

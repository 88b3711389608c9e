#!/usr/bin/env bash
# The main job: set-up, build, then a short fuzz campaign on the default backend (sim).
#   scripts/run.sh [--time S]        (default 60 s of fuzzing)
# 1. the seeds' boundary lengths and shapes, every variant (mutants too) and distribution, and
#    one launch with more blocks than a second stage has threads (redfuzz sweep);
# 2. a libFuzzer campaign over every correct variant (scripts/fuzz.sh), new failures shrunk
#    into regressions/.
# Exit status: 0 nothing failed, 1 a sweep or the campaign found a failure, 2 bad usage or a
# step with no result (a sweep that refused to run, a campaign that ran nothing: a bad
# REDFUZZ_* setting), which wins over 1; 128 + the signal when a step was interrupted.
set -euo pipefail
cd "$(dirname "$0")/.."
RF_PROG="run.sh"
source scripts/lib/opts.sh
rf_errexit_2
RF_OPT_ALLOWED=([--time]="a positive number of seconds")
TIME=60
while [ $# -gt 0 ]; do
  case "$1" in
    --time) rf_opt_value TIME "$@"; shift 2;;
    -h|--help) sed -n '2,8p' "$RF_SELF"; exit 0;;
    *) rf_opt_unknown "$1";;
  esac
done
# --time 0 would be a campaign that runs nothing (fuzz.sh refuses it too).
rf_opt_int --time "$TIME" 1 "$RF_MAX_SECONDS" "a positive number of seconds"
bash scripts/bootstrap.sh
cmake --preset sim >/dev/null
cmake --build --preset sim -j "$(nproc)"
echo "== boundary sweep (simulator): every variant, every distribution, the seeds' sizes"
status=0
step() {   # step STATUS: the worst so far (2 no result > 1 a failure > 0; a signal's as it is)
  local r=$1
  if [ "$r" -ge 128 ]; then exit "$r"; fi
  [ "$r" -gt 2 ] && r=2   # 3..127: the step itself failed (not found, not executable): no result
  [ "$r" -gt "$status" ] && status=$r
  return 0
}
rc=0; build/fuzz/redfuzz sweep --mutants | tail -n 40 || rc=$?; step $rc
echo "== many blocks: n = 16384 in 300 blocks of 32 threads (more partials than a block has threads;"
echo "   mutants that need other shapes say NOT caught here, the sweep above catches them)"
rc=0; build/fuzz/redfuzz sweep --mutants --op sum,max,argmax --n 16384 --block 32 --grid 300 \
  | tail -n 17 || rc=$?; step $rc
echo "== fuzz campaign: ${TIME}s on the simulator"
rc=0; bash scripts/fuzz.sh --backend sim --time "$TIME" || rc=$?; step $rc
case $status in
  0) echo "run.sh: no failure found";;
  1) echo "run.sh: FAILURES FOUND (see above)";;
  *) echo "run.sh: a step had no result (see its message above)" >&2;;
esac
exit $status

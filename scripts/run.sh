#!/usr/bin/env bash
# The main job: set-up, one build, a boundary sweep, then a short fuzz campaign on the default
# backend (sim) with each variant's kernel coverage: a user's first look (where its time goes:
# docs/log/2026-12-07-main-job-time.md); CI runs the full suites (scripts/test.sh).
#   scripts/run.sh [--time S]        (default 60 s of fuzzing)
# 1. build/ (preset sim): redfuzz, and the fuzz target and coverage replay, whose kernels are
#    compiled with their instrumentation in the same tree (cmake/coverage.cmake);
# 2. the seeds' boundary lengths and shapes, every variant (mutants too) and distribution, and
#    one launch with more blocks than a second stage has threads (redfuzz sweep);
# 3. a libFuzzer campaign over every correct variant (scripts/fuzz.sh; each variant's repeat
#    on 1 case in 8 and no many-short-rows class: REDFUZZ_REPEAT_EVERY, REDFUZZ_SHORT_ROWS),
#    new failures shrunk into regressions/, then each variant's kernel coverage of the corpus.
# Each step's wall and CPU seconds are printed; where the time goes:
# docs/log/2026-12-07-main-job-fresh-clone.md.
# Exit status: 0 nothing failed, 1 a sweep or the campaign found a failure, 2 bad usage or a
# step with no result (a build, a sweep that refused to run, a campaign that ran nothing: a bad
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
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$RF_SELF"; exit 0;;
    *) rf_opt_unknown "$1";;
  esac
done
# --time 0 would be a campaign that runs nothing (fuzz.sh refuses it too).
rf_opt_int --time "$TIME" 1 "$RF_MAX_SECONDS" "a positive number of seconds"
t0=$(date +%s)
step_start=$t0
# CPU seconds of every finished child (bash's `times`, second line; user + system): on a shared
# machine the wall time says as much about the neighbours as about the job.
# `times` runs in this shell, not in a $(...) subshell, whose own children are none.
times_file=$(mktemp); trap 'rm -f "$times_file"' EXIT
cpu_start=0
timed() {   # timed NAME: the wall and CPU time since the last step
  local now c; now=$(date +%s)
  times > "$times_file"
  c=$(awk 'NR == 2 { split($1, u, /[ms]/); split($2, s, /[ms]/);
    printf "%.0f", u[1] * 60 + u[2] + s[1] * 60 + s[2] }' "$times_file")
  echo "run.sh: $1 took $((now - step_start)) s, $((c - cpu_start)) s of CPU (total $((now - t0)) s, $c s of CPU)"
  step_start=$now cpu_start=$c
}
bash scripts/bootstrap.sh
cmake --preset sim >/dev/null
# One ninja for the three programs: both cores busy from the first file to the last link.
cmake --build --preset sim -j "$(nproc)" --target redfuzz redfuzz_fuzz redfuzz_cov_replay ||
  { echo "run.sh: the build failed" >&2; exit 2; }
timed "set-up and build"
status=0
step() {   # step STATUS: the worst so far (2 no result > 1 a failure > 0; a signal's as it is)
  local r=$1
  if [ "$r" -ge 128 ]; then exit "$r"; fi
  [ "$r" -gt 2 ] && r=2   # 3..127: the step itself failed (not found, not executable): no result
  [ "$r" -gt "$status" ] && status=$r
  return 0
}
# The sweeps share the two cores: the 1-D ops' sweep (~30 s of CPU) beside the row ops' and
# the many-blocks sweep (~23 s). Each prints a line per failing result and a table; shown
# here: each mutant's line, any correct variant with a failure, and the totals.
sweep_dir=$(mktemp -d); trap 'rm -f "$times_file"; rm -rf "$sweep_dir"' EXIT
summary() {   # summary FILE
  awk '/\(mutant:/ || /^[0-9]+ passed, [0-9]+ failed/ ||
       ($1 ~ /\// && NF == 5 && $2 ~ /^[0-9]+$/ && $5 > 0) { print }' "$1"
}
echo "== boundary sweep (simulator): every variant, every distribution, the seeds' sizes and each variant's own boundaries"
echo "   (the 1-D ops and the row ops side by side, one core each)"
build/fuzz/redfuzz sweep --mutants --op sum,max,argmax,min,argmin > "$sweep_dir/1d" &
pid_1d=$!
( status=0
  rc=0; build/fuzz/redfuzz sweep --mutants --op softmax,logsumexp,logsoftmax > "$sweep_dir/rows" || rc=$?
  step $rc
  rc=0; build/fuzz/redfuzz sweep --mutants --op sum,max,argmax --n 16384 --block 32 --grid 300 \
    > "$sweep_dir/blocks" || rc=$?
  step $rc
  exit $status ) &
pid_rows=$!
rc=0; wait "$pid_1d" || rc=$?; step $rc
rc=0; wait "$pid_rows" || rc=$?; step $rc
echo "-- the 1-D ops (sum, max, argmax, min, argmin)"; summary "$sweep_dir/1d"
echo "-- the row ops (softmax, logsumexp, logsoftmax)"; summary "$sweep_dir/rows"
echo "== many blocks: n = 16384 in 300 blocks of 32 threads (more partials than a block has threads;"
echo "   mutants that need other shapes say NOT caught here, the sweep above catches them)"
summary "$sweep_dir/blocks"
timed "sweeps"
# The campaign spends its minute on new cases, sized to what the sweep above did not do: each
# variant's repeat (determinism, state across launches: ~40 % of an execution) on 1 case in 8,
# as the sweep ran it on every case; and no many-short-rows case (size class 3: 5 to 10 s of
# CPU each, 0 to 4 of them a minute, up to a third of the campaign), as the sweep ran 65,537
# rows for every row variant. Either setting given in the environment wins; fuzz.sh's own
# defaults (every case repeated, every class) are a long campaign's (docs/CAMPAIGNS.md).
export REDFUZZ_REPEAT_EVERY=${REDFUZZ_REPEAT_EVERY:-8} REDFUZZ_SHORT_ROWS=${REDFUZZ_SHORT_ROWS:-0}
echo "== fuzz campaign: ${TIME}s on the simulator (each variant's repeat on 1 case in $REDFUZZ_REPEAT_EVERY; short-rows class $([ "$REDFUZZ_SHORT_ROWS" = 0 ] && echo off || echo on)), then each variant's kernel coverage"
rc=0; bash scripts/fuzz.sh --backend sim --build build --time "$TIME" || rc=$?; step $rc
timed "campaign and coverage"
case $status in
  0) echo "run.sh: no failure found";;
  1) echo "run.sh: FAILURES FOUND (see above)";;
  *) echo "run.sh: a step had no result (see its message above)" >&2;;
esac
exit $status

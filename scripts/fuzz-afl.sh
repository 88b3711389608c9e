#!/usr/bin/env bash
# An AFL++ campaign on the same fuzz target and seed corpus as scripts/fuzz.sh (libFuzzer):
# builds fuzz/fuzz_target.c with afl-clang-fast and AFL++'s libFuzzer-compatible driver
# (LIB_FUZZING_ENGINE, cmake/rf_fuzz_engine.cmake), fuzzes from corpus/bin, then shrinks every
# crash with `redfuzz shrink` into regressions/ (scripts/shrink-findings.sh), one per signature.
#   scripts/fuzz-afl.sh [--backend sim|cuda|hip] [--time S] [--jobs N] [--op OP] [--only LIST]
#                       [--build DIR] [--out DIR] [--seeds DIR] [--regressions DIR]
#                       [--no-shrink] [--until-crash] [--build-only]
# Usually reached as `scripts/fuzz.sh --engine afl ...`. --jobs N: one main and N-1 secondary
# afl-fuzz instances (default one per core). --until-crash: stop at the first crash (tests).
# Executions and exec/s come from afl-fuzz's fuzzer_stats. Only the sim backend is tested here;
# on a GPU build the .hip files go through nvcc / HIP clang, so AFL sees the C code's coverage.
# Paths given are taken from the caller's folder. Exit status as fuzz.sh's: 0 nothing found,
# 1 a crash or hang found, 2 bad usage or a campaign that ran nothing (the target refused to
# start: its own first error line; or afl-fuzz ran no input: its reason).
set -euo pipefail
RF_CALLER_DIR=${RF_CALLER_DIR:-$PWD}
cd "$(dirname "$0")/.."
# shellcheck disable=SC2034  # read by lib/opts.sh
RF_PROG="fuzz-afl.sh"
source scripts/lib/opts.sh
source scripts/lib/build_lock.sh
source scripts/lib/refused.sh
rf_errexit_2
BACKEND=sim; TIME=60; JOBS=""; ONLY=""; BUILD=""; OUT=out/fuzz-afl; SHRINK=1; SEEDS=corpus/bin
UNTIL_CRASH=0 REG=regressions BUILD_ONLY=0
while [ $# -gt 0 ]; do
  case "$1" in
    --backend) rf_opt_value BACKEND "$@"; shift 2;;
    --time) rf_opt_value TIME "$@"; shift 2;;
    --jobs) rf_opt_value JOBS "$@"; shift 2;;
    --op|--only) rf_opt_value ONLY "$@"; shift 2;;
    --build) rf_opt_path BUILD "$@"; shift 2;;
    --out) rf_opt_path OUT "$@"; shift 2;;
    --seeds) rf_opt_path SEEDS "$@"; shift 2;;
    --no-shrink) SHRINK=0; shift;;
    --until-crash) UNTIL_CRASH=1; shift;;
    --build-only) BUILD_ONLY=1; shift;;
    --regressions) rf_opt_path REG "$@"; shift 2;;
    -h|--help) sed -n '2,12p' "$RF_SELF"; exit 0;;
    *) rf_opt_unknown "$1";;
  esac
done
case "$BACKEND" in sim|cuda|hip) ;; *) echo "fuzz-afl.sh: --backend: '$BACKEND' (allowed: sim, cuda, hip)" >&2; exit 2;; esac
rf_opt_int --time "$TIME" 1 "$RF_MAX_SECONDS" "a positive number of seconds"
: "${JOBS:=$(nproc)}"
rf_opt_int --jobs "$JOBS" 1 "$RF_MAX_JOBS" "a positive number"
[ -d "$SEEDS" ] || { echo "fuzz-afl.sh: --seeds: '$SEEDS' is not a folder" >&2; exit 2; }
if ! command -v afl-fuzz >/dev/null || ! command -v afl-clang-fast >/dev/null; then bash scripts/bootstrap.sh; fi
AFL_DRIVER=${AFL_DRIVER:-/usr/lib/afl/libAFLDriver.a}
[ -f "$AFL_DRIVER" ] || { echo "fuzz-afl.sh: AFL++'s driver $AFL_DRIVER not found (Debian package afl++)" >&2; exit 2; }

: "${BUILD:=build-afl-$BACKEND}"
FUZZ=$BUILD/fuzz/redfuzz_fuzz RF=$BUILD/fuzz/redfuzz
if [ ! -x "$FUZZ" ] || [ ! -x "$RF" ]; then
  echo "fuzz-afl.sh: building $BUILD ($BACKEND backend, AFL++ instrumentation and driver)"
  build_afl() {
    cmake --preset "$BACKEND" -B "$BUILD" -DREDFUZZ_FUZZER=ON -DCMAKE_C_COMPILER=afl-clang-fast \
      -DCMAKE_CXX_COMPILER=afl-clang-fast++ -DREDFUZZ_FUZZING_ENGINE="$AFL_DRIVER" >/dev/null &&
      cmake --build "$BUILD" -j "$(nproc)" --target redfuzz_fuzz redfuzz
  }
  rf_build_locked "$BUILD" build_afl
fi
[ "$BUILD_ONLY" = 1 ] && exit 0

rf_mkdir --out "$OUT"
rf_mkdir --regressions "$REG"
export REDFUZZ_ONLY="$ONLY"
: "${REDFUZZ_JUDGE_THREADS:=$(( $(nproc) / JOBS > 0 ? $(nproc) / JOBS : 1 ))}"
export REDFUZZ_JUDGE_THREADS
# No curses screen; no CPU pinning (the machine may be shared); a core_pattern that pipes core
# dumps elsewhere (containers) must not stop the campaign; a seed that already fails is kept
# out of the queue rather than ending the run (it is reported through the crashes, as in
# libFuzzer's fork mode); resume an existing output folder.
export AFL_NO_UI=1 AFL_NO_AFFINITY=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
export AFL_SKIP_CRASHES=1 AFL_AUTORESUME=1
[ "$UNTIL_CRASH" = 1 ] && export AFL_BENCH_UNTIL_CRASH=1
# The target checks its settings before any input (a bad REDFUZZ_* variable, a name that
# selects no variant: exit 2 and one line), and afl-fuzz keeps a child's output to itself: one
# run on an empty input first, so a refusal is said in the target's own words.
: > "$OUT/.empty-input"
rc=0; timeout 120 "$FUZZ" "$OUT/.empty-input" > "$OUT/first-run.log" 2>&1 || rc=$?
if [ "$rc" -eq 2 ]; then
  echo "fuzz-afl.sh: the fuzz target refused to start (exit 2), nothing ran: $(rf_first_error "$OUT/first-run.log" 2)" >&2
  exit 2
fi
echo "fuzz-afl.sh: $BACKEND backend, ${TIME}s, $JOBS afl-fuzz instances, variants: ${ONLY:-every correct variant}"
start=$(date +%s)
# Findings newer than this mark are this campaign's (AFL_AUTORESUME keeps earlier ones).
touch "$OUT/.started"
pids=()
set +e
for ((k = 0; k < JOBS; k++)); do
  if [ "$k" -eq 0 ]; then role=(-M main); name=main; else role=(-S "s$k"); name=s$k; fi
  # -t 60000: a case may run for up to 60 s before it counts as a hang (libFuzzer's -timeout=60
  # in fuzz.sh); -m none: the oracle's big cases need memory.
  afl-fuzz "${role[@]}" -i "$SEEDS" -o "$OUT/afl" -V "$TIME" -t 60000 -m none -- "$FUZZ" \
    >"$OUT/afl-$name.log" 2>&1 &
  pids+=($!)
done
running() { for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && return 0; done; return 1; }
stat_sum() {  # field: summed over the instances' fuzzer_stats
  { cat "$OUT"/afl/*/fuzzer_stats 2>/dev/null || true; } |   # none yet: 0 (it ended the script)
    awk -F: -v f="$1" '$1 ~ "^"f" *$" {s += $2} END {print s + 0}'
}
crashes() { find "$OUT/afl" -path '*/crashes/id:*' -type f -newer "$OUT/.started" 2>/dev/null | wc -l; }
while running; do
  for _ in 1 2 3 4 5; do sleep 1; running || break; done   # 5 s, or less when afl-fuzz is done
  now=$(( $(date +%s) - start ))
  # afl-fuzz honours -V itself; this is the backstop for a calibration that overruns.
  if [ "$now" -gt $(( TIME + 60 )) ]; then kill -INT "${pids[@]}" 2>/dev/null; fi
  if [ "$UNTIL_CRASH" = 1 ] && [ "$(crashes)" -gt 0 ]; then kill -INT "${pids[@]}" 2>/dev/null; fi
  [ $(( now % 10 )) -lt 5 ] && echo "fuzz-afl.sh: ${now}s $(stat_sum execs_done) executions, $(crashes) crashes"
done
rc=0
for p in "${pids[@]}"; do wait "$p"; r=$?; [ $rc -eq 0 ] && rc=$r; done
set -e
elapsed=$(( $(date +%s) - start ))
execs=$(stat_sum execs_done)
echo "fuzz-afl.sh: afl-fuzz exited $rc after ${elapsed}s; executions: $execs ($(( execs / (elapsed > 0 ? elapsed : 1) ))/s wall, afl's own figure $(stat_sum execs_per_sec)/s)"
mapfile -t found < <(find "$OUT/afl" -path '*/crashes/id:*' -type f -newer "$OUT/.started" 2>/dev/null | sort)
hangs=$( { find "$OUT/afl" -path '*/hangs/id:*' -type f -newer "$OUT/.started" 2>/dev/null || true; } | wc -l)
if [ "$execs" -eq 0 ] && [ ${#found[@]} -eq 0 ] && [ "$hangs" -eq 0 ]; then
  # No result: afl-fuzz's own reason (its PROGRAM ABORT line), then its log's end.
  why=$(grep -a -m1 -E 'PROGRAM ABORT|ERROR' "$OUT/afl-main.log" 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g' || true)
  echo "fuzz-afl.sh: afl-fuzz ran no input (executions: 0): ${why:-$(rf_first_error "$OUT/afl-main.log" "$rc")}" >&2
  tail -n 25 "$OUT/afl-main.log" >&2 || true
  exit 2
fi
echo "== findings: ${#found[@]} crashes, $hangs hangs (a hang has no verdict: listed, not shrunk)"
if [ "$SHRINK" = 1 ] && [ ${#found[@]} -gt 0 ]; then
  bash scripts/shrink-findings.sh --redfuzz "$RF" --only "$ONLY" --out "$OUT/shrunk" \
    --regressions "$REG" "${found[@]}"
else
  echo "fuzz-afl.sh: 0 new regression(s) in $REG/"
fi
# As fuzz.sh: 1 when this campaign found a failure (a crash, or a hang), so callers see it.
if [ ${#found[@]} -gt 0 ] || [ "$hangs" -gt 0 ]; then
  echo "fuzz-afl.sh: FAILURES FOUND: ${#found[@]} crash(es), $hangs hang(s) in $OUT/afl"
  exit 1
fi
echo "fuzz-afl.sh: no failure found"
exit 0

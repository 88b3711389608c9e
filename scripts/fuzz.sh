#!/usr/bin/env bash
# A fuzz campaign: build the libFuzzer target if needed, fuzz from corpus/bin, shrink every
# new failure into regressions/ (one per signature), print a summary.
#   scripts/fuzz.sh [--backend sim|cuda|hip] [--time S] [--jobs N] [--op OP] [--only LIST]
#                   [--build DIR] [--out DIR] [--no-shrink]
# --op/--only: restrict to one op's correct variants, or a REDFUZZ_ONLY list (variant or op
# names; mutants only by name). Default: every correct variant of every op.
set -euo pipefail
cd "$(dirname "$0")/.."
BACKEND=sim; TIME=60; JOBS=""; ONLY=""; BUILD=""; OUT=out/fuzz; SHRINK=1
while [ $# -gt 0 ]; do
  case "$1" in
    --backend) BACKEND=$2; shift 2;;
    --time) TIME=$2; shift 2;;
    --jobs) JOBS=$2; shift 2;;
    --op) ONLY=$2; shift 2;;
    --only) ONLY=$2; shift 2;;
    --build) BUILD=$2; shift 2;;
    --out) OUT=$2; shift 2;;
    --no-shrink) SHRINK=0; shift;;
    -h|--help) sed -n '2,7p' "$0"; exit 0;;
    *) echo "fuzz.sh: unknown option '$1' (see --help)" >&2; exit 2;;
  esac
done
case "$BACKEND" in sim|cuda|hip) ;; *) echo "fuzz.sh: --backend: '$BACKEND' (allowed: sim, cuda, hip)" >&2; exit 2;; esac
[[ "$TIME" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: --time: '$TIME' is not a number of seconds" >&2; exit 2; }
: "${BUILD:=build-fuzz-$BACKEND}"
FUZZ=$BUILD/fuzz/redfuzz_fuzz RF=$BUILD/fuzz/redfuzz
if [ ! -x "$FUZZ" ] || [ ! -x "$RF" ]; then
  command -v clang-19 >/dev/null || bash scripts/bootstrap.sh
  echo "fuzz.sh: building $BUILD ($BACKEND backend, libFuzzer target)"
  cmake --preset "$BACKEND" -B "$BUILD" -DREDFUZZ_FUZZER=ON >/dev/null
  cmake --build "$BUILD" -j "$(nproc)" --target redfuzz_fuzz redfuzz
fi
if [ -z "$JOBS" ]; then
  if [ "$BACKEND" = cuda ] && command -v nvidia-smi >/dev/null; then JOBS=$(nvidia-smi -L | wc -l)
  else JOBS=$(nproc); fi
fi
mkdir -p "$OUT/corpus" "$OUT/artifacts" regressions
export REDFUZZ_ONLY="$ONLY"
# Each job judges big softmax cases with several threads: share the cores among the jobs.
: "${REDFUZZ_JUDGE_THREADS:=$(( $(nproc) / JOBS > 0 ? $(nproc) / JOBS : 1 ))}"
export REDFUZZ_JUDGE_THREADS
echo "fuzz.sh: $BACKEND backend, ${TIME}s, $JOBS jobs, variants: ${ONLY:-every correct variant}"
start=$(date +%s)
set +e
"$FUZZ" -fork="$JOBS" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 -rss_limit_mb=8192 -timeout=60 \
  -max_total_time="$TIME" \
  -artifact_prefix="$OUT/artifacts/" -print_final_stats=1 "$OUT/corpus" corpus/bin \
  > "$OUT/fuzz.log" 2>&1 &
pid=$!
# Progress: libFuzzer's latest status line every 10 s. Fork mode can outlive its budget
# while a job finishes: stop it 30 s after the budget.
while kill -0 $pid 2>/dev/null; do
  sleep 10
  if [ $(( $(date +%s) - start )) -gt $(( TIME + 30 )) ]; then kill -INT $pid 2>/dev/null || true; fi
  line=$(grep -aE '^#[0-9]+' "$OUT/fuzz.log" | tail -n 1)
  [ -n "$line" ] && echo "fuzz.sh: $(( $(date +%s) - start ))s ${line:0:100}"
done
wait $pid; rc=$?
set -e
elapsed=$(( $(date +%s) - start ))
execs=$(grep -aoE '^#[0-9]+' "$OUT/fuzz.log" | tail -n 1 | tr -d '#')
echo "fuzz.sh: libFuzzer exited $rc after ${elapsed}s; executions: ${execs:-0} ($(( ${execs:-0} / (elapsed > 0 ? elapsed : 1) ))/s)"

# Failures by signature (variant verdict): the target prints "ERROR: redfuzz: VARIANT VERDICT"
# for each failing variant before aborting, and fork mode copies those lines into this log.
echo "== failures by signature"
grep -aoE 'ERROR: redfuzz: [^ ]+ [a-z-]+' "$OUT/fuzz.log" 2>/dev/null | cut -d' ' -f3- |
  sort | uniq -c || true
# Artifacts by kind. A timeout or slow unit has no verdict: it is listed, not shrunk
# (`redfuzz decode FILE > case.txt; redfuzz run --case case.txt` runs it again).
echo "== artifacts: $(for k in crash timeout oom slow-unit; do
  printf '%s %s  ' "$(find "$OUT/artifacts" -name "$k-*" | wc -l)" "$k"; done)"

new=0
if [ "$SHRINK" = 1 ]; then
  shopt -s nullglob
  for a in "$OUT"/artifacts/crash-*; do
    sig=$("$RF" shrink "$a" --only "$ONLY" --out "$OUT/shrunk" 2>/dev/null | tail -n 1 || true)
    mkdir -p "$OUT/shrunk"
    [ -f "$sig" ] || continue
    base=$(basename "$sig"); prefix=${base%-*}
    if ls regressions/"$prefix"-*.case >/dev/null 2>&1; then continue; fi   # signature known
    cp "$sig" regressions/ && new=$((new + 1)) && echo "new regression: regressions/$base"
  done
fi
echo "fuzz.sh: $new new regression(s) in regressions/"

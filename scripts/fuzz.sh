#!/usr/bin/env bash
# A fuzz campaign: build the libFuzzer target if needed, fuzz from corpus/bin, shrink every
# new failure into regressions/ (one per signature), print a summary. Exit status: 0 no failure
# found, 1 a failure found (crash, timeout or oom artifacts of this campaign), 2 bad usage.
#   scripts/fuzz.sh [--backend sim|cuda|hip] [--time S] [--jobs N] [--op OP] [--only LIST]
#                   [--build DIR] [--out DIR] [--no-shrink]
# --op/--only: restrict to one op's correct variants, or a REDFUZZ_ONLY list (variant or op
# names; mutants only by name). Default: every correct variant of every op.
# --jobs: libFuzzer worker processes on one shared corpus (default one per visible GPU (cuda),
# else one per core); a worker that stops on a failure starts again for the time left. With
# several GPUs the workers are spread over them (REDFUZZ_FUZZ_DEVICES="0 1" picks).
# Logs: OUT/fuzz-w<worker>-<run>.log.
# --engine libfuzzer (default) | afl: AFL++ on the same target and corpus (scripts/fuzz-afl.sh).
# Ends with each variant's kernel coverage (scripts/coverage.sh; default on the sim backend,
# --coverage / --no-coverage). --hybrid: a GPU fuzzer and a ThreadSanitizer simulator fuzzer
# on one corpus (scripts/fuzz-hybrid.sh --help).
# Size caps: variants slow beyond some size (rf_variant.fuzz_max_n; sum/atomic: 2^16) are
# fuzzed only up to it (listed in the summary); `redfuzz sweep` runs them at every size.
set -euo pipefail
cd "$(dirname "$0")/.."
for a in "$@"; do [ "$a" = --hybrid ] && exec bash scripts/fuzz-hybrid.sh "$@"; done
ENGINE=libfuzzer; rest=()
while [ $# -gt 0 ]; do
  if [ "$1" = --engine ]; then ENGINE=${2:-}; shift $(( $# > 1 ? 2 : 1 )); else rest+=("$1"); shift; fi
done
set -- "${rest[@]}"
case "$ENGINE" in
  libfuzzer) ;;
  afl) exec bash scripts/fuzz-afl.sh "$@";;
  *) echo "fuzz.sh: --engine: '$ENGINE' (allowed: libfuzzer, afl)" >&2; exit 2;;
esac
BACKEND=sim; TIME=60; JOBS=""; ONLY=""; BUILD=""; OUT=out/fuzz; SHRINK=1; COVERAGE=""
while [ $# -gt 0 ]; do
  case "$1" in
    --backend) BACKEND=$2; shift 2;;
    --time) [ $# -ge 2 ] || { echo "fuzz.sh: --time needs a value (allowed: a number of seconds)" >&2; exit 2; }; TIME=$2; shift 2;;
    --jobs) JOBS=$2; shift 2;;
    --op) ONLY=$2; shift 2;;
    --only) ONLY=$2; shift 2;;
    --build) BUILD=$2; shift 2;;
    --out) OUT=$2; shift 2;;
    --no-shrink) SHRINK=0; shift;;
    --coverage) COVERAGE=1; shift;;
    --no-coverage) COVERAGE=0; shift;;
    -h|--help) sed -n '2,18p' "$0"; exit 0;;
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
# Devices: on a cuda machine with several GPUs, one libFuzzer per GPU (CUDA_VISIBLE_DEVICES),
# the jobs spread over them; REDFUZZ_FUZZ_DEVICES="0 2" picks them, and a CUDA_VISIBLE_DEVICES
# already set keeps one libFuzzer on what it names. Elsewhere one libFuzzer.
GPUS=0
if [ "$BACKEND" = cuda ] && command -v nvidia-smi >/dev/null; then GPUS=$(nvidia-smi -L | wc -l); fi
if [ -n "${REDFUZZ_FUZZ_DEVICES:-}" ]; then read -r -a DEVICES <<< "$REDFUZZ_FUZZ_DEVICES"
elif [ "$GPUS" -gt 1 ] && [ -z "${CUDA_VISIBLE_DEVICES:-}" ]; then mapfile -t DEVICES < <(seq 0 $((GPUS - 1)))
else DEVICES=(""); fi
if [ -z "$JOBS" ]; then
  if [ "$GPUS" -gt 0 ]; then JOBS=${#DEVICES[@]}; else JOBS=$(nproc); fi
fi
[[ "$JOBS" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --jobs: '$JOBS' is not a positive number" >&2; exit 2; }
[ "$JOBS" -lt ${#DEVICES[@]} ] && DEVICES=("${DEVICES[@]:0:$JOBS}")
mkdir -p "$OUT/corpus" "$OUT/artifacts" regressions
export REDFUZZ_ONLY="$ONLY"
# Each job judges big softmax cases with several threads: share the cores among the jobs.
: "${REDFUZZ_JUDGE_THREADS:=$(( $(nproc) / JOBS > 0 ? $(nproc) / JOBS : 1 ))}"
export REDFUZZ_JUDGE_THREADS
ND=${#DEVICES[@]}
echo "fuzz.sh: $BACKEND backend, ${TIME}s, $JOBS jobs$([ -n "${DEVICES[0]}" ] && echo " on GPUs ${DEVICES[*]}"), variants: ${ONLY:-every correct variant}"
start=$(date +%s)
# Artifacts newer than this marker are this campaign's (the folder keeps earlier ones).
marker=$(mktemp); trap 'rm -f "$marker"' EXIT
set +e
# Workers, not libFuzzer's fork mode: fork mode runs its k-th job for min(k, 300) s in a new
# process that first re-runs a share of the corpus, so a campaign of a minute spent most of its
# time starting jobs (on the simulator 133 executions/s with -fork=2 against 250 for two plain
# processes, docs/SIMULATOR.md, sixth session; on a GPU each job also starts a CUDA context).
# Each worker is one libFuzzer process on the shared corpus folder (libFuzzer reloads it, so
# the workers see each other's finds); one that stops early on a failure (its artifact
# written: crash, timeout, oom) is started again for the time left, as fork mode's
# -ignore_crashes went on.
rm -f "$OUT"/fuzz-w*.log
worker() {   # worker <device> <id>
  local dev=$1 id=$2 run=0 left rc
  [ -n "$dev" ] && export CUDA_VISIBLE_DEVICES="$dev"
  while left=$(( start + TIME - $(date +%s) )); [ "$left" -gt 0 ]; do
    run=$((run + 1))
    "$FUZZ" -rss_limit_mb=8192 -timeout=60 -max_total_time="$left" -artifact_prefix="$OUT/artifacts/" \
      -print_final_stats=1 "$OUT/corpus" corpus/bin > "$OUT/fuzz-w$id-$run.log" 2>&1 &
    echo $! > "$OUT/.fuzz-w$id.pid"
    wait $!
    rc=$?
    [ $rc -eq 0 ] && break   # its time is up
  done
}
pids=()
for k in "${!DEVICES[@]}"; do
  jobs=$(( JOBS / ND + (k < JOBS % ND ? 1 : 0) ))
  for j in $(seq 1 "$jobs"); do
    worker "${DEVICES[$k]}" "$k.$j" &
    pids+=($!)
  done
done
logs_now() { ls "$OUT"/fuzz-w*.log 2>/dev/null; }
# The executions so far: each run's final count (or its latest status line), summed.
executions() {
  local total=0 n l
  for l in $(logs_now); do
    n=$(grep -aoE 'stat::number_of_executed_units: *[0-9]+' "$l" 2>/dev/null | grep -oE '[0-9]+$')
    [ -n "$n" ] || n=$(grep -aoE '^#[0-9]+' "$l" 2>/dev/null | tail -n 1 | tr -d '#')
    total=$(( total + ${n:-0} ))
  done
  echo $total
}
# Progress every 10 s; a run still going 30 s after the budget is stopped.
running() { for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && return 0; done; return 1; }
tick=0
while running; do
  sleep 1
  tick=$((tick + 1)); [ $((tick % 10)) -eq 0 ] || continue
  if [ $(( $(date +%s) - start )) -gt $(( TIME + 30 )) ]; then
    for f in "$OUT"/.fuzz-w*.pid; do kill -INT "$(cat "$f")" 2>/dev/null || true; done
  fi
  last=$(ls -t "$OUT"/fuzz-w*.log 2>/dev/null | head -n 1)
  line=$([ -n "$last" ] && grep -aE '^#[0-9]+' "$last" | tail -n 1 | sed -E 's/ +/ /g')
  echo "fuzz.sh: $(( $(date +%s) - start ))s $(executions) executions in $JOBS workers$([ "$ND" -gt 1 ] && echo " on $ND GPUs"); $(basename "$last" .log): ${line:0:80}"
done
for p in "${pids[@]}"; do wait "$p"; done
rm -f "$OUT"/.fuzz-w*.pid
set -e
mapfile -t logs < <(logs_now)
elapsed=$(( $(date +%s) - start ))
execs=$(executions)
echo "fuzz.sh: libFuzzer done after ${elapsed}s; executions: ${execs:-0} ($(( ${execs:-0} / (elapsed > 0 ? elapsed : 1) ))/s)"

grep -ahoE 'size cap: [^ ]+ runs only on cases of at most [0-9]+ elements' "${logs[@]}" 2>/dev/null |
  sort -u | sed 's/^/fuzz.sh: /' || true

# Failures by signature (variant verdict): the target prints "ERROR: redfuzz: VARIANT VERDICT"
# for each failing variant before aborting, into its worker's log.
echo "== failures by signature"
cat "${logs[@]}" 2>/dev/null | grep -aoE 'ERROR: redfuzz: [^ ]+ [a-z-]+' | cut -d' ' -f3- |
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
# What the corpus reaches in each variant's kernels, replayed on the simulator.
[ -n "$COVERAGE" ] || { [ "$BACKEND" = sim ] && COVERAGE=1 || COVERAGE=0; }
if [ "$COVERAGE" = 1 ]; then
  bash scripts/coverage.sh --only "$ONLY" --out "$OUT/coverage" "$OUT/corpus" corpus/bin ||
    echo "fuzz.sh: the coverage report failed (scripts/coverage.sh)"
fi
# Exit status: 1 when this campaign found a failure (a failing verdict, or a case that hung or
# ran out of memory), so run.sh and CI see it; 0 when it found none.
found=$(find "$OUT/artifacts" -newer "$marker" \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
sigs=$(cat "${logs[@]}" 2>/dev/null | grep -acE 'ERROR: redfuzz: [^ ]+ [a-z-]+' || true)
if [ "$found" -gt 0 ] || [ "${sigs:-0}" -gt 0 ]; then
  echo "fuzz.sh: FAILURES FOUND: $found new artifact(s) in $OUT/artifacts, $sigs failing verdict line(s) in the logs"
  exit 1
fi
echo "fuzz.sh: no failure found"
exit 0

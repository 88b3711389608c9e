#!/usr/bin/env bash
# Issue 12 on a GPU, building nothing (the build folder is made elsewhere:
# cmake --preset cuda -DREDFUZZ_FUZZER=ON; cmake --build build-cuda):
#  1. the device oracle's own test (every input of the boundary sweep, host == device), and
#     the row ops' (softmax of every type, the log ops: device verdicts == host verdicts);
#  2. host pipeline vs device pipeline (inputs, exact answers and verdict records made on the
#     device, each answer also re-checked on the host; passing results given from the device's
#     verdict records): the same verdict, exact answer and bound for every result of the
#     boundary sweep, f32, f16 and bf16 inputs, mutants included; every record re-checked on the host in a second
#     sweep; softmax, logsumexp and log-softmax (f32, f16, bf16; the device judges softmax of
#     every type and the log ops in float32) judged on the device vs on the host: the same
#     verdicts (shapes up to 256x4096, mutants included);
#  3. scripts/fuzz-rate.sh: libFuzzer executions/s, default caps, REDFUZZ_MAX_ELEMS=4096,
#     4096 with the sweep's device-path threshold, and default caps with in-batch re-checks;
#  4. verified runs/s at n = 2^20 (sum without sum/atomic, sum/atomic alone, max, argmax) and
#     softmax, logsumexp and logsoftmax 256x4096, each with the runner's time per case by
#     stage; 2^20 and the row ops also with the host judge (REDFUZZ_DEVICE_VERDICT=0), to see
#     what the device verdicts save;
#  5. scripts/throughput.sh as it is (sum there includes sum/atomic);
#  6. row ops of more rows than a judge launch takes: device == host verdicts, chunks of 4099
#     rows == one chunk (kernels/harness/row_summary.h).
#   scripts/gpu-fast-path.sh [--build DIR] [--time S] [--out DIR] [--steps LIST]
#   (defaults: build-cuda, 30, out/gpu12, every step; LIST: comma list of step numbers)
#   Env: GFP_BIG (default 2^20): the big size (a dry run on the simulator: GFP_BIG=2^16);
#   GFP_MANY_ROWS (default 65537x3,131073x2,70000x40): step 6's row-op shapes of many rows.
set -uo pipefail
RF_CALLER_DIR=${RF_CALLER_DIR:-$PWD}   # paths given are the caller's (lib/opts.sh)
cd "$(dirname "$0")/.."
RF_PROG="gpu-fast-path.sh"
source scripts/lib/opts.sh
BUILD=build-cuda; TIME=30; OUT=out/gpu12; STEPS=1,2,3,4,5,6
while [ $# -gt 0 ]; do
  case "$1" in
    --build) rf_opt_path BUILD "$@"; shift 2;;
    --time) rf_opt_value TIME "$@"; shift 2;;
    --out) rf_opt_path OUT "$@"; shift 2;;
    --steps) rf_opt_value STEPS "$@"; shift 2;;
    -h|--help) sed -n '2,25p' "$RF_SELF"; exit 0;;
    *) rf_opt_unknown "$1";;
  esac
done
RF=$BUILD/fuzz/redfuzz
[ -x "$RF" ] || { echo "gpu-fast-path.sh: $RF not built" >&2; exit 2; }
mkdir -p "$OUT"
status=0
[[ "$STEPS" =~ ^[1-6](,[1-6])*$ ]] || { echo "gpu-fast-path.sh: --steps: '$STEPS' is not a comma list of steps 1..6" >&2; exit 2; }
want() { [[ ",$STEPS," == *",$1,"* ]]; }
BIG=${GFP_BIG:-2^20}
MANY_ROWS=${GFP_MANY_ROWS:-65537x3,131073x2,70000x40}
export CUDA_MODULE_LOADING=EAGER
# same LABEL A B: the kept result lines A and B must be identical, or differ only for mutants
# (their bugs are races whose results vary between runs on a GPU); else status 1.
same() {
  local n differ; n=$(wc -l < "$2")
  if [ "$n" -gt 0 ] && cmp -s "$2" "$3"; then echo "   $1: identical: $n results"; return; fi
  differ=$(diff "$2" "$3" | grep -aoE '"variant":"[^"]*"' | sort -u | cut -d'"' -f4)
  echo "   $1: differ ($n results) for: $(echo $differ)"
  if [ "$n" -eq 0 ] || echo "$differ" | grep -qv '/mut-'; then status=1; echo "   a correct variant's result DIFFERS"; fi
}
# A row-op result line without the figures that come from the oracle that made it (steps 2, 6).
strip_sm() { grep -a '^{' "$1" | sed -E 's/"(ms|error|bound|ratio|got|want)":[^,]*,//g'; }

if want 1; then
echo "== 1. device oracle == host oracle on every boundary-sweep input ($(date +%T))"
if [ -x "$BUILD/tests/kernels_test_oracle_device" ]; then
  "$BUILD/tests/kernels_test_oracle_device" > "$OUT/oracle-device.txt" 2>&1 || status=1
  tail -n 3 "$OUT/oracle-device.txt"
else
  echo "   $BUILD/tests/kernels_test_oracle_device not built: skipped"
fi
# The row ops' device oracles and judges against the host's (softmax of every type, the log ops).
for t in kernels_test_softmax_device kernels_test_log_device; do
  if [ -x "$BUILD/tests/$t" ]; then
    "$BUILD/tests/$t" > "$OUT/$t.txt" 2>&1 || status=1
    echo "   $t: $(tail -n 1 "$OUT/$t.txt")"
  else
    echo "   $BUILD/tests/$t not built: skipped"
  fi
done
fi

if want 2; then
echo "== 2. host vs device pipeline: verdicts on the boundary sweep, mutants included ($(date +%T))"
ARGS=(sweep --op sum,max,argmax --dtype f32,f16,bf16 --mutants --json --quiet --dist all
      --n 0,1,31,32,33,255,256,257,1027,4096,16384,65537,$BIG --block 0,32,256,1024 --grid 0,7,300
      --seed 1..3)
# stdout alone: sweep's progress lines go to stderr and would split JSON lines in one file.
REDFUZZ_DEVICE_ORACLE=0 REDFUZZ_DEVICE_GEN=0 REDFUZZ_DEVICE_VERDICT=0 "$RF" "${ARGS[@]}" > "$OUT/host.txt" 2> "$OUT/host.err"
REDFUZZ_DEVICE_ORACLE=1 REDFUZZ_DEVICE_GEN=1 REDFUZZ_ORACLE_RECHECK=1 REDFUZZ_DEVICE_VERDICT=1 \
  REDFUZZ_VERDICT_RECHECK=0 "$RF" "${ARGS[@]}" > "$OUT/device.txt" 2> "$OUT/device.err"
# What the oracle decides (case, variant, verdict, exact answer, bound); what a variant
# returned ("got", its error) may differ between two runs of a non-deterministic variant.
keep() { grep -a '^{' "$1" | sed -E 's/"suspicious":[^,]*,//; s/"error":[^,]*,//; s/"ratio":[^,]*,//; s/"ms":[^,]*,//; s/"got":[^,]*,//; s/,"detail":.*\}$/}/'; }
keep "$OUT/host.txt" > "$OUT/host.keep"; keep "$OUT/device.txt" > "$OUT/device.keep"
# The oracle's own fields (exact answer and bound per result) must be identical everywhere.
sed -E 's/"verdict":"[^"]*",//' "$OUT/host.keep" > "$OUT/host.oracle"
sed -E 's/"verdict":"[^"]*",//' "$OUT/device.keep" > "$OUT/device.oracle"
n=$(wc -l < "$OUT/host.keep"); fails=$(grep -cE '"verdict":"(wrong|nonfinite|unwritten|oob|nondeterministic)"' "$OUT/host.keep")
if [ "$n" -eq 0 ] || ! cmp -s "$OUT/host.oracle" "$OUT/device.oracle"; then
  status=1
  echo "   exact answers or bounds DIFFER ($n host results, $(wc -l < "$OUT/device.keep") device results):"
  diff "$OUT/host.oracle" "$OUT/device.oracle" | head -n 6 | cut -c1-300
elif cmp -s "$OUT/host.keep" "$OUT/device.keep"; then
  echo "   identical verdicts, exact answers and bounds: $n results ($fails failure verdicts among them)"
else
  # Verdicts may differ only where a mutant's race makes its result vary from run to run.
  differ=$(diff "$OUT/host.keep" "$OUT/device.keep" | grep -aoE '"variant":"[^"]*"' | sort -u | cut -d'"' -f4)
  echo "   exact answers and bounds identical ($n results); verdicts differ for: $(echo $differ)"
  if echo "$differ" | grep -qv '/mut-'; then
    status=1; echo "   a correct variant's verdict DIFFERS"
  else
    echo "   (mutants only: their bugs are races whose results vary between runs on a GPU)"
  fi
fi
grep -aE '^exact answers made on the device|^verdicts made on the device|^sweep:' "$OUT/device.txt" | sed 's/^/   /'
# Every device verdict record also judged on the host (REDFUZZ_VERDICT_RECHECK=1): any
# difference is a harness failure (launch-error "harness failure: ...", exit 1).
REDFUZZ_DEVICE_ORACLE=1 REDFUZZ_DEVICE_GEN=1 REDFUZZ_DEVICE_VERDICT=1 REDFUZZ_VERDICT_RECHECK=1 \
  "$RF" sweep --op sum,max,argmax --quiet --dist all --n 33,4096,$BIG --block 0,256 --seed 1..2 \
  > "$OUT/verdict-recheck.txt" 2>&1 || { status=1; echo "   device verdict records re-checked on the host: FAILED (see $OUT/verdict-recheck.txt)"; }
grep -aE '^verdicts made on the device|harness failure' "$OUT/verdict-recheck.txt" | head -n 5 | sed 's/^/   re-check: /'

# Softmax and the log ops judged on the device (oracle and element checks there) against the
# host path: the same verdicts (the worst element's figures come from the device oracle: not
# compared).
for ops in softmax logsoftmax,logsumexp; do
  tag=${ops%%,*}
  SM=(sweep --op "$ops" --dtype f32,f16,bf16 --mutants --json --quiet --dist all --shape 1x1,2x31,4x33,3x257,8x1024,16x4099,256x4096
      --block 0,256 --seed 1..2)
  REDFUZZ_DEVICE_VERDICT=0 "$RF" "${SM[@]}" > "$OUT/$tag-host.txt" 2> "$OUT/$tag-host.err"
  REDFUZZ_DEVICE_VERDICT=1 REDFUZZ_DEVICE_GEN=1 REDFUZZ_VERDICT_RECHECK=0 "$RF" "${SM[@]}" > "$OUT/$tag-device.txt" 2> "$OUT/$tag-device.err"
  strip_sm "$OUT/$tag-host.txt" > "$OUT/$tag-host.keep"; strip_sm "$OUT/$tag-device.txt" > "$OUT/$tag-device.keep"
  same "$ops, verdicts host vs device judge" "$OUT/$tag-host.keep" "$OUT/$tag-device.keep"
  grep -aE '^verdicts made on the device|^softmax cases judged|^log-op cases judged' "$OUT/$tag-device.txt" | sed 's/^/   /'
done
fi

if want 3; then
echo "== 3. fuzz rate ($(date +%T))"
if [ -x "$BUILD/fuzz/redfuzz_fuzz" ]; then
  bash scripts/fuzz-rate.sh --build "$BUILD" --time "$TIME" 2>&1 | tee "$OUT/fuzz-rate.txt" || status=1
else
  echo "   $BUILD/fuzz/redfuzz_fuzz not built (-DREDFUZZ_FUZZER=ON): skipped"
fi
fi

if want 4; then
echo "== 4. throughput, verified runs/s ($(date +%T))"
# 768 cases each (12 distributions x 64 seeds), the third session's count: with the 1-in-64
# host re-check the last sampled case's re-check is waited for at the end of the sweep, which a
# short sweep mostly measures (eighth session, 2^20: 256 cases gave max 16,161 and argmax
# 13,535 runs/s, 768 cases 26,566 and 21,323; docs/RESULTS.md).
SWEEP_DISTS=uniform,ones,negative,sorted,wide,alternating,index-weighted,equal-max,spike,shifted-rows,ties,signed-zero
tp() {   # label, sweep arguments...
  local label=$1; shift
  local out; out=$("$RF" sweep --quiet --dist "$SWEEP_DISTS" --seed 1..64 "$@" 2>&1)
  printf '   %-34s %s\n' "$label" "$(echo "$out" | grep -o '[0-9]* verified runs/s')"
  echo "$out" | grep -E '^time per case|^background|^exact answers|^verdicts made|^softmax oracle|^log-op oracle|cases judged on the device' | sed 's/^/      /'
}
tp "sum $BIG (no sum/atomic)" --op sum --n $BIG --skip sum/atomic
tp "sum/atomic $BIG" --op sum --n $BIG --variant sum/atomic
tp "max $BIG" --op max --n $BIG
tp "argmax $BIG" --op argmax --n $BIG
# The same with the host judge (buffers read back and checked on the host), for comparison.
REDFUZZ_DEVICE_VERDICT=0 tp "sum $BIG (no atomic), host judge" --op sum --n $BIG --skip sum/atomic
REDFUZZ_DEVICE_VERDICT=0 tp "max $BIG, host judge" --op max --n $BIG
REDFUZZ_DEVICE_VERDICT=0 tp "argmax $BIG, host judge" --op argmax --n $BIG
tp "softmax 256x4096" --op softmax --shape 256x4096
REDFUZZ_DEVICE_VERDICT=0 tp "softmax 256x4096, host judge" --op softmax --shape 256x4096
tp "logsumexp 256x4096" --op logsumexp --shape 256x4096
REDFUZZ_DEVICE_VERDICT=0 tp "logsumexp 256x4096, host judge" --op logsumexp --shape 256x4096
tp "logsoftmax 256x4096" --op logsoftmax --shape 256x4096
REDFUZZ_DEVICE_VERDICT=0 tp "logsoftmax 256x4096, host judge" --op logsoftmax --shape 256x4096
tp "sum 4096 (no sum/atomic)" --op sum --n 4096 --skip sum/atomic
REDFUZZ_DEVICE_ORACLE=1 REDFUZZ_DEVICE_GEN=1 REDFUZZ_DEVICE_VERDICT=1 \
  tp "sum 4096 (no atomic), all on device" --op sum --n 4096 --skip sum/atomic
fi

if want 5; then
echo "== 5. scripts/throughput.sh (every op, n = 4096 and $BIG, softmax 4x1024 and 256x4096) ($(date +%T))"
bash scripts/throughput.sh --build "$BUILD" 2>&1 | tee "$OUT/throughput.txt" | sed 's/^/   /'
fi
if want 6; then
echo "== 6. row ops of many rows judged on the device a chunk at a time ($(date +%T))"
# Row ops of more rows than one judge launch takes (kernels/harness/row_summary.h): judged on the
# device a chunk at a time (REDFUZZ_ROW_CHUNK=4099 forces many chunks; the default takes the
# rows whose records fit 64 MiB), the same verdicts as the host judge, and the same results,
# worst element included, as one chunk of every row.
MR=(sweep --op softmax,logsumexp,logsoftmax --dtype f32,bf16 --mutants --json --quiet
    --dist uniform,near-overflow,nan-sprinkled,all-neg-inf,ties --shape "$MANY_ROWS" --seed 1)
REDFUZZ_DEVICE_VERDICT=0 "$RF" "${MR[@]}" > "$OUT/many-rows-host.txt" 2> "$OUT/many-rows-host.err"
for k in default 4099 2147483648; do
  env $( [ $k = default ] || echo REDFUZZ_ROW_CHUNK=$k ) REDFUZZ_DEVICE_VERDICT=1 REDFUZZ_DEVICE_GEN=1 \
    REDFUZZ_VERDICT_RECHECK=0 "$RF" "${MR[@]}" > "$OUT/many-rows-$k.txt" 2> "$OUT/many-rows-$k.err"
done
strip_sm "$OUT/many-rows-host.txt" > "$OUT/many-rows-host.keep"
strip_sm "$OUT/many-rows-default.txt" > "$OUT/many-rows-default.keep"
notime() { grep -a '^{' "$1" | sed -E 's/"ms":[^,]*,//g'; }
same "many rows, verdicts host vs device judge" "$OUT/many-rows-host.keep" "$OUT/many-rows-default.keep"
notime "$OUT/many-rows-4099.txt" > "$OUT/many-rows-4099.keep"
notime "$OUT/many-rows-2147483648.txt" > "$OUT/many-rows-whole.keep"
same "many rows, chunks of 4099 rows vs one chunk" "$OUT/many-rows-4099.keep" "$OUT/many-rows-whole.keep"
grep -aE '^host path|cases judged on the device|^launches per case' "$OUT/many-rows-default.txt" | sed 's/^/   default chunk: /'
fi
echo "== done ($(date +%T)); logs in $OUT"
exit $status

#!/usr/bin/env bash
# Everything we check on a real GPU, in one go (NVIDIA: cuda build; AMD: hip build):
# boundary sweep, compute-sanitizer (NVIDIA), results for the simulator comparison, bench,
# throughput. Writes logs to OUT.
#   scripts/gpu-verify.sh [--build DIR] [--out DIR] [--skip STEP,...]
# Steps: list sweep sanitize bits bench throughput plugin huge
set -uo pipefail
RF_CALLER_DIR=${RF_CALLER_DIR:-$PWD}   # paths given are the caller's (lib/opts.sh)
cd "$(dirname "$0")/.."
RF_PROG="gpu-verify.sh"
source scripts/lib/opts.sh
BUILD=build-cuda; OUT=out/gpu; SKIP=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build) rf_opt_path BUILD "$@"; shift 2;;
    --out) rf_opt_path OUT "$@"; shift 2;;
    --skip) rf_opt_value SKIP "$@"; shift 2;;
    -h|--help) sed -n '2,7p' "$RF_SELF"; exit 0;;
    *) rf_opt_unknown "$1";;
  esac
done
RF=$BUILD/fuzz/redfuzz
mkdir -p "$OUT"
want() { [[ ",$SKIP," != *",$1,"* ]]; }
step() { echo "== $1 ($(date +%T))"; }
status=0

if want list; then step list; "$RF" list > "$OUT/list.txt" 2>&1 || status=1; head -3 "$OUT/list.txt"; fi

if want sweep; then
  step "sweep: seed boundary lengths and shapes x all distributions x blocks 32..1024"
  "$RF" sweep --quiet --dist all --block 0,32,64,128,256,512,1024 \
    --n 0,1,31,32,33,255,256,257,1027,16777216 \
    --shape 1x1,2x31,3x32,4x33,2x255,3x257,4096x1024,2x30000,1x0,0x5 > "$OUT/sweep.txt" 2>&1 || status=1
  tail -n 22 "$OUT/sweep.txt"
  step "sweep: mutants on the boundary cases"
  "$RF" sweep --quiet --mutants --dist ones,negative,equal-max,shifted-rows,uniform \
    --block 0,32,256 --grid 0,300 > "$OUT/sweep-mutants.txt" 2>&1
  grep -E 'mutant' "$OUT/sweep-mutants.txt"
fi

if want sanitize && command -v compute-sanitizer >/dev/null; then
  for tool in racecheck synccheck memcheck; do
    step "compute-sanitizer --tool $tool"
    # Small cases: the tools slow launches down ~15x. At most 150 s per tool.
    timeout 150 compute-sanitizer --tool $tool --error-exitcode 9 --print-limit 20 "$RF" sweep \
      --quiet --n 1,33,1027 --dist uniform --block 0,1024 --shape 1x1,4x33,3x257 \
      > "$OUT/sanitize-$tool.txt" 2>&1
    rc=$?; [ $rc -ne 0 ] && status=1
    echo "$tool: exit $rc"; grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|passed, .* failed' "$OUT/sanitize-$tool.txt" | tail -3
  done
fi

if want bits; then
  step "deterministic results for the simulator comparison"
  "$RF" sweep --quiet --json --op sum,max,argmax --dist all --block 0,256 \
    --n 1,31,32,33,255,256,257,1027,4096 > "$OUT/bits-gpu.jsonl" 2>/dev/null
  wc -l < "$OUT/bits-gpu.jsonl"
fi

if want bench; then step bench; bash scripts/bench.sh --build "$BUILD" > "$OUT/bench.txt" 2>&1 || status=1; cat "$OUT/bench.txt"; fi
if want throughput; then step throughput; bash scripts/throughput.sh --build "$BUILD" > "$OUT/throughput.txt" 2>&1; cat "$OUT/throughput.txt"; fi
if want plugin; then
  # The example plugin (examples/plugin) on this backend: through the CLI and the fuzz target.
  PLUG=$(ls "$BUILD"/examples/plugin/*.so 2>/dev/null | head -n 1)
  step "plugin: ${PLUG:-not built}"
  if [ -n "$PLUG" ]; then
    "$RF" --plugin "$PLUG" sweep --quiet --op sum --dist all --block 0,32,1024 \
      --n 1,31,33,257,1027,1048576 > "$OUT/plugin.txt" 2>&1
    grep -E 'plugin-|passed, .* failed' "$OUT/plugin.txt"
    # The example must pass everything; the planted variant (a mutant) must be caught.
    if [ -x "$BUILD/fuzz/redfuzz_fuzz" ]; then
      REDFUZZ_PLUGINS="$PLUG" REDFUZZ_ONLY=sum/plugin-example "$BUILD/fuzz/redfuzz_fuzz" \
        -runs=3000 -print_final_stats=1 corpus/bin > "$OUT/plugin-fuzz.txt" 2>&1
      echo "plugin fuzz (sum/plugin-example alone, 3000 runs): exit $?"; grep -E 'stat::number_of_executed_units|FAIL|Done' "$OUT/plugin-fuzz.txt" | head -3
      REDFUZZ_PLUGINS="$PLUG" REDFUZZ_ONLY=sum/plugin-drops-last "$BUILD/fuzz/redfuzz_fuzz" \
        -runs=3000 -artifact_prefix="$OUT/" corpus/bin > "$OUT/plugin-fuzz-planted.txt" 2>&1
      echo "plugin fuzz (planted sum/plugin-drops-last alone): exit $? (non-zero: caught)"; grep -aE 'verdict|variant' "$OUT/plugin-fuzz-planted.txt" | head -3
    fi
  fi
fi
if want huge; then
  # Issue 37: sizes past 2^31 and 2^32 on the markers distribution (docs/CASE_FORMAT.md):
  # `sweep --huge` adds n = 2^31-1, 2^31, 2^31+5, 2^32+3 for every 1-D op in f32, f16 and bf16
  # (2^32 16-bit elements are 8 GiB; argmax/argmin write 64-bit indices); with --mutants the
  # huge-only index mutants (`list --json`'s "huge_only") run at their boundary and each must
  # be caught. The other mutants run too; on markers most of them pass (their bugs need ties,
  # NaN, races...), so only the index mutants' rows are held to it.
  step "huge: sweep --huge, markers past 2^31 and 2^32"
  "$RF" sweep --huge --op sum,max,min,argmax,argmin --dtype f32,f16,bf16 --dist markers \
    --mutants > "$OUT/huge.txt" 2>&1 || status=1
  grep -E 'mutant|passed, .* failed' "$OUT/huge.txt" | tail -n 40
  huge_only=$("$RF" list --json | grep '"huge_only":true' | sed 's/^{"variant":"\([^"]*\)".*/\1/')
  [ -n "$huge_only" ] || { echo "huge: list --json names no huge-only mutant"; status=1; }
  for m in $huge_only; do
    grep -qE "^$m +[0-9].*\(mutant: caught\)" "$OUT/huge.txt" || { echo "huge: $m NOT caught"; status=1; }
  done
fi
echo "gpu-verify: done, status $status"
exit $status

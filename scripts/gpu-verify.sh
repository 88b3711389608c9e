#!/usr/bin/env bash
# Everything we check on a real GPU, in one go (NVIDIA: cuda build; AMD: hip build):
# boundary sweep, compute-sanitizer (NVIDIA), results for the simulator comparison, bench,
# throughput. Writes logs to OUT.
#   scripts/gpu-verify.sh [--build DIR] [--out DIR] [--skip STEP,...]
# Steps: list sweep sanitize bits bench throughput
set -uo pipefail
cd "$(dirname "$0")/.."
BUILD=build-cuda; OUT=out/gpu; SKIP=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD=$2; shift 2;;
    --out) OUT=$2; shift 2;;
    --skip) SKIP=$2; shift 2;;
    -h|--help) sed -n '2,7p' "$0"; exit 0;;
    *) echo "gpu-verify.sh: unknown option '$1'" >&2; exit 2;;
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
    --shape 1x1,2x31,3x32,4x33,2x255,3x257,4096x1024,1x0,0x5 > "$OUT/sweep.txt" 2>&1 || status=1
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
echo "gpu-verify: done, status $status"
exit $status

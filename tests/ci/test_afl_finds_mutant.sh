#!/usr/bin/env bash
# AFL++ finds a planted bug on the simulator: `scripts/fuzz.sh --engine afl` fuzzes the known-
# bug mutant max/mut-pad-zero (pads with 0 instead of -inf: wrong when every element is
# negative and n is not a multiple of the block) from the max seeds on which it still passes,
# so AFL must mutate an input into a failing one; the crash is shrunk by `redfuzz shrink` into
# a regressions folder (a temporary one here) under the mutant's signature.
#   tests/ci/test_afl_finds_mutant.sh [--build DIR] [--budget S]   (defaults build-afl-sim, 240)
# Exits 0 when found and shrunk within the budget, 1 when not, 2 on misuse.
set -euo pipefail
cd "$(dirname "$0")/../.."
BUILD=build-afl-sim BUDGET=240 MUTANT=max/mut-pad-zero
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD=$2; shift 2;;
    --budget) BUDGET=$2; shift 2;;
    *) echo "test_afl_finds_mutant: unknown option '$1'" >&2; exit 2;;
  esac
done
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
FUZZ=$BUILD/fuzz/redfuzz_fuzz
bash scripts/fuzz-afl.sh --build "$BUILD" --build-only   # builds it when absent
# Seeds: the max inputs of the corpus, minus those on which the mutant already fails.
mkdir -p "$work/seeds"
kept=0 dropped=0
for s in corpus/bin/max-*.bin; do
  # "; exit $?" keeps the subshell from exec'ing, so bash's "Aborted" goes to /dev/null too
  if (REDFUZZ_ONLY=$MUTANT timeout 60 "$FUZZ" "$s"; exit $?) >/dev/null 2>&1; then
    cp "$s" "$work/seeds/"; kept=$((kept + 1))
  else
    dropped=$((dropped + 1))
  fi
done
echo "seeds: $kept on which $MUTANT passes, $dropped dropped (it already fails on them)"
if [ "$kept" -eq 0 ] || [ "$dropped" -eq 0 ]; then
  echo "FAIL: expected both passing and failing max seeds for $MUTANT"; exit 1
fi
start=$(date +%s)
# Exit 1: the campaign found a failure (fuzz.sh's table, every engine).
rc=0
bash scripts/fuzz.sh --engine afl --build "$BUILD" --only "$MUTANT" --seeds "$work/seeds" \
  --time "$BUDGET" --jobs 1 --until-crash --out "$work/out" --regressions "$work/reg" | tee "$work/log" || rc=$?
took=$(( $(date +%s) - start ))
crashes=$(find "$work/out/afl" -path '*/crashes/id:*' -type f | wc -l)
shrunk=$(find "$work/reg" -name 'max-mut-pad-zero-wrong-*.case' | head -n 1)
if [ "$crashes" -gt 0 ] && [ "$rc" -ne 1 ]; then
  echo "FAIL: $crashes crashes found, but the campaign exited $rc (expected 1: a failure found)"; exit 1
fi
if [ "$crashes" -gt 0 ] && [ -n "$shrunk" ]; then
  echo "PASS: AFL++ found $MUTANT in ${took}s ($crashes crashes); shrunk to $(basename "$shrunk"):"
  grep -v '^#' "$shrunk" | head -n 8 | sed 's/^/    /'
  exit 0
fi
echo "FAIL: after ${took}s, $crashes crashes and no max-mut-pad-zero-wrong-*.case in the regressions"
find "$work/reg" -name '*.case' 2>/dev/null | head
exit 1

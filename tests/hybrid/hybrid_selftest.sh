#!/usr/bin/env bash
# The hybrid campaign end to end on one machine without a GPU: a plain simulator fuzz build
# stands in for the GPU side, a ThreadSanitizer simulator fuzz build is the partner, both on
# the planted mutant softmax/mut-lds-reuse-race (seed 004's LDS reuse race): the plain side
# sees wrong results, the TSan side the race itself. Checks that each side's failures are
# reported under its name, shrunk into the regressions folder with the side named in the
# file, that both sides fuzzed the one shared corpus folder, and the executions summary.
#   tests/hybrid/hybrid_selftest.sh PLAIN_FUZZ_BUILD TSAN_FUZZ_BUILD [SECONDS]
set -euo pipefail
cd "$(dirname "$0")/../.."
PLAIN=${1:?plain simulator fuzz build folder}; TSAN=${2:?ThreadSanitizer simulator fuzz build folder}
TIME=${3:-20}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "hybrid_selftest: FAIL: $*"; echo "--- log:"; cat "$tmp/log"; exit 1; }
bash scripts/fuzz.sh --hybrid --backend sim --build "$PLAIN" --sim-build "$TSAN" --time "$TIME" \
  --only softmax/mut-lds-reuse-race --gpu-jobs 1 --sim-jobs 1 --out "$tmp/out" \
  --regressions "$tmp/reg" > "$tmp/log" 2>&1 || fail "fuzz.sh --hybrid exited $?"
grep -qE '^sim-plain: [0-9]+ executions \([0-9]+/s\)' "$tmp/log" || fail "no executions line for the plain side"
grep -qE '^sim-tsan: [0-9]+ executions \([0-9]+/s\)' "$tmp/log" || fail "no executions line for the TSan side"
# Each side's finding under its own name, in summary order (plain side first).
awk '/^sim-plain:/{s="plain"} /^sim-tsan:/{s="tsan"}
     s=="plain" && /softmax\/mut-lds-reuse-race wrong: [0-9]+ failing run/ {p=1}
     s=="tsan" && /softmax\/mut-lds-reuse-race race: [0-9]+ failing run/ {t=1}
     END {exit !(p && t)}' "$tmp/log" || fail "expected 'wrong' from the plain side and 'race' from the TSan side"
f=$(ls "$tmp"/reg/softmax-mut-lds-reuse-race-wrong-*.case 2>/dev/null | head -n 1)
[ -n "$f" ] && grep -q '^# found by: hybrid campaign, sim-plain side' "$f" || fail "no plain-side regression naming its side"
f=$(ls "$tmp"/reg/tsan/softmax-mut-lds-reuse-race-race-*.case 2>/dev/null | head -n 1)
[ -n "$f" ] && grep -q '^# found by: hybrid campaign, sim-tsan side' "$f" || fail "no TSan-side regression naming its side"
# The shrunk TSan case still races in the TSan build (its expect lines hold there).
TSAN_OPTIONS="halt_on_error=0 report_signal_unsafe=0" "$TSAN/fuzz/redfuzz" replay "$f" > "$tmp/replay" 2>&1 ||
  { cat "$tmp/replay" >> "$tmp/log"; fail "the TSan regression does not replay in $TSAN"; }
# Both sides loaded the one shared corpus folder.
for side in sim-plain sim-tsan; do
  grep -aq "files found in $tmp/out/corpus\$" "$tmp"/out/logs/$side-1-1.log || fail "$side did not load the shared corpus"
done
echo "hybrid_selftest: ok ($(grep -E '^sim-(plain|tsan):' "$tmp/log" | tr '\n' ';'))"

#!/usr/bin/env bash
# A plugin in a hybrid campaign: the example plugin's source (its planted bug
# sum/plugin-drops-last) goes through `fuzz.sh --hybrid --plugin-src` with a plain simulator
# fuzz build standing in for the GPU side and a ThreadSanitizer one as the partner. Each
# side's library is built from the source for that side; the finding is shrunk with it into
# the regressions folder and replays there with the plugin loaded.
#   tests/hybrid/plugin_hybrid.sh PLAIN_FUZZ_BUILD TSAN_FUZZ_BUILD [SECONDS]
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
PLAIN=$(realpath "$1"); TSAN=$(realpath "$2"); TIME=${3:-15}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rf hybrid plugin.XXXXXX"); trap 'rm -rf "$tmp"' EXIT
fail() { echo "plugin_hybrid: FAIL: $*"; echo "--- log:"; cat "$tmp/log"; exit 1; }
bash scripts/fuzz.sh --hybrid --backend sim --build "$PLAIN" --sim-build "$TSAN" --time "$TIME" \
  --plugin-src examples/plugin/my_sum.hip --only sum/plugin-drops-last --gpu-jobs 1 --sim-jobs 1 \
  --out "$tmp/out" --regressions "$tmp/reg" > "$tmp/log" 2>&1 || fail "fuzz.sh --hybrid exited $?"
grep -q "plugin sim-plain side: $tmp/out/plugin/sim/libmy_sum.so" "$tmp/log" || fail "the plain side did not get the sim library"
grep -q "plugin sim-tsan side: $tmp/out/plugin/sim-tsan/libmy_sum.so" "$tmp/log" || fail "the TSan side did not get the sim-tsan library"
grep -qE '^  sum/plugin-drops-last wrong: [0-9]+ failing run' "$tmp/log" || fail "no sum/plugin-drops-last finding"
f=$(ls "$tmp"/reg/sum-plugin-drops-last-wrong-*.case 2>/dev/null | head -n 1)
[ -n "$f" ] || fail "the finding was not shrunk into the regressions folder"
"$PLAIN/fuzz/redfuzz" --plugin "$tmp/out/plugin/sim/libmy_sum.so" replay "$f" > "$tmp/replay" 2>&1 ||
  { cat "$tmp/replay" >> "$tmp/log"; fail "the shrunk case does not replay with the plugin"; }
echo "plugin_hybrid: ok ($(basename "$f"))"

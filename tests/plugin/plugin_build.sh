#!/usr/bin/env bash
# scripts/redfuzz-plugin end to end: builds the example plugin for this build's flavour and
# the other simulator flavour (sim and sim-tsan), then loads each into this build's redfuzz:
# its own flavour loads and is judged (the correct variant passes, the planted bug is `wrong`),
# the other is refused by the loader's sanitizer check (so the two libraries really differ in
# the flag that matters). The example is plain HIP (examples/plugin/my_sum.hip), so the simulator
# flavours go through the plain-HIP build step. A flavour asked for that builds nothing exits 2.
#   plugin_build.sh SRC REDFUZZ FLAVOUR OTHER     (FLAVOUR: sim or sim-tsan)
set -uo pipefail
SRC=$1 RF=$2 MINE=$3 OTHER=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rf plugin.XXXXXX"); trap 'rm -rf "$tmp"' EXIT   # a space on purpose
fail() { echo "plugin_build: FAIL: $*"; exit 1; }
out=$(bash "$SRC/scripts/redfuzz-plugin" build "$SRC/examples/plugin/my_sum.hip" --out "$tmp/out" \
      --backends "$MINE,$OTHER" 2>&1) || fail "redfuzz-plugin exited $?: $out"
echo "$out"
lib="$tmp/out/$MINE/libmy_sum.so" other="$tmp/out/$OTHER/libmy_sum.so"
grep -qx "built $MINE: $lib" <<<"$out" || fail "no 'built $MINE: $lib' line"
grep -qx "built $OTHER: $other" <<<"$out" || fail "no 'built $OTHER: $other' line"
export TSAN_OPTIONS="halt_on_error=0 report_signal_unsafe=0 ${TSAN_OPTIONS:-}"
run=$("$RF" --plugin "$lib" run --op sum --n 1027 --dist ones --mutants 2>&1)
grep -qE '^sum/plugin-example +pass' <<<"$run" || fail "sum/plugin-example did not pass: $run"
grep -qE '^sum/plugin-drops-last +wrong' <<<"$run" || fail "sum/plugin-drops-last was not wrong: $run"
echo "ok   $MINE library loads into $RF and is judged"
ref=$("$RF" --plugin "$other" list 2>&1); rc=$?
[ $rc -eq 2 ] && grep -qE "built with sanitizer|undefined symbol: __tsan_" <<<"$ref" ||
  fail "the $OTHER library was not refused (exit $rc): $ref"
echo "ok   $OTHER library refused: $(head -c 160 <<<"$ref")"
# A missing source and a flag without a value: usage errors naming them.
bad=$(bash "$SRC/scripts/redfuzz-plugin" build "$tmp/none.hip" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "source '$tmp/none.hip' is not a file" <<<"$bad" || fail "missing source: exit $rc: $bad"
bad=$(bash "$SRC/scripts/redfuzz-plugin" build "$SRC/examples/plugin/my_sum.hip" --backends 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q -- "--backends needs a value" <<<"$bad" || fail "--backends without value: exit $rc: $bad"
bad=$(bash "$SRC/scripts/redfuzz-plugin" build "$SRC/examples/plugin/my_sum.hip" --backends sim,rocm 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q -- "--backends: 'rocm' is not a flavour (allowed: sim, sim-tsan" <<<"$bad" || fail "--backends rocm: exit $rc: $bad"
# A flavour asked for that builds nothing is an error naming it (exit 2), never a silent skip:
# a source the compiler refuses, asked for sim only.
printf '#include <hip/hip_runtime.h>\n__global__ void k(float *x) { x[0] = undeclared; }\n' > "$tmp/broken.hip"
bad=$(bash "$SRC/scripts/redfuzz-plugin" build "$tmp/broken.hip" --out "$tmp/broken" --backends "$MINE" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "^not built $MINE: .*undeclared" <<<"$bad" &&
  grep -q "redfuzz-plugin: built nothing for $MINE (asked for" <<<"$bad" ||
  fail "a flavour that built nothing: exit $rc, expected 2 naming $MINE: $bad"
echo "ok   a flavour that builds nothing: exit 2, named"
echo "plugin_build: ok"

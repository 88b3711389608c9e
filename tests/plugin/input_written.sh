#!/usr/bin/env bash
# shrink and replay of a case where a variant writes its input (issue 47): the signature is the
# writer's `input-written` (not the next variant's `wrong`), shrinking keeps it, the regression
# file expects it on the writer and `pass` on the correct variant after it, and replay holds it.
#   input_written.sh REDFUZZ INPUT_WRITER_PLUGIN
set -uo pipefail
RF=$(realpath "$1") PLUGIN=$(realpath "$2")
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
fail=0
printf 'op=sum\nn=1027\ndist=uniform\nseed=7\n' > "$TMP/c.case"
only=sum/plugin-test-zero-input,sum/plugin-test-write-past,sum/plugin-test-after
out=$("$RF" --plugin "$PLUGIN" shrink "$TMP/c.case" --only "$only" --out "$TMP/r" 2>&1); rc=$?
echo "$out"
if [ "$rc" != 0 ] || ! grep -q '^signature: sum/plugin-test-zero-input input-written$' <<< "$out"; then
  echo "FAIL: shrink did not give the writer's input-written signature (exit $rc)"; fail=1
fi
reg=$(ls "$TMP"/r/sum-plugin-test-zero-input-input-written-*.case 2>/dev/null | head -1)
if [ -z "$reg" ]; then
  echo "FAIL: no regression file named after the writer's input-written"; fail=1
else
  cat "$reg"
  for want in 'expect sum/plugin-test-zero-input input-written' \
              'expect sum/plugin-test-write-past oob' 'expect sum/plugin-test-after pass' \
              'expect sum/lds pass'; do
    grep -qx "$want" "$reg" || { echo "FAIL: the regression file lacks '$want'"; fail=1; }
  done
  grep -q '^n=1$' "$reg" || { echo "FAIL: not shrunk to n=1"; fail=1; }
  out=$("$RF" --plugin "$PLUGIN" replay "$TMP/r" 2>&1); rc=$?
  echo "$out"
  if [ "$rc" != 0 ] || ! grep -q '^1 passed, 0 failed$' <<< "$out"; then
    echo "FAIL: replay of the regression file (exit $rc)"; fail=1
  fi
fi
[ "$fail" -eq 0 ] && echo "input_written: ok"
exit "$fail"

#!/usr/bin/env bash
# redfuzz guard on one finding (tests/plugin/userloop-finding.case), quick enough for every
# build (the sanitizer builds included; plugin.user_loop walks the whole loop in the plain
# build): on the buggy build replay holds the finding and guard changes nothing; on the fixed
# build (same library name) replay fails naming guard, guard --dry-run shows the change and
# writes nothing, guard rewrites the line (the others kept byte for byte, no temporary left),
# replay then passes, the buggy build fails the guard, and a second guard says nothing changed.
#   guard.sh REDFUZZ BUGGY_LIB FIXED_LIB FINDING
set -uo pipefail
RF=$1 BUGGY=$2 FIXED=$3 FINDING=$4
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rf guard.XXXXXX"); trap 'rm -rf "$tmp"' EXIT
fail() { echo "guard: FAIL: $*"; exit 1; }
ok() { echo "ok   $*"; }
mkdir "$tmp/my findings"; F="$tmp/my findings/finding.case"
cp "$FINDING" "$F"

"$RF" --plugin "$BUGGY" replay "$F" > "$tmp/log" 2>&1 || fail "replay on the buggy build: $(cat "$tmp/log")"
"$RF" --plugin "$BUGGY" guard "$F" > "$tmp/log" 2>&1; rc=$?
[ $rc -eq 1 ] && cmp -s "$F" "$FINDING" && grep -q "still fails .*sum/userloop expected wrong, got wrong" "$tmp/log" ||
  fail "guard on the buggy build: exit $rc: $(cat "$tmp/log")"
ok "buggy build: replay holds the finding, guard leaves it (still fails)"

"$RF" --plugin "$FIXED" replay "$F" > "$tmp/log" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "sum/userloop expected wrong, got pass" "$tmp/log" && grep -q "guard $F" "$tmp/log" ||
  fail "replay after the fix: exit $rc: $(cat "$tmp/log")"
"$RF" --plugin "$FIXED" guard --dry-run "$F" > "$tmp/log" 2>&1
cmp -s "$F" "$FINDING" && grep -q "^would rewrite " "$tmp/log" || fail "guard --dry-run: $(cat "$tmp/log")"
ok "fixed build: replay fails naming guard; --dry-run writes nothing"

line=$(grep -n '^expect sum/userloop wrong$' "$FINDING" | cut -d: -f1)
"$RF" --plugin "$FIXED" guard "$F" > "$tmp/log" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -qE ": line $line: expect sum/userloop wrong  ->  expect sum/userloop pass$" "$tmp/log" ||
  fail "guard: exit $rc: $(cat "$tmp/log")"
diff <(sed 's/^expect sum\/userloop pass  # was .*$/expect sum\/userloop wrong/' "$F") "$FINDING" > /dev/null ||
  fail "guard changed more than the line: $(diff "$F" "$FINDING")"
[ "$(ls -A "$tmp/my findings")" = finding.case ] || fail "left in the folder: $(ls -A "$tmp/my findings")"
"$RF" --plugin "$FIXED" replay "$F" > "$tmp/log" 2>&1 || fail "replay after guard: $(cat "$tmp/log")"
"$RF" --plugin "$BUGGY" replay "$F" > "$tmp/log" 2>&1; rc=$?
[ $rc -eq 1 ] && grep -q "sum/userloop expected pass, got wrong" "$tmp/log" || fail "the guard on the buggy build: exit $rc: $(cat "$tmp/log")"
cp "$F" "$tmp/guarded"
"$RF" --plugin "$FIXED" guard "$F" > "$tmp/log" 2>&1; rc=$?
[ $rc -eq 0 ] && grep -q "nothing changed" "$tmp/log" && cmp -s "$F" "$tmp/guarded" || fail "guard again: exit $rc: $(cat "$tmp/log")"
"$RF" guard "$F" > "$tmp/log" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "needs the plugin 'userloop', which is not loaded" "$tmp/log" || fail "guard without the plugin: exit $rc: $(cat "$tmp/log")"
ok "guard: the line is a guard, nothing else changed; replay passes, the buggy build fails it; again: nothing changed; without the plugin: exit 2"
echo "guard: ok"

#!/usr/bin/env bash
# An artifact decodes as it ran (docs/FINDINGS.md): a campaign writes ARTIFACT.case beside each
# artifact (redfuzz decode under its settings); decode and shrink take the selection from it
# when none is given, and refuse an artifact that decodes here to another case (other limits,
# another selection), naming the field; an unreadable ARTIFACT.case is an error, never ignored.
#   artifact_case.sh REDFUZZ SEED.bin  (SEED: a sum input of n = 1027)
set -uo pipefail
RF=$1 SEED=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rf artifact case.XXXXXX"); trap 'rm -rf "$tmp"' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL: $*"; fail=1; }
run() { out=$("$@" 2>&1); rc=$?; }
cp "$SEED" "$tmp/crash-a"; cp "$SEED" "$tmp/crash-b"
# The campaign's step: the case beside the artifact, under its selection.
REDFUZZ_ONLY=softmax "$RF" decode "$tmp/crash-a" > "$tmp/crash-a.case" || bad "decode for the campaign"
grep -q '^op=softmax$' "$tmp/crash-a.case" && grep -q '^only=softmax$' "$tmp/crash-a.case" &&
  ok "REDFUZZ_ONLY applied and recorded" || bad "the campaign's case: $(cat "$tmp/crash-a.case")"
# Later, without the selection: taken from the case beside it.
run "$RF" decode "$tmp/crash-a"
[ $rc -eq 0 ] && [ "$out" = "$(cat "$tmp/crash-a.case")" ] && ok "decode without a selection: the case beside it" ||
  bad "decode without a selection: $rc $out"
run "$RF" shrink "$tmp/crash-a" --out "$tmp/shrunk"
[ $rc -eq 0 ] && grep -q '^case: *op=softmax ' <<<"$out" && ok "shrink without a selection: the case beside it" ||
  bad "shrink without a selection: $rc $out"
# Another selection, other limits: refused, naming the field.
run "$RF" decode "$tmp/crash-a" --only sum
[ $rc -eq 2 ] && grep -q "the selection is given twice and differs: --only is 'sum', FILE.case's only is 'softmax'" <<<"$out" &&
  ok "another selection: refused" || bad "another selection: $rc $out"
"$RF" decode "$tmp/crash-b" > "$tmp/crash-b.case"
REDFUZZ_MAX_ELEMS=16 "$RF" decode "$tmp/crash-b" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "crash-b decodes here to n=[0-9]*, but its campaign ran n=1027 (.*crash-b.case)" "$tmp/err" &&
  ok "other limits (decode): refused naming n" || bad "other limits (decode): $rc $(cat "$tmp/err")"
REDFUZZ_MAX_ELEMS=16 "$RF" shrink "$tmp/crash-b" --out "$tmp/shrunk" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc -eq 2 ] && grep -q "decodes here to n=[0-9]*, but its campaign ran n=1027" "$tmp/err" &&
  ok "other limits (shrink): refused naming n" || bad "other limits (shrink): $rc $(cat "$tmp/err")"
# The record cannot be read: an error, not a decode without it.
printf 'op=sum\nn=abc\n' > "$tmp/crash-b.case"
run "$RF" decode "$tmp/crash-b"
[ $rc -eq 2 ] && grep -q "crash-b.case: the case its campaign decoded this input to cannot be read" <<<"$out" &&
  ok "an unreadable record: refused" || bad "an unreadable record: $rc $out"
exit $fail

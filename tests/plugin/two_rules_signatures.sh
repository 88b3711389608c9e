#!/usr/bin/env bash
# One variant, two contract rules, two signatures (run/rules.def): argmax/plugin-test-two-rules
# (tests/plugin/contract_plugin.hip) breaks tie-first on ties and nan-propagates on NaN inputs.
# shrink names each rule in its signature and files each under its own name (a campaign keeps
# one regression per signature); with the fuzz target (FUZZ given) each failure's ERROR line
# names its rule, and a known file naming one rule leaves that one out while the other is
# still reported.
#   two_rules_signatures.sh REDFUZZ CONTRACT_PLUGIN [FUZZ]
set -uo pipefail
RF=$1 PLUGIN=$2 FUZZ=${3:-}
V=argmax/plugin-test-two-rules
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rf two rules.XXXXXX"); trap 'rm -rf "$tmp"' EXIT
fail=0
printf 'op=argmax\nn=1027\nseed=1\ndist=ties\n' > "$tmp/ties.case"
printf 'op=argmax\nn=1027\nseed=8\ndist=nan-sprinkled\n' > "$tmp/nan.case"
for k in ties:tie-first nan:nan-propagates; do
  c=${k%%:*} rule=${k#*:}
  out=$("$RF" --plugin "$PLUGIN" shrink "$tmp/$c.case" --variant $V --out "$tmp/reg" 2>&1)
  grep -q "^signature: $V wrong\$" <<<"$out" && grep -q "^rule: $rule " <<<"$out" ||
    { echo "FAIL: $c: $out"; fail=1; }
  ls "$tmp"/reg/argmax-plugin-test-two-rules-wrong-$rule-*.case >/dev/null 2>&1 ||
    { echo "FAIL: $c: no regression filed under its rule"; ls "$tmp/reg"; fail=1; }
done
[ "$(ls "$tmp/reg" | wc -l)" = 2 ] || { echo "FAIL: want 2 regressions"; ls "$tmp/reg"; fail=1; }
if [ -n "$FUZZ" ]; then
  for c in ties nan; do "$RF" encode "$tmp/$c.case" "$tmp/$c.bin" >/dev/null || fail=1; done
  export REDFUZZ_PLUGINS=$PLUGIN REDFUZZ_ONLY=$V
  fuzz() { "$FUZZ" -runs=1 "$tmp/$1.bin" > "$tmp/log" 2>&1; }   # one input, run once
  fuzz ties; rc=$?
  [ $rc -ne 0 ] && grep -q "^ERROR: redfuzz: $V wrong dist=ties rule=tie-first\$" "$tmp/log" ||
    { echo "FAIL: fuzz ties: exit $rc"; cat "$tmp/log"; fail=1; }
  printf '%s wrong rule=tie-first\n' $V > "$tmp/known"
  REDFUZZ_KNOWN="$tmp/known" fuzz ties; rc=$?
  [ $rc -eq 0 ] && grep -q "known failure signature(s), going on" "$tmp/log" ||
    { echo "FAIL: fuzz ties, tie-first known: exit $rc"; cat "$tmp/log"; fail=1; }
  REDFUZZ_KNOWN="$tmp/known" fuzz nan; rc=$?
  [ $rc -ne 0 ] && grep -q "^ERROR: redfuzz: $V wrong dist=nan-sprinkled rule=nan-propagates\$" "$tmp/log" ||
    { echo "FAIL: fuzz nan, tie-first known: exit $rc"; cat "$tmp/log"; fail=1; }
fi
[ $fail = 0 ] && echo "two_rules_signatures: ok${FUZZ:+ (fuzz target too)}"
exit $fail

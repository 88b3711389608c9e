#!/usr/bin/env bash
# Every REDFUZZ_* variable's bad values, generated from run/settings.def (so a new row cannot
# be missed): each must make redfuzz exit 2 with a message naming the variable and the value
# (issue 47: the simulator's REDFUZZ_COVERAGE_FOLD and _CMP took any value, REDFUZZ_KNOWN a
# missing file, REDFUZZ_SIM_SCHEDULE any text). Per row, by its type:
#   BOOL      2                        COUNT   hi+1 (or lo-1), and x
#   ORACLE, TARGET, FOLD, CMP: bogus   DEVICES x          FILE  a missing file, a folder
#   TEXT      the value below for that variable (a TEXT row without one fails this test:
#             give it a bad value here, or a type that says what it takes)
# and for every row a value of 1024 characters and the name misspelt. A good value of each
# name type is taken (the check is not "refuse everything").
#   settings-bad-values.sh REDFUZZ SETTINGS_DEF
set -uo pipefail
RF=$(realpath "$1") DEF=$2
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
fail=0 checks=0 rows=0
declare -A text_bad=([REDFUZZ_ONLY]="sum/nosuch" [REDFUZZ_PLUGINS]="$TMP/nosuch.so")
declare -A text_why=([REDFUZZ_ONLY]="'sum/nosuch' selects no variant" [REDFUZZ_PLUGINS]="cannot load")

# refused VAR VALUE REGEX: `redfuzz list` with VAR=VALUE exits 2 and says REGEX after the name.
refused() {
  local out rc
  checks=$((checks + 1))
  out=$(env "$1=$2" "$RF" list --op sum 2>&1 >/dev/null); rc=$?
  if [ $rc -eq 2 ] && grep -qE -- "$1: (.*: )?$3" <<<"$out"; then return 0; fi
  echo "FAIL $1=${2:0:40}: exit $rc, want 2 and /$1: (.*: )?$3/: ${out:0:300}"; fail=1
}
# taken VAR VALUE: exit 0.
taken() {
  local out rc
  checks=$((checks + 1))
  out=$(env "$1=$2" "$RF" list --op sum 2>&1 >/dev/null); rc=$?
  [ $rc -eq 0 ] || { echo "FAIL $1=$2 was refused (exit $rc): ${out:0:300}"; fail=1; }
}
# num EXPR: a settings.def bound as a number (decimal, UINT64_C(1) << K, UINT64_MAX).
num() {
  case "$1" in
    UINT64_MAX) echo max;;
    "UINT64_C(1) << "*) echo $(( 1 << ${1##* } ));;
    *) echo $(( $1 ));;
  esac
}

long=$(printf 'x%.0s' $(seq 1 1024))
while IFS='|' read -r var type lo hi; do
  rows=$((rows + 1))
  lo=$(num "$lo") hi=$(num "$hi")
  case "$type" in
    RF_SET_BOOL) refused "$var" 2 "'2' is out of range \(allowed: 0..1\)"; taken "$var" 1;;
    RF_SET_COUNT)
      refused "$var" x "'x' is not a number"
      if [ "$hi" != max ]; then refused "$var" $((hi + 1)) "'$((hi + 1))' is out of range"
      elif [ "$lo" -gt 0 ]; then refused "$var" $((lo - 1)) "'$((lo - 1))' is out of range"; fi
      taken "$var" "$lo";;
    RF_SET_ORACLE|RF_SET_TARGET|RF_SET_FOLD|RF_SET_CMP)
      refused "$var" bogus "'bogus' is not an? [a-z ]+ \(allowed: [a-z0-9]+(, [a-z0-9]+)+\)";;
    RF_SET_DEVICES) refused "$var" x "'x' is not a list of GPU numbers"; refused "$var" "0 $((hi + 1))" "'$((hi + 1))' is out of range"
      taken "$var" "0 1";;
    RF_SET_FILE) refused "$var" "$TMP/nosuch" "'$TMP/nosuch' is not a file that can be read"
      refused "$var" "$TMP" "'$TMP' is not a file that can be read"; : > "$TMP/empty"; taken "$var" "$TMP/empty";;
    RF_SET_TEXT)
      if [ -n "${text_bad[$var]:-}" ]; then refused "$var" "${text_bad[$var]}" "${text_why[$var]}"
      else echo "FAIL $var: a text setting without a known bad value (give it one in $0)"; fail=1; fi;;
    *) echo "FAIL $var: type $type unknown to this test"; fail=1;;
  esac
  refused "$var" "$long" "'?(value is 1024 characters long|x{40})"
  # the name misspelt (its last letter doubled): not a setting, not silently nothing
  checks=$((checks + 1))
  out=$(env "${var}${var: -1}=1" "$RF" list --op sum 2>&1 >/dev/null); rc=$?
  [ $rc -eq 2 ] && grep -q "${var}${var: -1}: not a redfuzz setting" <<<"$out" ||
    { echo "FAIL ${var}${var: -1}=1: exit $rc: ${out:0:200}"; fail=1; }
done < <(sed -nE 's/^RF_SETTING\((REDFUZZ_[A-Z0-9_]+), *[a-z0-9_]+, *(RF_SET_[A-Z]+), *([^,]+), *([^,]+),.*/\1|\2|\3|\4/p' "$DEF")
# The name types' good values are taken (one each).
for good in REDFUZZ_SOFTMAX_ORACLE=mpfr REDFUZZ_SIM_TARGET=nvidia REDFUZZ_COVERAGE_FOLD=baseline \
            REDFUZZ_COVERAGE_CMP=all; do taken "${good%%=*}" "${good#*=}"; done
[ "$rows" -ge 30 ] || { echo "FAIL only $rows rows read from $DEF (the table's form changed?)"; fail=1; }
echo "settings-bad-values: $rows variables, $checks checks, $([ $fail = 0 ] && echo "all held" || echo "some failed")"
exit $fail

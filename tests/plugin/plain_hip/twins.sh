#!/usr/bin/env bash
# A planted bug caught in a plain HIP plugin and in its RF_SHARED twin (the same kernels line
# for line in kernels/port.h's dialect): both variants run on the same case, both must get
# VERDICT, and the source lines their details name (FILE.hip:LINE, each in its own file) must
# be the same lines, in the same order.
#   twins.sh REDFUZZ VERDICT PLAIN_LIB PLAIN_VARIANT TWIN_LIB TWIN_VARIANT RUN_ARGS...
set -uo pipefail
RF=$1 VERDICT=$2 PLIB=$3 PVAR=$4 TLIB=$5 TVAR=$6
shift 6
fail() { echo "twins: FAIL: $*"; exit 1; }
# The variant's row of `run` (its detail on the same line) and the lines it names.
row() {
  local out
  out=$("$RF" --plugin "$1" run --variant "$2" --mutants "${@:3}" 2>&1)
  grep -E "^$2 " <<<"$out" || { echo "$out" | tail -5; return 1; }
}
prow=$(row "$PLIB" "$PVAR" "$@") || fail "no row for $PVAR"
trow=$(row "$TLIB" "$TVAR" "$@") || fail "no row for $TVAR"
echo "plain: $prow"
echo "twin:  $trow"
for r in "$prow" "$trow"; do
  v=$(awk '{print $2}' <<<"$r")
  [ "$v" = "$VERDICT" ] || fail "verdict '$v', want '$VERDICT': $r"
done
lines() { grep -oE '[A-Za-z0-9_]+\.hip:[0-9]+' <<<"$1"; }
pl=$(lines "$prow") tl=$(lines "$trow")
[ -n "$pl" ] || fail "the plain variant's detail names no source line"
pfiles=$(sed 's/:.*//' <<<"$pl" | sort -u) tfiles=$(sed 's/:.*//' <<<"$tl" | sort -u)
[ "$(wc -l <<<"$pfiles")" = 1 ] && [ "$(wc -l <<<"$tfiles")" = 1 ] && [ "$pfiles" != "$tfiles" ] ||
  fail "each detail must name its own file only: '$pfiles' and '$tfiles'"
[ "$(sed 's/.*://' <<<"$pl")" = "$(sed 's/.*://' <<<"$tl")" ] ||
  fail "the lines differ: $(tr '\n' ' ' <<<"$pl") against $(tr '\n' ' ' <<<"$tl")"
echo "twins: ok ($VERDICT at lines $(sed 's/.*://' <<<"$pl" | tr '\n' ' '))"

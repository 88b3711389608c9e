#!/usr/bin/env bash
# redfuzz tolerance prints figures that agree with each other: per variant, the largest error
# observed is within the derived bound (absolute, relative to sum|x_i|, err/bound <= 1), the
# atol-only figure covers the largest bound, the pair's rtol is the bound relative to sum|x_i|
# (gamma_h), and the rtol-only figure covers the bound relative to |s|. A planted bug (a
# mutant) gets no tolerance and exit 1.
#   tolerance_consistent.sh REDFUZZ
set -uo pipefail
RF=$1
fail=0
out=$("$RF" tolerance --variant sum/lds,sum/two-pass,cpu/pairwise,cpu/sequential \
        --dist uniform,alternating,negative --n-range 2^4..2^11 --seeds 2 2>&1); rc=$?
echo "$out"
[ $rc -eq 0 ] || { echo "FAIL: tolerance exited $rc"; exit 1; }
grep -q '^assumptions: float32 sums; sizes 16..2048 .*dists uniform,alternating,negative; seeds 1..2' <<<"$out" ||
  { echo "FAIL: no assumptions line naming the sizes, dists and seeds"; fail=1; }
n=$(awk '
  /^[^ ].*: h=[0-9]+ runs=[0-9]+/ { v = $1; next }
  /^  bound:/    { for (i = 2; i <= NF; i++) { split($i, kv, "="); b[kv[1]] = kv[2] + 0 } }
  /^  observed:/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); o[kv[1]] = kv[2] + 0 } }
  /^  assert_close:/ {
    split($0, parts, "|")
    split(parts[1], p1, " "); split(p1[2], r, "="); split(p1[3], a, "=")
    split(parts[2], p2, " "); split(p2[4], ao, "=")
    split(parts[3], p3, " "); split(p3[3], ro, "=")
    bad = ""
    if (o["abs"] > b["abs"]) bad = bad " observed abs > bound abs"
    if (o["rel_sum_abs"] > b["rel_sum_abs"]) bad = bad " observed rel_sum_abs > bound"
    if (o["err/bound"] > 1) bad = bad " err/bound > 1"
    if (ao[2] + 0 < b["abs"]) bad = bad " atol-only < bound abs"
    if (r[2] + 0 < b["rel_sum_abs"]) bad = bad " rtol < bound rel_sum_abs"
    if (a[2] + 0 > b["abs"]) bad = bad " pair atol > atol-only"
    if (ro[2] != "inf" && ro[2] + 0 < b["rel_s"]) bad = bad " rtol-only < bound rel_s"
    if (bad != "") { print "FAIL: " v bad > "/dev/stderr"; failed++ } else checked++
  }
  END { print checked + 0; exit failed > 0 }' <<<"$out") || fail=1
[ "$n" = 4 ] || { echo "FAIL: $n of 4 variants checked"; fail=1; }
# A kernel with a bug: no tolerance, exit 1.
out=$("$RF" tolerance --variant sum/mut-drop-tail --dist ones --n-range 16..64 --seeds 1 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q '^sum/mut-drop-tail: FAILS .*no tolerance' <<<"$out" ||
  { echo "FAIL: the mutant: exit $rc: $out"; fail=1; }
[ $fail = 0 ] && echo "tolerance_consistent: ok ($n variants)"
exit $fail

#!/usr/bin/env bash
# redfuzz tolerance for the ops other than sum (cli/tolerance_ops.c): for each row op the
# figures agree with each other and come from the bound: the largest error observed is within
# the derived bound (abs, err/bound <= 1), the atol-only figure covers the largest bound, the
# rtol-only figure the largest relative bound, and the pair printed holds for every output's
# bound and every run's worst error (the command checks that itself and says INTERNAL, exit 1,
# when not). The exact ops print bound 0 and rtol = atol = 0 with the contract. A planted bug
# (a mutant) gets no tolerance and exit 1.
#   tolerance_ops.sh REDFUZZ
set -uo pipefail
RF=$1
fail=0
check() {   # check OP ARGS...: the row op's figures agree; prints the variants checked
  local op=$1 out rc n
  shift
  out=$("$RF" tolerance --op "$op" "$@" 2>&1); rc=$?
  [ $rc -eq 0 ] || { echo "FAIL: tolerance --op $op exited $rc"; echo "$out"; return 1; }
  grep -q "^assumptions: $op; rows 1..3 (3 sizes), cols 1..100 .*dists uniform,negative; seeds 1..2;" <<<"$out" ||
    { echo "FAIL: $op: no assumptions line naming the op, sizes, dists and seeds"; echo "$out"; return 1; }
  grep -q INTERNAL <<<"$out" && { echo "FAIL: $op: $out"; return 1; }
  n=$(awk '
    /^[^ ].*: h=[0-9]+ runs=[0-9]+ outputs=[1-9]/ { v = $1; next }
    /^  bound:/    { for (i = 2; i <= NF; i++) { split($i, kv, "="); b[kv[1]] = kv[2] } }
    /^  observed:/ { for (i = 2; i <= NF; i++) { split($i, kv, "="); o[kv[1]] = kv[2] } }
    /^  assert_close:/ {
      split($0, parts, "|")
      split(parts[1], p1, " "); split(p1[2], r, "="); split(p1[3], a, "=")
      split(parts[2], p2, " "); split(p2[4], ao, "=")
      split(parts[3], p3, " "); split(p3[3], ro, "=")
      bad = ""
      if (o["abs"] + 0 > b["abs"] + 0) bad = bad " observed abs > bound abs"
      if (o["err/bound"] + 0 > 1) bad = bad " err/bound > 1"
      if (ao[2] + 0 < b["abs"] + 0) bad = bad " atol-only < bound abs"
      if (ro[2] != "inf" && ro[2] + 0 < b["rel"] + 0) bad = bad " rtol-only < bound rel"
      if (a[2] + 0 > ao[2] + 0) bad = bad " pair atol > atol-only"
      if (b["abs"] + 0 <= 0) bad = bad " no bound"
      if (bad != "") { print "FAIL: " v bad > "/dev/stderr"; failed++ } else checked++
    }
    END { print checked + 0; exit failed > 0 }' <<<"$out") || { echo "$out"; return 1; }
  [ "$n" -ge 2 ] || { echo "FAIL: $op: only $n variant(s) checked"; echo "$out"; return 1; }
  echo "ok   $op: $n variants"
}
for op in softmax logsumexp logsoftmax; do
  check "$op" --dist uniform,negative --rows-range 1..3 --cols-range 1..100 --seeds 2 || fail=1
done
# f16 and bf16 outputs are swept and their bound holds the output's rounding (a 16-bit
# softmax output's atol-only figure is at least half a unit in the last place of 1/2).
out=$("$RF" tolerance --op softmax --variant softmax/f16-block-lds,softmax/bf16-block-lds \
        --dist uniform --rows-range 1..2 --cols-range 2..16 --seeds 1 2>&1)
awk '/^softmax\/f16-block-lds: .* out=f16/ { f = 1 } /^softmax\/bf16-block-lds: .* out=bf16/ { g = 1 }
     END { exit !(f && g) }' <<<"$out" || { echo "FAIL: 16-bit outputs: $out"; fail=1; }
# Exact ops: bound 0, rtol = atol = 0, the contract named.
out=$("$RF" tolerance --op argmax --variant argmax/lds --dist uniform,ties --n-range 16..300 --seeds 1 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q '^argmax/lds: exact runs=[1-9]' <<<"$out" &&
  grep -q '^  assert_close: rtol=0 atol=0 .*contract nan-ignored, tie-first' <<<"$out" ||
  { echo "FAIL: argmax: exit $rc: $out"; fail=1; }
out=$("$RF" tolerance --op max --dist uniform --n-range 16..64 --seeds 1 2>&1); rc=$?
[ $rc -eq 0 ] && grep -q '^max/[a-z0-9-]*: exact runs=[1-9]' <<<"$out" ||
  { echo "FAIL: max: exit $rc: $out"; fail=1; }
# A kernel with a bug: no tolerance, exit 1 (a max-shift left out overflows on wide rows).
out=$("$RF" tolerance --op logsumexp --variant logsumexp/mut-no-max-shift --dist wide \
        --rows-range 1..2 --cols-range 8..64 --seeds 1 2>&1); rc=$?
[ $rc -eq 1 ] && grep -q '^logsumexp/mut-no-max-shift: FAILS .*no tolerance' <<<"$out" ||
  { echo "FAIL: the mutant: exit $rc: $out"; fail=1; }
[ $fail = 0 ] && echo "tolerance_ops: ok"
exit $fail

#!/usr/bin/env bash
# The hostile-input suite: every line of TABLE is one bad (or borderline) input to redfuzz,
#   ARGS | EXIT | REGEX
# ARGS are shell words (quotes allowed; leading NAME=value words set the environment), with
# @FIX@ (fixture folder, made below), @SRC@ (source tree) and @TMP@ (scratch) substituted.
# The command must exit EXIT and its stdout+stderr must match the extended regex REGEX (\n: a
# newline; for
# bad input: the flag or field, the value, and what is allowed). Lines starting with '#' and
# blank lines are skipped. Every line runs; the failures are listed at the end.
#   run-table.sh REDFUZZ SRC TABLE
set -uo pipefail
RF=$(realpath "$1") SRC=$2 TABLE=$3
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
FIX=$TMP/fix; mkdir -p "$FIX"

# ---- fixtures -------------------------------------------------------------------------------
printf 'op=sum\nn=33\n' > "$FIX/ok.case"
printf '\xef\xbb\xbfop=sum\nn=33\n' > "$FIX/bom.case"                  # UTF-8 byte-order mark
printf 'op=sum\nn=33\n\0n=5\n' > "$FIX/nul.case"                        # text after a NUL
printf '\0\1\2\3op=sum\n' > "$FIX/zero-first.bin"                       # binary, first byte 0
printf 'op=sum\nn=3\x01\n' > "$FIX/ctrl.case"
printf 'op=sum\nn=33\n' > "$FIX/crlf.case"; printf 'op=sum\r\nn=33\r\n' > "$FIX/crlf.case"
printf 'op=sum\nop=max\n' > "$FIX/dup-key.case"
printf 'op=summ\n' > "$FIX/bad-op.case"
printf 'op=sum\nn=2^40\n' > "$FIX/huge-n.case"
printf 'op=softmax\nrows=4\ncols=33\n' > "$FIX/softmax.case"
printf 'op=sum\nn=-1\n' > "$FIX/neg-n.case"
printf 'op=sum\nn=010\n' > "$FIX/octal.case"
printf 'op=sum\nwave=48\n' > "$FIX/wave48.case"
printf 'op=sum\nvariant=sum/bogus name\n' > "$FIX/bad-variant.case"
printf 'op=sum\nexpect sum/lds maybe\n' > "$FIX/bad-verdict.case"
printf 'op=sum\nexpect max/wave pass\n' > "$FIX/other-op-expect.case"
printf 'op=sum\nexpect sum/lds pass on sim\nexpect sum/lds\twrong on sim\n' > "$FIX/twice-on-sim.case"
printf 'garbage line\n' > "$FIX/garbage.case"
: > "$FIX/empty.case"
printf 'op=sum\nn=33' > "$FIX/cut.case"                                  # last line cut short
printf '# a comment\n\n  # another\n' > "$FIX/comments.case"
printf '# redfuzz regression: sum/lds gives wrong on this case.\nop=sum\nn=33\n' > "$FIX/no-expects-regression.case"
head -c 2000000 /dev/zero | tr '\0' '#' > "$FIX/big.case"                # 2 MB of comments
{ echo op=sum; yes 'expect sum/lds pass' | head -n 80000; } > "$FIX/expects.case"  # > 1 MiB
{ echo op=sum; yes 'expect x pass' | head -n 60000; } > "$FIX/60000-expects.case"   # < 1 MiB
printf 'op=sum\nn=1099511627776\n' > "$FIX/big-n.case"
{ echo op=sum; for i in $(seq 1 300); do echo "expect sum/v$i pass"; done; } > "$FIX/300-expects.case"
mkdir -p "$FIX/empty-dir" "$FIX/dir.case"
# A fuzz input as libFuzzer writes one: the version byte (3, a control byte) and 40 random
# bytes. Random bytes alone are free of NUL and control bytes, and so read as text, in about
# 1 run in 70 (0.9^40): that made this line fail now and then.
{ printf '\003'; head -c 40 /dev/urandom; } > "$FIX/random.bin"
"$RF" encode "$FIX/ok.case" "$FIX/ok.bin" >/dev/null 2>&1
ln -s /nonexistent "$FIX/dangling.case"
# issue 35: cases the binary form cannot hold, and case-file errors found after parsing
printf 'op=sum\nn=5000\n' > "$FIX/n5000.case"
printf 'op=softmax\nrows=3\ncols=4096\n' > "$FIX/shape3x4096.case"
printf 'op=sum\nn=33\ngrid=2^30\n' > "$FIX/grid2p30.case"
printf 'op=sum\n# over the simulator limit\nn=300000\n' > "$FIX/over-limit.case"
printf 'op=sum\nn=33\nvariant=sum/nosuch\n' > "$FIX/unknown-variant.case"
{ echo op=sum; for i in $(seq 1 100); do echo "expect sum/v$i pass"; done; } > "$FIX/100-expects.case"
# issue 47: an expect line of a variant that is in the build but did not run on the case; a
# file whose name holds newlines and what would read as replay's own ok line
printf 'op=sum\nn=33\ndist=ones\nexpect sum/f16-wave-f32out pass\n' > "$FIX/f16-expect.case"
printf 'op=sum\nn=33\ndist=ones\nvariant=sum/lds\nexpect sum/two-pass pass\n' > "$FIX/variant-expect.case"
mkdir -p "$FIX/nl"
printf 'op=sum\nn=33\ndist=ones\nexpect sum/lds wrong\n' > "$FIX/nl/a.case"$'\n'"ok   forged.case (25 variants, 1 expectations)"$'\n'"x.case"

# ---- the table ------------------------------------------------------------------------------
pass=0 fail=0 failures=""
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
  lineno=$((lineno + 1))
  [[ -z "${line// }" || "$line" =~ ^[[:space:]]*# ]] && continue
  args=${line%%|*}; rest=${line#*|}
  want=${rest%%|*}; want=${want// /}; regex=${rest#*|}; regex=${regex# }
  args=${args//@FIX@/$FIX}; args=${args//@SRC@/$SRC}; args=${args//@TMP@/$TMP}
  eval "words=($args)"
  envs=()
  while [ ${#words[@]} -gt 0 ] && [[ "${words[0]}" =~ ^[A-Z_]+= ]]; do envs+=("${words[0]}"); words=("${words[@]:1}"); done
  out=$(cd "$TMP" && env "${envs[@]}" timeout 20 "$RF" "${words[@]}" 2>&1 </dev/null); rc=$?
  regex=${regex//\\n/$'\n'}   # \n in the table stands for a newline
  if [ "$rc" = "$want" ] && [[ "$out" =~ $regex ]]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    failures+="line $lineno: redfuzz $args"$'\n'"  want exit $want and /$regex/, got exit $rc:"$'\n'"$(head -c 600 <<< "$out" | sed 's/^/    /')"$'\n'
  fi
done < "$TABLE"
printf '%s' "$failures"
echo "hostile inputs: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

#!/usr/bin/env bash
# The by-hand simulator recipe of include/redfuzz/plugin.h (BUILD RECIPES, "sim"), run as it is
# written there on a plain HIP kernel: the library loads into this (plain) build's redfuzz and
# is judged; the same command without -fsanitize=alignment makes a library the loader refuses,
# naming the flag (its alignment probe raised no check).
#   recipe.sh SRC REDFUZZ
set -uo pipefail
SRC=$1 RF=$2
fail() { echo "recipe: FAIL: $*"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rf recipe.XXXXXX"); trap 'rm -rf "$tmp"' EXIT   # a space on purpose
# The recipe: from " *   sim   " to its first line without a trailing backslash.
recipe=$(awk '/^ \*   sim   /{on=1} on{sub(/^ \*   (sim   |        )/, ""); line=$0; sub(/\\$/, "", line);
              printf "%s ", line; if ($0 !~ /\\$/) exit}' "$SRC/include/redfuzz/plugin.h")
[ -n "$recipe" ] || fail "no sim recipe in include/redfuzz/plugin.h"
echo "recipe: $recipe"
cp "$SRC/tests/plugin/plain_hip/shfl_sum.hip" "$tmp/my.hip"
build() {   # build OUT [sed expression on the recipe]
  local cmd
  cmd=$(sed -e "s#\$SRC#\"$SRC\"#g" -e "s#my\.hip#\"$tmp/my.hip\"#; s#libmy\.so#\"$1\"#" ${2:+-e "$2"} <<<"$recipe")
  ( cd "$tmp" && eval "$cmd" ) || fail "the recipe did not build: $cmd"
}
build "$tmp/libmy.so"
out=$("$RF" --plugin "$tmp/libmy.so" run --op sum --n 4097 --dist ones --variant sum/plain-shfl-sum 2>&1)
grep -qE '^sum/plain-shfl-sum +pass' <<<"$out" || fail "the recipe's library was not judged pass: $out"
echo "ok   the recipe's library loads and passes"
build "$tmp/libnoalign.so" 's# -fsanitize=alignment##'
out=$("$RF" --plugin "$tmp/libnoalign.so" list --op sum 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "built without -fsanitize=alignment (its alignment probe raised no check)" <<<"$out" ||
  fail "a library built without -fsanitize=alignment was not refused (exit $rc): $out"
echo "ok   without -fsanitize=alignment: $(head -c 200 <<<"$out")"
echo "recipe: ok"

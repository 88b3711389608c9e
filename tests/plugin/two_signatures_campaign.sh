#!/usr/bin/env bash
# A campaign goes on past its first finding: a plugin variant with two distinct bugs
# (tests/plugin/two_bugs_plugin.hip: `wrong` unless 64 divides n, else `oob`; the first on
# almost every input) is fuzzed with scripts/fuzz.sh; both signatures are reported and each is shrunk
# into the regressions folder, with the plugin loaded for the shrink, and some run went on
# past a signature it had been told of (REDFUZZ_KNOWN: the restart after a finding). Then --known with the
# `wrong` signature leaves it out: only `oob` is found.
#   two_signatures_campaign.sh FUZZ_BUILD [SECONDS]
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
BUILD=$(realpath "$1"); TIME=${2:-20}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rf two bugs.XXXXXX"); trap 'rm -rf "$tmp"' EXIT
fail() { echo "two_signatures: FAIL: $*"; echo "--- log:"; cat "$tmp/log" 2>/dev/null; exit 1; }
bash scripts/fuzz.sh --build "$BUILD" --plugin-src tests/plugin/two_bugs_plugin.hip --only sum/two-bugs \
  --jobs 1 --time "$TIME" --no-coverage --out "$tmp/out" --regressions "$tmp/reg" > "$tmp/log" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "fuzz.sh exited $rc, expected 1"
for v in wrong oob; do
  grep -qE "^ +[0-9]+ sum/two-bugs $v [a-z0-9-]+$" "$tmp/log" || fail "no sum/two-bugs $v signature"
  ls "$tmp"/reg/sum-two-bugs-$v-*.case >/dev/null 2>&1 || fail "no shrunk sum/two-bugs $v case"
done
# ...because the target went on past a known signature (not by a lucky restart).
grep -aq "known failure signature(s), going on" "$tmp"/out/fuzz-w*.log ||
  fail "no run went on past a known signature"
echo "ok   both signatures: $(grep -cE '^ +[0-9]+ sum/two-bugs ' "$tmp/log") signature line(s), $(ls "$tmp"/reg | wc -l) regression(s)"
printf 'sum/two-bugs wrong\n' > "$tmp/known"
bash scripts/fuzz.sh --build "$BUILD" --plugin "$tmp/out/plugin/$(bash -c 'source scripts/lib/plugin.sh; rf_build_flavour "$0"' "$BUILD")/libtwo_bugs_plugin.so" \
  --only sum/two-bugs --jobs 1 --time "$TIME" --no-coverage --no-shrink --out "$tmp/out2" \
  --known "$tmp/known" --regressions "$tmp/reg" > "$tmp/log" 2>&1
grep -qE "^ +[0-9]+ sum/two-bugs oob " "$tmp/log" || fail "--known: no oob signature"
grep -qE "^ +[0-9]+ sum/two-bugs wrong " "$tmp/log" && fail "--known: the known wrong signature was reported"
echo "two_signatures: ok"

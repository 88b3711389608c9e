#!/usr/bin/env bash
# mutation-score.sh and coverage.sh take a plugin per side (issue 36: like fuzz.sh and
# fuzz-hybrid.sh), with stand-in builds (no libFuzzer or coverage build needed):
#   1. mutation-score.sh --plugin LIB: the plain build's fuzz target gets LIB in
#      REDFUZZ_PLUGINS and its `redfuzz list` gets --plugin LIB (the plugin's known-bug
#      variants are mutants too); with --tsan, the TSan build's get the TSan library given
#      for that run, not the plain one;
#   2. coverage.sh --plugin LIB: the coverage replay lists, replays and probes with LIB loaded;
#      a library built with the coverage flags is read by llvm-cov (-object), one without
#      them is named in a note; an empty selection is an error (exit 2), not bash's
#      "VARIANTS[0]: unbound variable".
#   scripts-plugins.sh SRC
set -uo pipefail
SRC=$1
TMP=$(mktemp -d "${TMPDIR:-/tmp}/rf scripts plugins.XXXXXX"); trap 'rm -rf "$TMP"' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL: $*"; fail=1; }

# stub_build DIR SANITIZE: a fuzz target that records its REDFUZZ_PLUGINS and fails the mutant
# it runs, and a redfuzz whose list (recording its --plugin args) has one mutant.
stub_build() {
  mkdir -p "$1/fuzz"
  printf 'REDFUZZ_BACKEND:STRING=sim\nREDFUZZ_SANITIZE:STRING=%s\n' "$2" > "$1/CMakeCache.txt"
  cat > "$1/fuzz/redfuzz_fuzz" <<'STUB'
#!/usr/bin/env bash
echo "fuzz plugins=${REDFUZZ_PLUGINS:-} only=${REDFUZZ_ONLY:-}" >> "$(dirname "$0")/record"
echo "$REDFUZZ_ONLY wrong 1 0 inf"
echo "stat::number_of_executed_units: 3"
exit 1
STUB
  cat > "$1/fuzz/redfuzz" <<'STUB'
#!/usr/bin/env bash
plugins=""
while [ "${1:-}" = --plugin ]; do plugins="$plugins $2"; shift 2; done
echo "list plugins=${plugins# }" >> "$(dirname "$0")/record"
[ "${1:-}" = list ] && echo '{"variant":"sum/plugin-bug","op":"sum","mutant":true}'
exit 0
STUB
  chmod +x "$1/fuzz/redfuzz_fuzz" "$1/fuzz/redfuzz"
}
stub_build "$TMP/plain build" ""
stub_build "$TMP/tsan build" thread
touch "$TMP/plain lib.so" "$TMP/tsan lib.so"

# ---- 1. mutation-score.sh, each side with its own library ----
(cd "$SRC" && bash scripts/mutation-score.sh --build "$TMP/plain build" --budget 1 \
   --plugin "$TMP/plain lib.so") > "$TMP/log" 2>&1
grep -q '^sum/plugin-bug  *yes  *wrong' "$TMP/log" && ok "mutation-score.sh: the plugin's mutant is scored" ||
  bad "mutation-score.sh: the plugin's mutant was not scored: $(cat "$TMP/log")"
grep -qxF "fuzz plugins=$TMP/plain lib.so only=sum/plugin-bug" "$TMP/plain build/fuzz/record" &&
  grep -qxF "list plugins=$TMP/plain lib.so" "$TMP/plain build/fuzz/record" &&
  ok "mutation-score.sh --plugin: the fuzz target and list load it" ||
  bad "mutation-score.sh --plugin: $(cat "$TMP/plain build/fuzz/record" 2>&1)"
(cd "$SRC" && bash scripts/mutation-score.sh --tsan --build "$TMP/tsan build" --budget 1 \
   --plugin "$TMP/tsan lib.so") > "$TMP/log" 2>&1
grep -qxF "fuzz plugins=$TMP/tsan lib.so only=sum/plugin-bug" "$TMP/tsan build/fuzz/record" &&
  ! grep -q "plain lib" "$TMP/tsan build/fuzz/record" &&
  ok "mutation-score.sh --tsan --plugin: the TSan side loads its own library" ||
  bad "mutation-score.sh --tsan --plugin: $(cat "$TMP/tsan build/fuzz/record" 2>&1)"

# ---- 2. coverage.sh: the replay loads the plugin (stand-in LLVM tools on PATH) ----
mkdir -p "$TMP/cov build" "$TMP/bin" "$TMP/corpus"
echo x > "$TMP/corpus/a"
cat > "$TMP/cov build/redfuzz_cov_replay" <<'STUB'
#!/usr/bin/env bash
echo "replay plugins=${REDFUZZ_PLUGINS:-} args=$*" >> "$(dirname "$0")/record"
if [ "${1:-}" = --list ]; then [ "${REDFUZZ_ONLY:-}" = none ] || echo "sum/plugin-ok"; exit 0; fi
echo "1 inputs"
exit 0
STUB
for t in llvm-profdata-19 llvm-cov-19; do
  printf '#!/bin/sh\necho "$0 $*" >> "%s"\necho %s\n' "$TMP/tools record" "'{\"data\":[{\"functions\":[]}]}'" > "$TMP/bin/$t"
done
printf 'ELF ... __llvm_covmap ...' > "$TMP/cov lib.so"
chmod +x "$TMP/cov build/redfuzz_cov_replay" "$TMP/bin/"*
(cd "$SRC" && PATH="$TMP/bin:$PATH" bash scripts/coverage.sh --build "$TMP/cov build" \
   --out "$TMP/cov out" --plugin "$TMP/plain lib.so" "$TMP/corpus") > "$TMP/log" 2>&1
grep -qxF "replay plugins=$TMP/plain lib.so args=--list" "$TMP/cov build/record" &&
  grep -qF "replay plugins=$TMP/plain lib.so args=sum/plugin-ok $TMP/corpus" "$TMP/cov build/record" &&
  grep -qxF "replay plugins=$TMP/plain lib.so args=--probe sum/plugin-ok" "$TMP/cov build/record" &&
  ok "coverage.sh --plugin: the replay lists, replays and probes with it" ||
  bad "coverage.sh --plugin: $(cat "$TMP/cov build/record" 2>&1; cat "$TMP/log")"
grep -q "note: plugin $TMP/plain lib.so was not built with the coverage flags" "$TMP/log" &&
  ! grep -q -- "-object" "$TMP/tools record" && ok "coverage.sh: a plugin without the coverage flags is named" ||
  bad "coverage.sh: no note for a plugin without coverage: $(cat "$TMP/log")"
: > "$TMP/tools record"
(cd "$SRC" && PATH="$TMP/bin:$PATH" bash scripts/coverage.sh --build "$TMP/cov build" \
   --out "$TMP/cov out" --plugin "$TMP/cov lib.so" "$TMP/corpus") > "$TMP/log" 2>&1
grep -q -- "export .* -object $TMP/cov lib.so" "$TMP/tools record" &&
  ok "coverage.sh: llvm-cov reads a coverage-built plugin's mapping (-object)" ||
  bad "coverage.sh: no -object for the plugin: $(cat "$TMP/tools record")"
(cd "$SRC" && PATH="$TMP/bin:$PATH" bash scripts/coverage.sh --build "$TMP/cov build" \
   --out "$TMP/cov out" --only none "$TMP/corpus") > "$TMP/log" 2>&1; rc=$?
[ $rc -eq 2 ] && grep -q "coverage.sh: --only: 'none' selects no variant" "$TMP/log" && ! grep -q "unbound variable" "$TMP/log" &&
  ok "coverage.sh: an empty selection is exit 2, said" || bad "coverage.sh: empty selection: exit $rc: $(cat "$TMP/log")"
[ $fail = 0 ] && echo "scripts-plugins: ok"
exit $fail

#!/usr/bin/env bash
# The scripts' flags (scripts/lib/opts.sh) and the campaign plumbing, with stand-in fuzz
# targets and redfuzz (no libFuzzer build needed):
#   1. every script: a flag without a value, and an unknown flag, exit 2 naming the flag;
#   2. fuzz.sh --out "a dir with space": the executions are counted (they were 0);
#   3. fuzz.sh and fuzz.sh --hybrid go on past a found signature: the stand-in fails with
#      signature A until A is in REDFUZZ_KNOWN, then with B; both are reported and shrunk;
#      --known FILE leaves A out from the start;
#   4. plugins per side: the hybrid GPU side's fuzzer, list and shrink get --plugin-gpu's
#      library, the simulator side's get --plugin-sim's; fuzz.sh's get --plugin's.
#   scripts-flags.sh SRC
set -uo pipefail
SRC=$1
TMP=$(mktemp -d "${TMPDIR:-/tmp}/rf scripts.XXXXXX"); trap 'rm -rf "$TMP"' EXIT
fail=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL: $*"; fail=1; }

# ---- 1. flags without a value, unknown flags ----
expect2() {   # expect2 REGEX SCRIPT ARGS...
  local re=$1; shift
  local out rc
  out=$(cd "$SRC" && bash "$@" 2>&1 < /dev/null); rc=$?
  if [ $rc -eq 2 ] && grep -qE -- "$re" <<<"$out"; then ok "$*: exit 2 ($(head -n 1 <<<"$out"))"
  else bad "$*: exit $rc, expected 2 and /$re/: $(head -c 300 <<<"$out")"; fi
}
for s in "scripts/fuzz.sh --out" "scripts/fuzz.sh --only" "scripts/fuzz.sh --plugin" \
         "scripts/fuzz.sh --engine" "scripts/fuzz-hybrid.sh --sim-build" \
         "scripts/fuzz-hybrid.sh --plugin-gpu" "scripts/shrink-findings.sh --redfuzz" \
         "scripts/mutation-score.sh --budget" "scripts/coverage.sh --out" \
         "scripts/redfuzz-plugin build x.hip --out" "scripts/run.sh --time" "scripts/fuzz-afl.sh --out" \
         "scripts/gpu-campaign.sh --pack" "scripts/make-corpus.sh --build" "scripts/throughput.sh --seeds"; do
  read -r -a argv <<<"$s"
  expect2 "${argv[-1]} needs a value" "${argv[@]}"
done
expect2 "--out needs a value \\(allowed: a folder\\)" scripts/fuzz.sh --out --time 5
for s in scripts/fuzz.sh scripts/fuzz-hybrid.sh scripts/shrink-findings.sh scripts/mutation-score.sh \
         scripts/coverage.sh "scripts/redfuzz-plugin build" scripts/run.sh scripts/fuzz-afl.sh \
         scripts/gpu-verify.sh scripts/fuzz-rate.sh; do
  read -r -a argv <<<"$s"
  expect2 "unknown option '--bogus'" "${argv[@]}" --bogus
done

# ---- stand-ins ----
# stub_build DIR SANITIZE: DIR/fuzz/redfuzz_fuzz and DIR/fuzz/redfuzz.
# The fuzz target: records its REDFUZZ_PLUGINS; fails with signature "sum/p wrong ones" unless
# REDFUZZ_KNOWN lists it, then with "sum/p oob ones", then runs out its time.
stub_build() {
  mkdir -p "$1/fuzz"
  printf 'REDFUZZ_BACKEND:STRING=sim\nREDFUZZ_SANITIZE:STRING=%s\n' "$2" > "$1/CMakeCache.txt"
  cat > "$1/fuzz/redfuzz_fuzz" <<'STUB'
#!/usr/bin/env bash
for a in "$@"; do case "$a" in -artifact_prefix=*) prefix=${a#-artifact_prefix=};;
  -max_total_time=*) left=${a#-max_total_time=};; esac; done
echo "fuzz plugins=${REDFUZZ_PLUGINS:-}" >> "$(dirname "$0")/record"
echo "#1 INITED"
for verdict in wrong oob; do
  if ! grep -qx "sum/p $verdict\( ones\)\?" "${REDFUZZ_KNOWN:-/dev/null}" 2>/dev/null; then
    echo "#7 NEW"
    echo "ERROR: redfuzz: sum/p $verdict dist=ones"
    art="${prefix}crash-$(echo "$verdict $$ $RANDOM" | sha1sum | cut -c1-40)"
    echo "$verdict" > "$art"
    echo "artifact_prefix='$prefix'; Test unit written to $art"
    exit 1
  fi
done
sleep "${left:-1}"
echo "stat::number_of_executed_units: 5"
exit 0
STUB
  cat > "$1/fuzz/redfuzz" <<'STUB'
#!/usr/bin/env bash
plugins=""
while [ "${1:-}" = --plugin ]; do plugins="$plugins $2"; shift 2; done
case "${1:-}" in
  list) echo '{"variant":"sum/p","op":"sum","mutant":false}';;
  shrink)
    art=$2; shift 2
    while [ $# -gt 0 ]; do case "$1" in --out) out=$2; shift 2;; *) shift;; esac; done
    echo "shrink plugins=${plugins# }" >> "$(dirname "$0")/record"
    mkdir -p "$out"; f="$out/sum-p-$(cat "$art")-1234.case"
    printf '# shrunk\nop=sum\n' > "$f"; echo "$f";;
esac
exit 0
STUB
  chmod +x "$1/fuzz/redfuzz_fuzz" "$1/fuzz/redfuzz"
}
stub_build "$TMP/plain build" ""
stub_build "$TMP/tsan build" thread
touch "$TMP/gpu lib.so" "$TMP/sim lib.so"

# ---- 2-4. fuzz.sh: a path with a space, going on past signatures, the plugin ----
out="$TMP/fuzz out"
(cd "$SRC" && bash scripts/fuzz.sh --build "$TMP/plain build" --jobs 1 --time 3 --no-coverage \
   --out "$out" --only sum/p --plugin "$TMP/gpu lib.so" --regressions "$TMP/reg1") > "$TMP/log" 2>&1
rc=$?
grep -qE 'executions: [1-9][0-9]* ' "$TMP/log" && ok "fuzz.sh --out with a space: executions counted ($(grep -o 'executions: [0-9]*' "$TMP/log"))" ||
  bad "fuzz.sh --out with a space: no executions counted: $(cat "$TMP/log")"
[ $rc -eq 1 ] || bad "fuzz.sh exited $rc, expected 1 (failures found)"
for v in wrong oob; do
  grep -qE "^ +1 sum/p $v ones$" "$TMP/log" && ok "fuzz.sh reports signature sum/p $v ones" ||
    bad "fuzz.sh did not report sum/p $v ones: $(sed -n '/== failures/,/== sig/p' "$TMP/log")"
done
[ "$(grep -c '^shrink ' "$TMP/plain build/fuzz/record")" = 2 ] && ok "fuzz.sh shrinks each signature once" ||
  bad "fuzz.sh shrinks: $(grep '^shrink' "$TMP/plain build/fuzz/record")"
grep -qvx "fuzz plugins=$TMP/gpu lib.so" <(grep '^fuzz ' "$TMP/plain build/fuzz/record") &&
  bad "fuzz.sh: a fuzzer without the plugin: $(sort -u "$TMP/plain build/fuzz/record")" ||
  ok "fuzz.sh: every fuzzer run had REDFUZZ_PLUGINS=--plugin's library"
grep -qx "shrink plugins=$TMP/gpu lib.so" "$TMP/plain build/fuzz/record" && ok "fuzz.sh: the shrink loads the plugin" ||
  bad "fuzz.sh: the shrink did not load the plugin: $(cat "$TMP/plain build/fuzz/record")"
[ "$(ls "$TMP"/reg1/sum-p-*-1234.case | wc -l)" = 2 ] && ok "fuzz.sh filed both signatures into --regressions" ||
  bad "fuzz.sh --regressions: $(ls "$TMP/reg1")"
rm -f "$TMP"/*/fuzz/record

# A plugin campaign files into the user's folder: by default findings/<plugin name> under the
# folder the script is run from; the project's regressions/ (or a folder in it) is refused.
mkdir -p "$TMP/caller"
(cd "$TMP/caller" && bash "$SRC/scripts/fuzz.sh" --build "$TMP/plain build" --jobs 1 --time 2 --no-coverage \
   --out "$TMP/fuzz out2" --only sum/p --plugin "$TMP/gpu lib.so") > "$TMP/log" 2>&1
[ "$(ls "$TMP/caller/findings/gpu lib"/sum-p-*-1234.case 2>/dev/null | wc -l)" = 2 ] &&
  grep -q "new finding(s) in $TMP/caller/findings/gpu lib/" "$TMP/log" &&
  ok "fuzz.sh --plugin: findings in findings/<plugin name> under the caller's folder" ||
  bad "fuzz.sh --plugin default findings folder: $(ls -R "$TMP/caller" 2>&1) $(tail -n 3 "$TMP/log")"
rm -f "$TMP"/*/fuzz/record
for reg in regressions "$SRC/regressions/tsan"; do
  (cd "$SRC" && bash scripts/fuzz.sh --build "$TMP/plain build" --jobs 1 --time 1 --no-coverage \
     --out "$TMP/fuzz out2" --only sum/p --plugin "$TMP/gpu lib.so" --findings "$reg") > "$TMP/log" 2>&1
  rc=$?
  [ $rc -eq 2 ] && grep -q "is the project's regressions/ (its CI replays it without your plugin)" "$TMP/log" &&
    [ ! -e "$TMP/plain build/fuzz/record" ] && ok "fuzz.sh --plugin --findings $reg: refused before fuzzing" ||
    bad "fuzz.sh --plugin --findings $reg: exit $rc: $(cat "$TMP/log")"
done
out3=$(bash "$SRC/scripts/shrink-findings.sh" --redfuzz "$TMP/plain build/fuzz/redfuzz" --plugins "$TMP/gpu lib.so" \
       --findings "$SRC/regressions" "$TMP/gpu lib.so" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "is the project's regressions/" <<<"$out3" && ok "shrink-findings.sh --plugins into regressions/: refused" ||
  bad "shrink-findings.sh --plugins into regressions/: exit $rc: $out3"

# --known leaves the first signature out from the start.
printf '# known\nsum/p wrong\n' > "$TMP/known list"
(cd "$SRC" && bash scripts/fuzz.sh --build "$TMP/plain build" --jobs 1 --time 2 --no-coverage \
   --no-shrink --out "$out" --only sum/p --known "$TMP/known list" --regressions "$TMP/reg1") > "$TMP/log" 2>&1
grep -qE "^ +1 sum/p oob ones$" "$TMP/log" && ! grep -qE "sum/p wrong ones$" "$TMP/log" &&
  ok "fuzz.sh --known leaves sum/p wrong out" || bad "fuzz.sh --known: $(cat "$TMP/log")"
rm -f "$TMP"/*/fuzz/record

# ---- the hybrid campaign: plugins per side, both signatures, shrunk into a folder with a space ----
reg="$TMP/reg dir"
(cd "$SRC" && bash scripts/fuzz.sh --hybrid --backend sim --build "$TMP/plain build" \
   --sim-build "$TMP/tsan build" --time 3 --only sum/p --gpu-jobs 1 --sim-jobs 1 \
   --out "$TMP/hybrid out" --regressions "$reg" --plugin-gpu "$TMP/gpu lib.so" \
   --plugin-sim "$TMP/sim lib.so") > "$TMP/log" 2>&1 || bad "fuzz.sh --hybrid exited $?: $(cat "$TMP/log")"
for side in "plain build:gpu lib.so" "tsan build:sim lib.so"; do
  b=${side%%:*} l=${side#*:}
  if [ "$(grep '^fuzz ' "$TMP/$b/fuzz/record" | sort -u)" = "fuzz plugins=$TMP/$l" ] &&
     [ "$(grep '^shrink ' "$TMP/$b/fuzz/record" | sort -u)" = "shrink plugins=$TMP/$l" ]; then
    ok "hybrid: the $b side's fuzzers and shrinks load $l"
  else bad "hybrid: the $b side: $(cat "$TMP/$b/fuzz/record")"; fi
done
for v in wrong oob; do
  grep -qE "^  sum/p $v: [0-9]+ failing run" "$TMP/log" && ok "hybrid reports sum/p $v" ||
    bad "hybrid did not report sum/p $v: $(cat "$TMP/log")"
done
n=$(ls "$reg"/sum-p-*.case "$reg"/tsan/sum-p-*.case 2>/dev/null | wc -l)
[ "$n" = 4 ] && grep -q '^# found by: hybrid campaign, sim-plain side' "$reg"/sum-p-wrong-1234.case &&
  ok "hybrid filed both signatures of both sides (4 files, side named)" ||
  bad "hybrid regressions: $n files: $(ls -R "$reg" 2>&1)"

# ---- shrink-findings.sh: the shared helper, a folder with a space ----
echo wrong > "$TMP/crash-x"
out2=$(bash "$SRC/scripts/shrink-findings.sh" --redfuzz "$TMP/plain build/fuzz/redfuzz" --out "$TMP/s out" \
       --regressions "$TMP/s reg" --plugins "$TMP/gpu lib.so" "$TMP/crash-x" "$TMP/crash-x" 2>&1)
grep -q "^1 new regression(s), 2 findings shrunk" <<<"$out2" && [ -f "$TMP/s reg/sum-p-wrong-1234.case" ] &&
  ok "shrink-findings.sh files one signature once" || bad "shrink-findings.sh: $out2"
exit $fail

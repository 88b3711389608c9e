#!/usr/bin/env bash
# The user's loop, end to end (docs/FINDINGS.md), on the simulator:
#   1. find:  a campaign (scripts/fuzz.sh) on a buggy plugin files its findings in the user's
#             folder (findings/userloop/ under the folder it is run from), the case each
#             artifact decoded to beside it; the project's regressions/ (and any case file of
#             the source tree) untouched;
#   2. fix:   the fixed build of the plugin (same name); replay fails and names `guard`;
#   3. guard: `redfuzz guard` turns the finding that now passes into a guard (expect pass),
#             leaves the one the fix did not fix, and says both; replay then passes on the
#             fixed build and fails on the buggy one (CI keeps the bug fixed).
# Also: a finding replayed without its plugin is refused naming it (exit 2); an artifact
# decodes to the case beside it, and under another selection is refused; removing expect
# lines by hand stays refused.
#   user_loop.sh SRC REDFUZZ BUGGY_LIB FIXED_LIB [FUZZ_TARGET]
# FUZZ_TARGET: a libFuzzer target (a REDFUZZ_FUZZER build); without one the campaign runs a
# stand-in engine that walks the seed corpus (corpus/bin) through this redfuzz, each input
# decoded and judged as the target would, so that the campaign script's own steps (findings
# folder, decoded cases, shrink) run in any build.
set -uo pipefail
SRC=$(realpath "$1") RF=$(realpath "$2") BUGGY=$(realpath "$3") FIXED=$(realpath "$4")
FUZZ=${5:+$(realpath "$5")}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rf user loop.XXXXXX"); trap 'rm -rf "$tmp"' EXIT
fail() { echo "user_loop: FAIL: $*"; exit 1; }
ok() { echo "ok   $*"; }
ONLY=sum/userloop,sum/userloop-unfixed
[ "$(basename "$BUGGY")" = "$(basename "$FIXED")" ] || fail "the two builds must share a name"

# The project's own regressions, and every case file of the source tree, before.
snapshot() { (cd "$SRC/regressions" && find . -type f -print0 | sort -z | xargs -0 sha1sum); }
before=$(snapshot)
marker="$tmp/marker"; touch "$marker"; sleep 1

# A build folder as fuzz.sh takes one (no CMakeFiles/: used as it is).
mkdir -p "$tmp/build/fuzz" "$tmp/user"
ln -s "$RF" "$tmp/build/fuzz/redfuzz"
if [ -n "$FUZZ" ]; then
  ln -s "$FUZZ" "$tmp/build/fuzz/redfuzz_fuzz"
  engine="libFuzzer"
else
  engine="stand-in (seed corpus)"
  cat > "$tmp/build/fuzz/redfuzz_fuzz" <<'STUB'
#!/usr/bin/env bash
# Stand-in for the libFuzzer target: each seed input in turn, decoded as the target decodes it
# (redfuzz decode: REDFUZZ_ONLY, REDFUZZ_PLUGINS) and judged by redfuzz run; the first whose
# failures of selected variants are not all in REDFUZZ_KNOWN is written as libFuzzer writes a
# crash, with the target's ERROR lines, and the run stops (exit 1); a restart goes on from the
# next input. A bounded run, as libFuzzer's -runs: the first 40 inputs (the seeds, in name
# order, hold both bugs' sizes by then: n = 1027 and 256), then exit 0.
rf=$(dirname "$0")/redfuzz prefix="" dirs=() n=0
for a in "$@"; do case "$a" in -artifact_prefix=*) prefix=${a#-artifact_prefix=};; -*) ;; *) dirs+=("$a");; esac; done
pos="${prefix}.stand-in-position" from=$(cat "$pos" 2>/dev/null || echo 0)
echo "INFO: stand-in engine over ${dirs[*]} from input $from"
for f in $(find "${dirs[@]}" -type f | sort); do
  n=$((n + 1))
  [ "$n" -le 40 ] || break
  [ "$n" -gt "$from" ] || continue
  echo "$n" > "$pos"
  "$rf" decode "$f" > "$prefix.in.case" 2>/dev/null || continue
  dist=$(sed -n 's/^dist=//p' "$prefix.in.case")
  sigs=$("$rf" run --case "$prefix.in.case" --json 2>/dev/null |
         grep -oE '"variant":"[^"]+".*"verdict":"[a-z-]+"' |
         sed -E 's/^"variant":"([^"]+)".*"verdict":"([a-z-]+)"$/\1 \2/' |
         grep -vE ' (pass|unsupported)$' || true)
  new=""
  while read -r v verdict; do
    [ -n "$v" ] || continue
    case ",$REDFUZZ_ONLY," in *",$v,"*) ;; *) continue;; esac
    grep -qxF "$v $verdict $dist" "${REDFUZZ_KNOWN:-/dev/null}" 2>/dev/null || new="$new$v $verdict"$'\n'
  done <<< "$sigs"
  [ -n "$new" ] || continue
  echo "#$n NEW"
  echo "==== redfuzz: failing case ===="
  printf '%s' "$new" | while read -r v verdict; do echo "ERROR: redfuzz: $v $verdict dist=$dist"; done
  art="${prefix}crash-$(sha1sum < "$f" | cut -c1-40)"
  cp "$f" "$art"
  echo "artifact_prefix='$prefix'; Test unit written to $art"
  rm -f "$prefix.in.case"
  exit 1
done
rm -f "$prefix.in.case"
echo "Done $n runs"
echo "stat::number_of_executed_units: $n"
exit 0
STUB
  chmod +x "$tmp/build/fuzz/redfuzz_fuzz"
fi

# ---- 1. find: the campaign, run from the user's folder ----
(cd "$tmp/user" && bash "$SRC/scripts/fuzz.sh" --build "$tmp/build" --plugin "$BUGGY" --only "$ONLY" \
   --jobs 1 --time 120 --no-coverage --out "$tmp/out") > "$tmp/campaign.log" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "the campaign ($engine) exited $rc, expected 1 (failures found): $(tail -n 30 "$tmp/campaign.log")"
F="$tmp/user/findings/userloop"
shopt -s nullglob
fixed_f=("$F"/sum-userloop-wrong-*.case) unfixed_f=("$F"/sum-userloop-unfixed-wrong-*.case)
[ ${#fixed_f[@]} -eq 1 ] && [ ${#unfixed_f[@]} -eq 1 ] ||
  fail "findings in $F: $(ls -A "$F" 2>&1); campaign: $(tail -n 30 "$tmp/campaign.log")"
grep -q "new finding(s) in $F/" "$tmp/campaign.log" || fail "the summary does not name $F: $(tail -n 5 "$tmp/campaign.log")"
for f in "${fixed_f[0]}" "${unfixed_f[0]}"; do
  grep -qx 'plugins=userloop' "$f" && grep -qx "only=$ONLY" "$f" ||
    fail "$(basename "$f") does not record its plugin and selection: $(cat "$f")"
done
ok "campaign ($engine): findings in the user's folder: $(cd "$F" && ls | tr '\n' ' ')"
[ "$(snapshot)" = "$before" ] || fail "the project's regressions/ changed"
written=$(find "$SRC" -newer "$marker" -name '*.case' ! -path "$SRC/build*" 2>/dev/null)
[ -z "$written" ] || fail "case files written in the source tree: $written"
ok "the project's regressions/ untouched, no case file written in the source tree"

# Artifacts: each beside the case it decoded to, which decode gives again (the selection taken
# from it) and which still fails; under another selection decode refuses it.
arts=()
for a in "$tmp"/out/artifacts/crash-*; do [[ "$a" = *.case ]] || arts+=("$a"); done
[ ${#arts[@]} -gt 0 ] || fail "no artifact: $(ls "$tmp/out/artifacts")"
for a in "${arts[@]}"; do
  [ -f "$a.case" ] || fail "no decoded case beside $a"
  "$RF" --plugin "$BUGGY" decode "$a" > "$tmp/again.case" 2>"$tmp/err" ||
    fail "decode $a: $(cat "$tmp/err")"
  cmp -s "$tmp/again.case" "$a.case" || fail "$a decodes to another case than beside it: $(diff "$tmp/again.case" "$a.case")"
  "$RF" --plugin "$BUGGY" run --case "$a.case" > /dev/null 2>&1
  [ $? -eq 1 ] || fail "the case beside $a does not fail"
done
REDFUZZ_ONLY=max "$RF" --plugin "$BUGGY" decode "${arts[0]}" > /dev/null 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "the selection is given twice and differs" "$tmp/err" ||
  fail "decode under another selection: $(cat "$tmp/err")"
ok "artifacts decode to the case beside them (${#arts[@]}), another selection is refused"

# Without its plugin a finding is refused, naming it: never a run of the built-ins alone.
"$RF" replay "$F" > "$tmp/log" 2>&1
[ $? -eq 2 ] && grep -q "needs the plugin 'userloop', which is not loaded" "$tmp/log" ||
  fail "replay without the plugin: $(cat "$tmp/log")"
"$RF" --plugin "$BUGGY" replay "$F" > "$tmp/log" 2>&1 || fail "replay on the buggy build: $(cat "$tmp/log")"
ok "replay: refused without the plugin (exit 2), ok with the buggy build"

# ---- 2. fix: the fixed build under the same name ----
"$RF" --plugin "$FIXED" replay "$F" > "$tmp/log" 2>&1
[ $? -eq 1 ] && grep -q "sum/userloop expected wrong, got pass" "$tmp/log" &&
  grep -q "guard $F/" "$tmp/log" || fail "replay after the fix: $(cat "$tmp/log")"
ok "after the fix replay fails and names guard"

# ---- 3. guard ----
sums() { sha1sum "$F"/*.case; }
was=$(sums)
"$RF" --plugin "$FIXED" guard --dry-run "$F" > "$tmp/log" 2>&1
[ $? -eq 1 ] && [ "$(sums)" = "$was" ] && grep -q "^would rewrite " "$tmp/log" ||
  fail "guard --dry-run: $(cat "$tmp/log")"
"$RF" --plugin "$FIXED" guard "$F" > "$tmp/log" 2>&1
rc=$?
[ $rc -eq 1 ] || fail "guard exited $rc, expected 1 (a finding still fails): $(cat "$tmp/log")"
grep -qE "guard +.*: line [0-9]+: expect sum/userloop wrong  ->  expect sum/userloop pass$" "$tmp/log" &&
  grep -qE "still fails +.*sum/userloop-unfixed expected wrong, got wrong: left as it is" "$tmp/log" &&
  grep -q "^rewrote " "$tmp/log" || fail "guard's report: $(cat "$tmp/log")"
grep -l "expect sum/userloop wrong" "$F"/*.case && fail "a sum/userloop finding is left unguarded"
grep -q "^expect sum/userloop pass  # was 'wrong'" "${fixed_f[0]}" || fail "no guard line: $(cat "${fixed_f[0]}")"
grep -qx "expect sum/userloop-unfixed wrong" "${unfixed_f[0]}" || fail "the unfixed finding changed: $(cat "${unfixed_f[0]}")"
ls -A "$F" | grep -q '^\.' && fail "a temporary file left in $F: $(ls -A "$F")"
ok "guard: the fixed finding is a guard, the unfixed one is left and said"
"$RF" --plugin "$FIXED" replay "$F" > "$tmp/log" 2>&1 || fail "replay after guard: $(cat "$tmp/log")"
"$RF" --plugin "$BUGGY" replay "$F" > "$tmp/log" 2>&1
[ $? -eq 1 ] && grep -q "sum/userloop expected pass, got wrong" "$tmp/log" || fail "the guard does not catch the bug again: $(cat "$tmp/log")"
ok "replay: passes on the fixed build, the guard fails the buggy one"
"$RF" --plugin "$FIXED" guard "$F" > "$tmp/log" 2>&1
grep -q "0 rewritten.*nothing changed" "$tmp/log" && [ "$(sums)" != "$was" ] || fail "guard again: $(cat "$tmp/log")"
ok "guard again: nothing changed, said"

# Removing the expect lines by hand stays refused (replay's rule protects CI).
grep -v '^expect' "${fixed_f[0]}" > "$tmp/stripped.case"
"$RF" --plugin "$FIXED" replay "$tmp/stripped.case" > "$tmp/log" 2>&1
[ $? -eq 2 ] && grep -q "without expect lines" "$tmp/log" || fail "a finding without expect lines: $(cat "$tmp/log")"
[ "$(snapshot)" = "$before" ] || fail "the project's regressions/ changed"
ok "expect lines removed by hand: refused; the project's regressions/ still untouched"
grep -E "^fuzz.sh: libFuzzer done|^== artifacts" "$tmp/campaign.log"
echo "user_loop: ok"

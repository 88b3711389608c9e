#!/usr/bin/env bash
# Plugins that break the contract (include/redfuzz/plugin.h), more variants of one op than any
# fixed array held, and a kernel that spins without a barrier (issue 35). Each check: the exit
# status and the message (which plugin, which variant, which rule), and for the caps that the
# seventieth variant's failure is found by every command.
#   plugins.sh REDFUZZ BAD_VARIANTS_PLUGIN MANY_PLUGIN
set -uo pipefail
RF=$(realpath "$1") BAD=$(realpath "$2") MANY=$(realpath "$3")
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
pass=0 fail=0
# check WANT REGEX [ENV=value...] -- ARGS...: redfuzz ARGS exits WANT, stdout+stderr match REGEX.
check() {
  local want=$1 regex=$2; shift 2
  local envs=()
  while [ "$1" != "--" ]; do envs+=("$1"); shift; done
  shift
  local out rc
  out=$(cd "$TMP" && env "${envs[@]}" timeout 120 "$RF" "$@" 2>&1 </dev/null); rc=$?
  if [ "$rc" = "$want" ] && [[ "$out" =~ $regex ]]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: ${envs[*]} redfuzz $*"
    echo "  want exit $want and /$regex/, got exit $rc:"
    head -c 1500 <<< "$out" | sed 's/^/    /'
  fi
}
bad=(--plugin "$BAD")

# ---- the loader: each rule, before anything is registered -----------------------------------
check 2 "plugin $BAD: rf_plugin_variants gave count 18446744073709551615, which does not fit in the registry \(rule: at most [0-9]+ more variants" \
  RF_TEST_PLUGIN_DEFECT=count-max -- "${bad[@]}" list
check 2 "plugin $BAD: variant #1: the name is empty \(rule: a name \"<op>/<name>\"\)" \
  RF_TEST_PLUGIN_DEFECT=empty -- "${bad[@]}" list
check 2 "plugin $BAD: variant 'max/test,x': the name has a ',' \(rule: no ',' in a name; selection lists are comma separated\)" \
  RF_TEST_PLUGIN_DEFECT=comma -- "${bad[@]}" list
check 2 "plugin $BAD: variant #1: the pointer is NULL" \
  RF_TEST_PLUGIN_DEFECT=null-entry -- "${bad[@]}" list

# ---- plan rules: every time a plan is made (list, run), never a bound from a broken plan ----
rule="plugin $BAD: variant max/test-plan.s plan breaks the plan contract \(include/redfuzz/plugin.h, PLAN LEVELS\)"
check 1 "max/test-plan +launch-error .*$rule: n_levels is 1000 \(allowed: 0..8, RF_PLAN_MAX_LEVELS\)" \
  RF_TEST_PLUGIN_DEFECT=plan-levels -- "${bad[@]}" run --op max --n 100 --variant max/test-plan
check 1 "max/test-plan +launch-error .*$rule: level 0 has kind 77 \(allowed: 0..5, RF_LEVEL_CHAIN..RF_LEVEL_HOST\)" \
  RF_TEST_PLUGIN_DEFECT=plan-kind -- "${bad[@]}" run --op max --n 100 --variant max/test-plan
check 1 "max/test-plan +launch-error .*$rule: level 0 has adds 18446744073709551615 \(allowed: 1..2\^34\)" \
  RF_TEST_PLUGIN_DEFECT=plan-adds -- "${bad[@]}" run --op max --n 100 --variant max/test-plan
check 0 "max/test-plan +yes +invalid plan: level 0 has kind 77" \
  RF_TEST_PLUGIN_DEFECT=plan-kind -- "${bad[@]}" list --op max
# The plan rules hold for sweeps too: the bad plan is the variant's failure, the sweep goes on.
check 1 "FAIL   max/test-plan +launch-error" \
  RF_TEST_PLUGIN_DEFECT=plan-adds -- "${bad[@]}" sweep --op max --n 5,100 --variant max/test-plan

# ---- a configure reason is shown escaped: no forged line, no escape sequence ---------------
out=$(cd "$TMP" && RF_TEST_PLUGIN_DEFECT=reason "$RF" "${bad[@]}" run --op max --n 10 --variant max/test-plan 2>&1)
if [[ "$out" =~ unsupported\ +[^$'\n']*line\ one\\x0aFAIL\ forged\ line\ \\x1b\[31mred ]] &&
   ! [[ "$out" == *$'\n'FAIL* ]] && ! [[ "$out" == *$'\x1b'* ]]; then pass=$((pass + 1))
else fail=$((fail + 1)); echo "FAIL: configure reason not escaped:"; sed 's/^/    /' <<< "$out" | cat -v; fi
out=$(cd "$TMP" && RF_TEST_PLUGIN_DEFECT=reason "$RF" "${bad[@]}" list --op max 2>&1)
if [[ "$out" == *'line one\x0aFAIL'* ]] && ! [[ "$out" == *$'\x1b'* ]]; then pass=$((pass + 1))
else fail=$((fail + 1)); echo "FAIL: list shows the configure reason raw:"; cat -v <<< "$out"; fi

# ---- 70 variants of one op: the seventieth is wrong, and every command finds it ------------
many=(--plugin "$MANY")
check 1 "sum/plugin-many-69 +wrong " -- "${many[@]}" run --op sum --n 100 --dist ones
check 1 "FAIL   sum/plugin-many-69 +wrong " -- "${many[@]}" sweep --op sum --n 100 --dist ones
printf 'op=sum\nn=100\ndist=ones\n' > "$TMP/c.case"
check 0 "signature: sum/plugin-many-69 wrong.*sum-plugin-many-69-wrong-[0-9a-f]+\.case" \
  -- "${many[@]}" shrink "$TMP/c.case" --only sum --out "$TMP/r"
reg=$(ls "$TMP"/r/*.case 2>/dev/null | head -1)
if [ -n "$reg" ] && [ "$(grep -c '^expect sum/plugin-many-' "$reg")" = 70 ]; then pass=$((pass + 1))
else fail=$((fail + 1)); echo "FAIL: the regression file lacks the 70 plugin variants' expect lines"; fi
check 0 "ok +.*\(([7-9][0-9]|1[0-9][0-9]) variants, ([7-9][0-9]|1[0-9][0-9]) expectations\)" \
  -- "${many[@]}" replay "$TMP/r"
check 1 "sum/plugin-many-69 +ones .* inf +3 +3" \
  -- "${many[@]}" study --op sum --n-range 64..128 --seeds 1 --dist ones --out "$TMP/study"
# REDFUZZ_PLUGINS means the same as --plugin, for every command.
check 0 "ok +.*\(([7-9][0-9]|1[0-9][0-9]) variants" REDFUZZ_PLUGINS="$MANY" -- replay "$TMP/r"
check 1 "sum/plugin-many-69 +wrong " REDFUZZ_PLUGINS="$MANY" -- run --op sum --n 100 --dist ones
check 0 "signature: sum/plugin-many-69 wrong" REDFUZZ_PLUGINS="$MANY" -- shrink "$TMP/c.case" --only sum --out "$TMP/r2"
# Replay holds the seventieth's expectation: a regression edited to expect `pass` mismatches.
sed 's/^expect sum\/plugin-many-69 wrong/expect sum\/plugin-many-69 pass/' "$reg" > "$TMP/edited.case"
check 1 "MISMATCH|mismatch" -- "${many[@]}" replay "$TMP/edited.case"

# ---- the watchdog: a kernel spinning without a barrier is `timeout`, the run goes on --------
check 1 "sum/plugin-test-spin +timeout .*limit of 300 ms of CPU time \(REDFUZZ_LAUNCH_TIMEOUT_MS 300 " \
  RF_TEST_PLUGIN_SPIN=1 REDFUZZ_LAUNCH_TIMEOUT_MS=300 -- "${many[@]}" run --op sum --n 10 --dist ones --variant sum/plugin-test-spin
check 1 "caught sum/plugin-test-spin +timeout .*sum/plugin-many-00 +2 +2 +0 +0" \
  RF_TEST_PLUGIN_SPIN=1 REDFUZZ_LAUNCH_TIMEOUT_MS=300 -- "${many[@]}" sweep --op sum --mutants --n 10,20 --dist ones --block 0
# A hang counts toward --fault-limit as a crash does: timed out once, left out of case 2.
spin_limit=(RF_TEST_PLUGIN_SPIN=1 REDFUZZ_LAUNCH_TIMEOUT_MS=300 -- "${many[@]}" sweep --op sum --mutants --n 10,20 --dist ones --block 0 --fault-limit 1)
check 1 "sweep: sum/plugin-test-spin timed out on 1 case\(s\) \(--fault-limit 1\): it is left out" "${spin_limit[@]}"
check 1 "sum/plugin-test-spin +1 +0 +0 +1 +\(mutant: caught\)  \(faulted or hung: left out after it\)" "${spin_limit[@]}"

echo "hostile plugins: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

# shellcheck shell=bash
# A fuzz target that refused to start (sourced by the campaign scripts). The target checks
# its settings before it runs any input (fuzz/fuzz_target.c: a bad or misspelt REDFUZZ_*
# variable, a REDFUZZ_ONLY naming no variant, a plugin that does not load) and exits 2 with
# one line saying why. A campaign that restarted it until its time was up then said
# "executions: 0 ... no failure found", exit 0, the reason left in the workers' logs.
#
# rf_run_refused LOG STATUS
#   True when a fuzzer run that exited STATUS never started: a non-zero status, and its log
#   has none of libFuzzer's lines after the target's initialisation ("INFO: Seed:", which
#   libFuzzer prints once LLVMFuzzerInitialize returned; a status line #N; the final count),
#   and no failure artifact (a seed that fails while the corpus loads is a finding). A run
#   stopped by the campaign's own interrupt has passed its initialisation: not a refusal.
rf_run_refused() {
  [ "$2" -ne 0 ] || return 1
  ! grep -aqE '^INFO: Seed:|^#[0-9]+|number_of_executed_units|Test unit written to' "$1" 2>/dev/null
}

# rf_first_error LOG: the target's own first error line: its first "redfuzz ..." line, else
# the log's first line that is not libFuzzer's INFO; "(no output, exit STATUS)" for an empty
# log when STATUS is given as $2.
rf_first_error() {
  local line
  line=$(grep -a -m1 '^redfuzz' "$1" 2>/dev/null) ||
    line=$(grep -av '^INFO:' "$1" 2>/dev/null | grep -a -m1 '[^[:space:]]') || line=""
  printf '%s\n' "${line:-(no output${2:+, exit $2})}"
}

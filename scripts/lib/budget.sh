# shellcheck shell=bash
# A campaign's time budget for its restarted fuzzer runs (sourced by fuzz.sh and fuzz-hybrid.sh).
#
# rf_budget_left DEADLINE RUNS TOTAL
#   Sets RF_LEFT to the seconds the next run may take (DEADLINE is in `date +%s` seconds, RUNS
#   the runs this slot made so far, TOTAL the campaign's --time) and returns 0; returns 1 when
#   the budget is spent. A slot's first run always starts, with at least 1 s, unless TOTAL is 0:
#   on a loaded machine the clock may pass the deadline before a slot of a short campaign
#   begins, and a campaign that ran nothing reported "no failure found" (CI saw it: fuzz.sh
#   --time 1 beside the ASan build's tests).
rf_budget_left() {
  RF_LEFT=$(( $1 - $(date +%s) ))
  [ "$RF_LEFT" -gt 0 ] && return 0
  { [ "$2" -eq 0 ] && [ "$3" -gt 0 ]; } || return 1
  RF_LEFT=1
}

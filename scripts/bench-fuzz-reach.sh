#!/usr/bin/env bash
# How long a simulator campaign takes to find a bug that shows only past 32,768 elements (the
# fuzz size budget, run/fuzz_select.h): scripts/fuzz.sh with the planted-bug plugin
# tests/plugin/big_n_plugin.hip (sum/plugin-test-drops-past-32k), one job, that variant only,
# no shrink, no coverage report. Prints the seconds and executions until the first failure
# and the failing case's n, or that none was found in the time. Figures only, no threshold.
#   scripts/bench-fuzz-reach.sh [--build DIR] [--time S]
# Defaults: build (scripts/fuzz.sh builds its fuzz target), 300 s.
set -euo pipefail
RF_CALLER_DIR=${RF_CALLER_DIR:-$PWD}   # paths given are the caller's (lib/opts.sh)
cd "$(dirname "$0")/.."
RF_PROG="bench-fuzz-reach.sh"
source scripts/lib/opts.sh
RF_OPT_ALLOWED=([--build]="a build folder" [--time]="a number of seconds")
BUILD=build; TIME=300
while [ $# -gt 0 ]; do
  case "$1" in
    --build) rf_opt_path BUILD "$@"; shift 2;;
    --time) rf_opt_value TIME "$@"; shift 2;;
    -h|--help) sed -n '2,8p' "$RF_SELF"; exit 0;;
    *) rf_opt_unknown "$1";;
  esac
done
[[ "$TIME" =~ ^[0-9]+$ ]] || rf_opt_fail "--time: '$TIME' is not a number of seconds"
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
start=$(date +%s.%N)
bash scripts/fuzz.sh --build "$BUILD" --jobs 1 --time "$TIME" --no-shrink --no-coverage \
  --plugin-src tests/plugin/big_n_plugin.hip --only sum/plugin-test-drops-past-32k \
  --out "$out" --regressions "$out/reg" > "$out/summary" 2>&1 || true
art=$(find "$out/artifacts" -name 'crash-*' -printf '%T@ %p\n' 2>/dev/null | sort -n | head -n 1)
log=$(ls "$out"/fuzz-w*-1.log 2>/dev/null | head -n 1)
if [ -z "$art" ] || [ -z "$log" ]; then
  echo "bench-fuzz-reach: no failure in ${TIME} s"; grep -a 'size class' "$out/summary" || true
  exit 0
fi
execs=$(grep -aoE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' || true)
n=$(grep -a -A 3 '==== redfuzz: failing case' "$log" | grep -aoE '^n=[0-9]+' | head -n 1)
awk -v a="${art%% *}" -v s="$start" -v e="${execs:-?}" -v n="${n#n=}" 'BEGIN {
  printf "bench-fuzz-reach: found after %.0f s (campaign start to the crash artifact), %s executions, n = %s\n", a - s, e, n }'
grep -a 'ERROR: redfuzz: sum/plugin-test-drops-past-32k' "$log" | head -n 1

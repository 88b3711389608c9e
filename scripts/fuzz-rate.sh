#!/usr/bin/env bash
# How fast a libFuzzer campaign runs: redfuzz_fuzz from corpus/bin, one process, every
# correct variant, for S seconds with the default size caps, again with REDFUZZ_MAX_ELEMS=4096,
# with 4096 and the sweep's device-path threshold (REDFUZZ_DEVICE_MIN_ELEMS=16384: smaller
# cases on the host; the fuzz target's default puts every size on the device), and with the
# default caps and the host re-checks in the execution (REDFUZZ_RECHECK_BACKGROUND=0, not on
# the background thread); prints executions/s and the runner's time per execution split into
# its stages (generate, oracle, upload, launch, sync, download, judge, host re-checks; the
# background thread's time and the waits for it) and how many answers and verdicts the
# device made.
#   scripts/fuzz-rate.sh [--build DIR] [--time S] [--caps LIST]
#   (defaults: build-cuda, 30 s, every run; LIST: a comma list of the runs default, 4096,
#   4096-threshold, default-sync-recheck)
# Env: FUZZ_RATE_EXTRA="..." more libFuzzer flags; REDFUZZ_* as the fuzz target reads them.
set -euo pipefail
RF_CALLER_DIR=${RF_CALLER_DIR:-$PWD}   # paths given are the caller's (lib/opts.sh)
cd "$(dirname "$0")/.."
RF_PROG="fuzz-rate.sh"
source scripts/lib/opts.sh
BUILD=build-cuda; TIME=30; CAPS=default,4096,4096-threshold,default-sync-recheck
while [ $# -gt 0 ]; do
  case "$1" in
    --build) rf_opt_path BUILD "$@"; shift 2;;
    --time) rf_opt_value TIME "$@"; shift 2;;
    --caps) rf_opt_value CAPS "$@"; shift 2;;
    -h|--help) sed -n '2,14p' "$RF_SELF"; exit 0;;
    *) rf_opt_unknown "$1";;
  esac
done
[[ "$TIME" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz-rate.sh: --time: '$TIME' is not a positive number of seconds" >&2; exit 2; }
runs=(default 4096 4096-threshold default-sync-recheck)
for c in ${CAPS//,/ }; do
  [[ " ${runs[*]} " == *" $c "* ]] || { echo "fuzz-rate.sh: --caps: '$c' is not one of ${runs[*]}" >&2; exit 2; }
done
[ -n "${CAPS//,/}" ] || { echo "fuzz-rate.sh: --caps: empty (one or more of ${runs[*]})" >&2; exit 2; }
FUZZ=$BUILD/fuzz/redfuzz_fuzz
[ -x "$FUZZ" ] || { echo "fuzz-rate.sh: $FUZZ not built (configure with -DREDFUZZ_FUZZER=ON)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
for caps in ${CAPS//,/ }; do
  rm -rf "$work/corpus"; mkdir -p "$work/corpus" "$work/artifacts"
  log="$work/fuzz-$caps.log"
  env_caps=()
  [ "$caps" = 4096 ] && env_caps=(REDFUZZ_MAX_ELEMS=4096)
  [ "$caps" = 4096-threshold ] && env_caps=(REDFUZZ_MAX_ELEMS=4096 REDFUZZ_DEVICE_MIN_ELEMS=16384)
  [ "$caps" = default-sync-recheck ] && env_caps=(REDFUZZ_RECHECK_BACKGROUND=0)
  # One process (no fork mode): its exit prints the runner's profile (REDFUZZ_PROFILE=1).
  # A failure found here is a real finding: it is reported, and the rate is still printed.
  set +e
  env "${env_caps[@]}" REDFUZZ_PROFILE=1 CUDA_MODULE_LOADING=EAGER "$FUZZ" \
    -max_total_time="$TIME" -print_final_stats=1 -artifact_prefix="$work/artifacts/" \
    -rss_limit_mb=8192 -timeout=60 \
    ${FUZZ_RATE_EXTRA:-} "$work/corpus" corpus/bin > "$log" 2>&1
  rc=$?
  set -e
  execs=$(grep -aoE '^stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -n 1)
  secs=$(grep -aoE '^stat::average_exec_per_sec: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -n 1)
  printf 'caps %-12s %s executions/s (%s executions in %ss; libFuzzer exit %s)\n' "$caps" \
    "${secs:-?}" "${execs:-?}" "$TIME" "$rc"
  grep -aE '^redfuzz fuzz: (size cap|profile|launches per execution|time per execution|background re-check|exact answers|verdicts made|softmax cases|log-op cases|host path|no variant)' "$log" | sed 's/^/    /' || true
  if [ "$rc" -ne 0 ]; then
    status=1
    echo "    libFuzzer stopped early (a finding or a crash); its last lines:"
    grep -aE 'ERROR|redfuzz' "$log" | tail -n 5 | sed 's/^/      /'
  fi
done
exit $status

#!/usr/bin/env bash
# A GPU false-positive campaign for a machine that is lent for a limited time: runs
# scripts/fuzz.sh over every correct variant and, every 20 s, packs its log, the crash
# artifacts and any new regressions into PACK (a .tgz), so what ran is never lost when the
# machine is taken back. Stops the campaign LIMIT seconds after it started, whatever happens.
#   scripts/gpu-campaign.sh --build DIR --time S [--jobs N] [--limit S] [--pack FILE.tgz]
# Defaults: --jobs 8, --limit time + 90, --pack $OUT/campaign.tgz (or out/campaign.tgz).
set -u
cd "$(dirname "$0")/.."
RF_PROG="gpu-campaign.sh"
source scripts/lib/opts.sh
BUILD=""; TIME=""; JOBS=8; LIMIT=""; PACK="${OUT:-out}/campaign.tgz"
while [ $# -gt 0 ]; do
  case "$1" in
    --build) rf_opt_value BUILD "$@"; shift 2;;
    --time) rf_opt_value TIME "$@"; shift 2;;
    --jobs) rf_opt_value JOBS "$@"; shift 2;;
    --limit) rf_opt_value LIMIT "$@"; shift 2;;
    --pack) rf_opt_value PACK "$@"; shift 2;;
    -h|--help) sed -n '2,7p' "$0"; exit 0;;
    *) rf_opt_unknown "$1";;
  esac
done
[ -n "$BUILD" ] && [ -x "$BUILD/fuzz/redfuzz_fuzz" ] || { echo "gpu-campaign.sh: --build DIR with fuzz/redfuzz_fuzz is required" >&2; exit 2; }
[[ "$TIME" =~ ^[0-9]+$ ]] || { echo "gpu-campaign.sh: --time: '$TIME' is not a number of seconds" >&2; exit 2; }
: "${LIMIT:=$((TIME + 90))}"
work=$(mktemp -d); logs=$work/campaign; mkdir -p "$logs" "$(dirname "$PACK")"
pack() {
  cp "$work/fp/"fuzz*.log "$logs/" 2>/dev/null
  mkdir -p "$logs/artifacts"; cp "$work/fp/artifacts/"* "$logs/artifacts/" 2>/dev/null
  git status --short regressions > "$logs/new-regressions.txt" 2>/dev/null
  tar czf "$PACK" -C "$work" campaign
}
timeout "$LIMIT" bash scripts/fuzz.sh --backend cuda --build "$BUILD" --time "$TIME" \
  --jobs "$JOBS" --out "$work/fp" > "$logs/campaign.txt" 2>&1 &
pid=$!
while kill -0 $pid 2>/dev/null; do sleep 20; pack; tail -n 1 "$logs/campaign.txt"; done
wait $pid; rc=$?
echo "gpu-campaign.sh: fuzz.sh exit $rc" | tee -a "$logs/campaign.txt"
pack
tail -n 12 "$logs/campaign.txt"
exit $rc

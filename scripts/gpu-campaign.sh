#!/usr/bin/env bash
# A GPU false-positive campaign for a machine that is lent for a limited time: runs
# scripts/fuzz.sh over every correct variant and, every 20 s, packs its log, the crash
# artifacts and any new regressions into PACK (a .tgz), so what ran is never lost when the
# machine is taken back. Stops the campaign LIMIT seconds after it started, whatever happens.
#   scripts/gpu-campaign.sh --build DIR --time S [--jobs N] [--limit S] [--pack FILE.tgz]
# Defaults: --jobs 8, --limit time + 90, --pack $OUT/campaign.tgz (or out/campaign.tgz).
# Paths given are the caller's. Exit status is fuzz.sh's (0 nothing found, 1 a failure found,
# 2 bad usage or a campaign that ran nothing: fuzz.sh's reason on stderr); a campaign stopped
# at --limit before its summary is 1 when it left failure artifacts, else 2 (no result).
set -u
RF_CALLER_DIR=${RF_CALLER_DIR:-$PWD}
cd "$(dirname "$0")/.."
RF_PROG="gpu-campaign.sh"
source scripts/lib/opts.sh
RF_OPT_ALLOWED=([--build]="a GPU fuzz build folder" [--time]="a positive number of seconds"
  [--jobs]="a positive number" [--limit]="a positive number of seconds" [--pack]="a .tgz file")
BUILD=""; TIME=""; JOBS=8; LIMIT=""; PACK="$(rf_abs "${OUT:-out}")/campaign.tgz"
[ -n "${OUT:-}" ] || PACK=out/campaign.tgz
while [ $# -gt 0 ]; do
  case "$1" in
    --build) rf_opt_path BUILD "$@"; shift 2;;
    --time) rf_opt_value TIME "$@"; shift 2;;
    --jobs) rf_opt_value JOBS "$@"; shift 2;;
    --limit) rf_opt_value LIMIT "$@"; shift 2;;
    --pack) rf_opt_path PACK "$@"; shift 2;;
    -h|--help) sed -n '2,10p' "$RF_SELF"; exit 0;;
    *) rf_opt_unknown "$1";;
  esac
done
[ -n "$BUILD" ] || rf_opt_fail "--build DIR is required (allowed: a GPU fuzz build folder with fuzz/redfuzz_fuzz)"
[ -x "$BUILD/fuzz/redfuzz_fuzz" ] || rf_opt_fail "--build: '$BUILD' has no fuzz/redfuzz_fuzz (allowed: a GPU fuzz build folder)"
rf_opt_int --time "$TIME" 1 "$RF_MAX_SECONDS" "a positive number of seconds"
rf_opt_int --jobs "$JOBS" 1 "$RF_MAX_JOBS" "a positive number"
[ -z "$LIMIT" ] || rf_opt_int --limit "$LIMIT" 1 "$RF_MAX_SECONDS" "a positive number of seconds"
: "${LIMIT:=$((TIME + 90))}"
work=$(mktemp -d); logs=$work/campaign; mkdir -p "$logs"; trap 'rm -rf "$work"' EXIT
rf_mkdir --pack "$(dirname "$PACK")"
pack() {
  cp "$work/fp/"fuzz*.log "$logs/" 2>/dev/null
  mkdir -p "$logs/artifacts"; cp "$work/fp/artifacts/"* "$logs/artifacts/" 2>/dev/null
  git status --short regressions > "$logs/new-regressions.txt" 2>/dev/null
  # A temporary name, then the rename: the machine taken back mid-write leaves the last pack.
  tar czf "$PACK.tmp" -C "$work" campaign && mv -f "$PACK.tmp" "$PACK"
}
# fuzz.sh's errors go to their own file (packed too), so they can be said on stderr here.
timeout "$LIMIT" bash scripts/fuzz.sh --backend cuda --build "$BUILD" --time "$TIME" \
  --jobs "$JOBS" --out "$work/fp" > "$logs/campaign.txt" 2> "$logs/campaign-errors.txt" &
pid=$!
while kill -0 $pid 2>/dev/null; do
  for _ in $(seq 1 20); do sleep 1; kill -0 $pid 2>/dev/null || break; done
  pack; tail -n 1 "$logs/campaign.txt"
done
wait $pid; rc=$?
if [ "$rc" -eq 124 ]; then   # timeout(1): the limit stopped it before its summary
  found=$(find "$work/fp/artifacts" \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) 2>/dev/null | wc -l)
  echo "gpu-campaign.sh: fuzz.sh stopped at --limit ${LIMIT}s before its summary; $found failure artifact(s)" |
    tee -a "$logs/campaign.txt" >&2
  [ "$found" -gt 0 ] && rc=1 || rc=2
fi
echo "gpu-campaign.sh: fuzz.sh exit $rc" | tee -a "$logs/campaign.txt"
pack
tail -n 12 "$logs/campaign.txt"
if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ] && [ -s "$logs/campaign-errors.txt" ]; then
  sed 's/^/gpu-campaign.sh: /' "$logs/campaign-errors.txt" >&2
fi
exit $rc

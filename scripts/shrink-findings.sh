#!/usr/bin/env bash
# Shrinks fuzzer findings (inputs that made the fuzz target abort, from any engine) with
# `redfuzz shrink` and copies each new failure signature into the findings folder, as fuzz.sh
# does for libFuzzer's crash-* files. A signature already there is not copied again.
#   scripts/shrink-findings.sh --redfuzz BIN [--only LIST] [--out DIR] [--findings DIR]
#                              [--plugins LIB[:LIB...]] FILE...
# --plugins: plugins to load for the shrink (the campaign's REDFUZZ_PLUGINS). --findings DIR
# (or --regressions DIR): default findings/<plugin name> under the current folder when plugins
# are given (never the project's regressions/), else regressions.
# Prints "new regression: PATH" per new file, then "N new regression(s), M findings shrunk,
# by signature:" and one "count signature" line per signature (the shrunk file's prefix).
set -euo pipefail
# shellcheck disable=SC2034  # read by lib/opts.sh
RF_PROG="shrink-findings.sh"
source "$(dirname "$0")/lib/opts.sh"
source "$(dirname "$0")/lib/findings.sh"
# shellcheck disable=SC2034  # read by lib/opts.sh
RF_OPT_ALLOWED=([--redfuzz]="a redfuzz executable" [--only]="variant or op names, comma-separated"
  [--out]="a folder" [--regressions]="a folder" [--findings]="a folder"
  [--plugins]="a colon list of plugin libraries")
RF="" ONLY="" OUT=out/fuzz/shrunk REG="" PLUGINS=${REDFUZZ_PLUGINS:-}
while [ $# -gt 0 ]; do
  case "$1" in
    --redfuzz) rf_opt_value RF "$@"; shift 2;;
    --only) rf_opt_value ONLY "$@"; shift 2;;
    --out) rf_opt_value OUT "$@"; shift 2;;
    --regressions|--findings) rf_opt_value REG "$@"; shift 2;;
    --plugins) rf_opt_value PLUGINS "$@"; shift 2;;
    -h|--help) sed -n '2,11p' "$RF_SELF"; exit 0;;
    --) shift; break;;
    -*) rf_opt_unknown "$1";;
    *) break;;
  esac
done
[ -x "$RF" ] || rf_opt_fail "--redfuzz: '$RF' is not an executable redfuzz"
: "${REG:=$(rf_findings_dir "$PLUGINS" "$PWD")}"
rf_findings_check "$REG" "$PLUGINS" "$(dirname "$0")/.."
# Nothing to shrink is no result: it said "0 new regression(s), 0 findings shrunk", exit 0.
[ $# -gt 0 ] || rf_opt_fail "FILE: none given (allowed: one or more fuzz inputs)"
for a in "$@"; do [ -f "$a" ] || rf_opt_fail "FILE: '$a' is not a file (allowed: fuzz inputs)"; done
new=0 shrunk=0 sigs=()
for a in "$@"; do
  [ -f "$a" ] || continue
  rc=0; rf_file_finding "$RF" "$a" "$ONLY" "$OUT" "$REG" "$PLUGINS" "" || rc=$?
  [ $rc -eq 2 ] && continue
  shrunk=$((shrunk + 1)); sigs+=("$RF_FINDING_SIG")
  [ $rc -eq 0 ] && new=$((new + 1))
done
echo "$new new regression(s), $shrunk findings shrunk, by signature:"
if [ ${#sigs[@]} -gt 0 ]; then printf '%s\n' "${sigs[@]}" | sort | uniq -c; fi

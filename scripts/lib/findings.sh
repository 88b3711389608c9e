# shellcheck shell=bash
# Shrink-and-file, shared by fuzz.sh, fuzz-hybrid.sh and shrink-findings.sh (sourced, bash).
#
# rf_file_finding RF ARTIFACT ONLY SHRUNK_DIR REG_DIR PLUGINS FOUND_BY
#   Shrinks ARTIFACT (a failing fuzz input) with `RF shrink --only ONLY --out SHRUNK_DIR`, with
#   the colon list PLUGINS loaded (`--plugin` each: a plugin variant's finding shrinks only
#   where that variant exists), adds "# found by: FOUND_BY" as the file's second line when
#   FOUND_BY is not empty, and copies it into REG_DIR unless a file of the same signature (the
#   name up to its last '-': op, variant, verdict) is there already.
#   Sets RF_FINDING (the shrunk file) and RF_FINDING_SIG (its signature); prints
#   "new regression: PATH" for a new one. Returns 0 new, 1 known, 2 not shrunk.
rf_plugin_args() {   # rf_plugin_args LIST: fills RF_PLUGIN_ARGS with --plugin A --plugin B ...
  RF_PLUGIN_ARGS=()
  local p
  local IFS=:
  for p in $1; do [ -n "$p" ] && RF_PLUGIN_ARGS+=(--plugin "$p"); done
  return 0
}

rf_file_finding() {
  local rf=$1 art=$2 only=$3 shrunk=$4 reg=$5 plugins=$6 found_by=$7 base
  RF_FINDING="" RF_FINDING_SIG=""
  rf_plugin_args "$plugins"
  mkdir -p "$shrunk" "$reg"
  RF_FINDING=$("$rf" "${RF_PLUGIN_ARGS[@]}" shrink "$art" --only "$only" --out "$shrunk" \
                 2>/dev/null | tail -n 1 || true)
  [ -n "$RF_FINDING" ] && [ -f "$RF_FINDING" ] || { RF_FINDING=""; return 2; }
  [ -z "$found_by" ] || sed -i "1a # found by: $found_by" "$RF_FINDING"
  base=$(basename "$RF_FINDING"); RF_FINDING_SIG=${base%-*}
  if compgen -G "$reg/$RF_FINDING_SIG-*.case" >/dev/null; then return 1; fi
  cp "$RF_FINDING" "$reg/" || return 2
  echo "new regression: $reg/$base"
  return 0
}

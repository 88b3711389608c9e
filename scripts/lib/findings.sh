# shellcheck shell=bash
# Shrink-and-file, shared by fuzz.sh, fuzz-hybrid.sh and shrink-findings.sh (sourced, bash;
# needs lib/opts.sh).
#
# rf_file_finding RF ARTIFACT ONLY SHRUNK_DIR REG_DIR PLUGINS FOUND_BY [VARIANT]
#   Shrinks ARTIFACT (a failing fuzz input) with `RF shrink --only ONLY --out SHRUNK_DIR` (ONLY:
#   the selection the fuzzer decoded it under; VARIANT: the signature's variant, --variant), with
#   the colon list PLUGINS loaded (`--plugin` each: a plugin variant's finding shrinks only
#   where that variant exists), adds "# found by: FOUND_BY" as the file's second line when
#   FOUND_BY is not empty, and copies it into REG_DIR unless a file of the same signature (the
#   name up to its last '-': op, variant, verdict) is there already.
#   Sets RF_FINDING (the shrunk file) and RF_FINDING_SIG (its signature); prints
#   "new regression: PATH" for a new one. Returns 0 new, 1 known, 2 not shrunk.
# rf_plugin_names LIST: the names of the colon list's plugins, joined by '+', as redfuzz
# records them in case files (plugins=): libNAME.so is NAME (scripts/redfuzz-plugin's --name).
rf_plugin_names() {
  local p out=""
  local IFS=:
  for p in $1; do
    [ -n "$p" ] && out=${out:+$out+}$(basename "$p" | sed -E 's/^lib(.)/\1/; s/\.so(\.[^/]*)?$//')
  done
  echo "$out"
}

# rf_findings_dir PLUGINS CALLER_DIR: where a campaign files its findings by default: a plugin
# campaign's (PLUGINS not empty: the user's kernel) in CALLER_DIR/findings/<plugin names>, the
# folder the user ran the script from; the built-in kernels' in the project's regressions
# (docs/FINDINGS.md).
rf_findings_dir() {
  if [ -n "$1" ]; then echo "$2/findings/$(rf_plugin_names "$1")"; else echo regressions; fi
}

# rf_findings_check DIR PLUGINS ROOT: a plugin campaign never writes the project's own
# regressions (ROOT/regressions or a folder in it, which the project's CI replays without the
# plugin): a usage error naming the folder and the way out.
rf_findings_check() {
  [ -n "$2" ] || return 0
  local dir reg
  dir=$(realpath -m "$1"); reg=$(realpath -m "$3/regressions")
  case "$dir/" in
    "$reg/"*) rf_opt_fail "--findings: '$1' is the project's regressions/ (its CI replays it without your plugin); a plugin campaign's findings go to a folder of yours (default: findings/$(rf_plugin_names "$2") under the folder you run from)";;
  esac
  return 0
}

rf_plugin_args() {   # rf_plugin_args LIST: fills RF_PLUGIN_ARGS with --plugin A --plugin B ...
  RF_PLUGIN_ARGS=()
  local p
  local IFS=:
  for p in $1; do [ -n "$p" ] && RF_PLUGIN_ARGS+=(--plugin "$p"); done
  return 0
}

rf_file_finding() {
  local rf=$1 art=$2 only=$3 shrunk=$4 reg=$5 plugins=$6 found_by=$7 variant=${8:-} base
  local pick=()
  RF_FINDING="" RF_FINDING_SIG=""
  rf_plugin_args "$plugins"
  [ -z "$variant" ] || pick=(--variant "$variant")
  mkdir -p "$shrunk" "$reg"
  RF_FINDING=$("$rf" "${RF_PLUGIN_ARGS[@]}" shrink "$art" --only "$only" "${pick[@]}" --out "$shrunk" \
                 2>/dev/null | tail -n 1 || true)
  [ -n "$RF_FINDING" ] && [ -f "$RF_FINDING" ] || { RF_FINDING=""; return 2; }
  [ -z "$found_by" ] || sed -i "1a # found by: $found_by" "$RF_FINDING"
  base=$(basename "$RF_FINDING"); RF_FINDING_SIG=${base%-*}
  if compgen -G "$reg/$RF_FINDING_SIG-*.case" >/dev/null; then return 1; fi
  # Whole or not at all: a copy under a hidden name (replay reads *.case only), then a link to
  # the name, which never replaces a file there.
  cp "$RF_FINDING" "$reg/.$base.tmp" && ln "$reg/.$base.tmp" "$reg/$base" ||
    { rm -f "$reg/.$base.tmp"; return 2; }
  rm -f "$reg/.$base.tmp"
  echo "new regression: $reg/$base"
  return 0
}

# shellcheck shell=bash
# Plugins in campaigns (sourced, bash; needs lib/opts.sh): which plugin flavour a redfuzz build
# loads, and a plugin source built for it with scripts/redfuzz-plugin.

# rf_build_flavour BUILD: the plugin flavour the build folder's redfuzz loads (sim, sim-tsan,
# sim-asan, sim-cov, cuda, hip), from its CMakeCache.txt; "sim" when the cache says nothing.
rf_build_flavour() {
  local cache=$1/CMakeCache.txt backend=sim san="" cov=""
  if [ -f "$cache" ]; then
    backend=$(sed -n 's/^REDFUZZ_BACKEND:[A-Z]*=//p' "$cache"); backend=${backend:-sim}
    san=$(sed -n 's/^REDFUZZ_SANITIZE:[A-Z]*=//p' "$cache")
    cov=$(sed -n 's/^REDFUZZ_COVERAGE_REPORT:[A-Z]*=//p' "$cache")
  fi
  case "$backend:$san:$cov" in
    sim:thread:*) echo sim-tsan;;
    sim:address:*) echo sim-asan;;
    sim::ON) echo sim-cov;;
    *) echo "$backend";;
  esac
}

# rf_plugin_build SRC FLAVOUR OUTDIR: builds SRC for FLAVOUR into OUTDIR and prints the
# library's path; a usage error (exit 2, with the builder's reason) when it cannot be built.
rf_plugin_build() {
  local src=$1 flavour=$2 out=$3 log lib
  [ -f "$src" ] || rf_opt_fail "--plugin-src: '$src' is not a file"
  log=$(bash "$(dirname "${BASH_SOURCE[0]}")/../redfuzz-plugin" build "$src" --out "$out" \
          --backends "$flavour" 2>&1) ||
    rf_opt_fail "--plugin-src: cannot build '$src' for $flavour: $(grep -m1 'not built' <<<"$log" || tail -n 3 <<<"$log")"
  lib=$(sed -n "s/^built $flavour: //p" <<<"$log")
  [ -f "$lib" ] || rf_opt_fail "--plugin-src: no $flavour library from '$src': $log"
  echo "$lib"
}

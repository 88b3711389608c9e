#!/usr/bin/env bash
# Kernel coverage you can read: replays fuzz inputs on the simulator, one variant at a time,
# in a build whose kernels carry clang's source-based coverage, and prints per variant the
# kernel source regions reached and the lines never reached (scripts/coverage_report.py).
#   scripts/coverage.sh [--only LIST] [--build DIR] [--out DIR] PATH...
# PATH: fuzz inputs or folders of them (a campaign's corpus, corpus/bin). --only: the
# campaign's REDFUZZ_ONLY (default: every correct variant); the inputs decode exactly as they
# did in that campaign. --build: the build folder whose redfuzz_cov_replay target carries the
# coverage (default build, the main simulator build: its kernels are compiled once more with
# coverage for this target alone, cmake/coverage.cmake; a folder configured with
# -DREDFUZZ_COVERAGE_REPORT=ON works too); configured when missing, brought up to date every
# time. --out: where the profiles, exports and report.txt go (default out/coverage).
# --plugin LIB (repeatable): a plugin whose variants replay too, built for this build
# (scripts/redfuzz-plugin build SRC --backends sim-cov: the coverage flags, so its regions
# count; one built for the plain simulator loads as well, its variants then without regions,
# which the report says); --plugin-src SRC: built for it first (sim-cov), into OUT.plugin.
# Paths given are the caller's. --out is emptied first: a folder holding files this script did
# not write is refused. A replay that refuses to start (a bad REDFUZZ_* setting, an --only
# naming no variant) or that finds no input exits 2 with its reason.
set -euo pipefail
RF_CALLER_DIR=${RF_CALLER_DIR:-$PWD}
cd "$(dirname "$0")/.."
RF_PROG="coverage.sh"
source scripts/lib/opts.sh
source scripts/lib/plugin.sh
source scripts/lib/build_lock.sh
source scripts/lib/refused.sh
rf_errexit_2
RF_OPT_ALLOWED=([--only]="variant or op names, comma-separated" [--build]="a build folder"
  [--out]="a folder" [--plugin]="a plugin library (.so)" [--plugin-src]="a plugin source (.hip)")
ONLY=""; BUILD=build; OUT=out/coverage; PATHS=(); PLUGINS=""; PLUGIN_SRC=""; v=""
while [ $# -gt 0 ]; do
  case "$1" in
    --only) rf_opt_value ONLY "$@"; shift 2;;
    --build) rf_opt_path BUILD "$@"; shift 2;;
    --out) rf_opt_path OUT "$@"; shift 2;;
    --plugin) rf_opt_path v "$@"; PLUGINS=${PLUGINS:+$PLUGINS:}$v; shift 2;;
    --plugin-src) rf_opt_path PLUGIN_SRC "$@"; shift 2;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$RF_SELF"; exit 0;;
    -*) rf_opt_unknown "$1";;
    *) PATHS+=("$(rf_abs "$1")"); shift;;
  esac
done
[ ${#PATHS[@]} -gt 0 ] || rf_opt_fail "no PATH to replay (a corpus folder or fuzz inputs)"
for p in "${PATHS[@]}"; do
  [ -e "$p" ] || rf_opt_fail "PATH '$p' does not exist"
done
PROFDATA=$(command -v llvm-profdata-19 || command -v llvm-profdata || true)
LLVMCOV=$(command -v llvm-cov-19 || command -v llvm-cov || true)
[ -n "$PROFDATA" ] && [ -n "$LLVMCOV" ] || { echo "coverage.sh: needs llvm-profdata-19 and llvm-cov-19 (scripts/bootstrap.sh)" >&2; exit 2; }
# --out is checked (and emptied) before a build of minutes: one it may not empty is refused first.
rf_fresh_dir --out "$OUT"

REPLAY=$BUILD/redfuzz_cov_replay
# A CMake build is brought up to date every time (a replay binary older than the kernels
# would report yesterday's lines); a folder of binaries CMake did not make is used as it is.
if [ ! -x "$REPLAY" ] || [ -d "$BUILD/CMakeFiles" ]; then
  echo "coverage.sh: building redfuzz_cov_replay in $BUILD (simulator, source-based coverage in the kernels)"
  build_cov() {
    if [ ! -d "$BUILD/CMakeFiles" ]; then
      cmake --preset sim -B "$BUILD" >/dev/null || { echo "coverage.sh: configuring $BUILD failed" >&2; return 2; }
    fi
    cmake --build "$BUILD" -j "$(nproc)" --target redfuzz_cov_replay >"$BUILD/coverage-sh-build.log" 2>&1 ||
      { cat "$BUILD/coverage-sh-build.log" >&2; echo "coverage.sh: building $BUILD failed" >&2; return 2; }
  }
  rf_build_locked "$BUILD" build_cov || exit 2
fi
[ -n "$PLUGINS$PLUGIN_SRC" ] || { PLUGINS=${REDFUZZ_PLUGINS:-}; rf_abs_list PLUGINS; }   # as before the flags
if [ -n "$PLUGIN_SRC" ]; then
  PLUGINS=$(rf_plugin_build "$PLUGIN_SRC" sim-cov "$OUT.plugin") || exit 2
fi
export REDFUZZ_ONLY="$ONLY" REDFUZZ_PLUGINS="$PLUGINS"
# A plugin built with the coverage flags has its own profile runtime and mapping: its profile
# is its own file (LLVM_PROFILE_FILE's %m: one per module) and llvm-cov reads its mapping from
# the library (-object). One built without them replays all the same, without regions.
OBJECTS=(); UNCOVERED=()
IFS=: read -r -a libs <<< "$PLUGINS"
for p in "${libs[@]}"; do
  [ -n "$p" ] || continue
  if grep -qa __llvm_covmap "$p" 2>/dev/null; then OBJECTS+=(-object "$p"); else UNCOVERED+=("$p"); fi
done
mkdir -p "$OUT/probe"
rc=0; LLVM_PROFILE_FILE=/dev/null "$REPLAY" --list > "$OUT/variants.txt" 2> "$OUT/variants.err" || rc=$?
if [ "$rc" -ne 0 ]; then
  echo "coverage.sh: the replay refused to start (exit $rc): $(rf_first_error "$OUT/variants.err" "$rc")" >&2
  exit 2
fi
mapfile -t VARIANTS < "$OUT/variants.txt"
[ ${#VARIANTS[@]} -gt 0 ] || rf_opt_fail "--only: '$ONLY' selects no variant of $REPLAY${PLUGINS:+ (plugins $PLUGINS)}"
# One process per variant, two at a time: each writes its own profile(s).
replay_one() {
  local v=$1 safe=${1//\//_}
  LLVM_PROFILE_FILE="$OUT/$safe.%m.profraw" "$REPLAY" "$v" "${PATHS[@]}" > "$OUT/$safe.log" 2>&1 || {
    echo "coverage.sh: replaying $v failed (see $OUT/$safe.log)" >&2; return 1; }
  "$PROFDATA" merge -sparse -o "$OUT/$safe.profdata" "$OUT/$safe".*.profraw
  "$LLVMCOV" export -format=text -skip-expansions -instr-profile="$OUT/$safe.profdata" "$REPLAY" "${OBJECTS[@]}" > "$OUT/$safe.json"
  # (-skip-expansions: the report reads the functions' regions only, the same without the
  # files' expansion records, which were most of an export: docs/log/2026-12-07-main-job-time.md.)
  # Which functions are the variant's code: a few small cases of its own (a variant no input
  # reached then shows its regions unreached, 0/N, where it showed 0/0).
  LLVM_PROFILE_FILE="$OUT/probe/$safe.%m.profraw" "$REPLAY" --probe "$v" > "$OUT/probe/$safe.log" 2>&1 || {
    echo "coverage.sh: probing $v failed (see $OUT/probe/$safe.log)" >&2; return 1; }
  "$PROFDATA" merge -sparse -o "$OUT/probe/$safe.profdata" "$OUT/probe/$safe".*.profraw
  # The names of the functions the probe entered (count > 0), one a line.
  "$PROFDATA" show --all-functions "$OUT/probe/$safe.profdata" |
    awk '/^  [^ ].*:$/ { name = substr($0, 3, length($0) - 3) } /Function count: [1-9]/ { print name }' \
    > "$OUT/$safe.probe.txt"
}
pids=(); args=()
for v in "${VARIANTS[@]}"; do
  replay_one "$v" & pids+=($!)
  args+=("$v=$OUT/${v//\//_}.json")
  if [ ${#pids[@]} -ge 2 ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p"; done
inputs=$(grep -hoE "[0-9]+ inputs" "$OUT/${VARIANTS[0]//\//_}.log" | tail -n 1 || true)
# Nothing replayed is no coverage report (an empty corpus folder, or files it skipped).
[ "$inputs" != "0 inputs" ] || rf_opt_fail "PATH: no fuzz input in ${PATHS[*]} (allowed: fuzz inputs, or folders holding them)"
failures=$(cat "$OUT"/*.log | grep -c '^failure:' || true)   # the replays' logs, not the probes'
{
  echo "== kernel coverage: ${#VARIANTS[@]} variants (${ONLY:-every correct variant}), ${inputs:-? inputs} from ${PATHS[*]}; clang source regions"
  python3 scripts/coverage_report.py . "${args[@]}"
  [ "$failures" = 0 ] || echo "note: $failures failing (variant, input) pairs in the replay: grep ^failure: $OUT/*.log"
  for p in "${UNCOVERED[@]}"; do
    echo "note: plugin $p was not built with the coverage flags: its variants show no region (scripts/redfuzz-plugin build SRC --backends sim-cov, or --plugin-src SRC)"
  done
} | tee "$OUT/report.txt"

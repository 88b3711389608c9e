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
# --plugin LIB (repeatable): a plugin built for the plain simulator (scripts/redfuzz-plugin,
# flavour sim) whose variants replay too; --plugin-src SRC: built for it first, into OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
RF_PROG="coverage.sh"
source scripts/lib/opts.sh
source scripts/lib/plugin.sh
source scripts/lib/build_lock.sh
RF_OPT_ALLOWED=([--only]="variant or op names, comma-separated" [--build]="a build folder"
  [--out]="a folder" [--plugin]="a plugin library (.so)" [--plugin-src]="a plugin source (.hip)")
ONLY=""; BUILD=build; OUT=out/coverage; PATHS=(); PLUGINS=""; PLUGIN_SRC=""; v=""
while [ $# -gt 0 ]; do
  case "$1" in
    --only) rf_opt_value ONLY "$@"; shift 2;;
    --build) rf_opt_value BUILD "$@"; shift 2;;
    --out) rf_opt_value OUT "$@"; shift 2;;
    --plugin) rf_opt_value v "$@"; PLUGINS=${PLUGINS:+$PLUGINS:}$v; shift 2;;
    --plugin-src) rf_opt_value PLUGIN_SRC "$@"; shift 2;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0;;
    -*) rf_opt_unknown "$1";;
    *) PATHS+=("$1"); shift;;
  esac
done
[ ${#PATHS[@]} -gt 0 ] || rf_opt_fail "no PATH to replay (a corpus folder or fuzz inputs)"
for p in "${PATHS[@]}"; do
  [ -e "$p" ] || rf_opt_fail "PATH '$p' does not exist"
done
PROFDATA=$(command -v llvm-profdata-19 || command -v llvm-profdata || true)
LLVMCOV=$(command -v llvm-cov-19 || command -v llvm-cov || true)
[ -n "$PROFDATA" ] && [ -n "$LLVMCOV" ] || { echo "coverage.sh: needs llvm-profdata-19 and llvm-cov-19 (scripts/bootstrap.sh)" >&2; exit 2; }

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
[ -n "$PLUGINS$PLUGIN_SRC" ] || PLUGINS=${REDFUZZ_PLUGINS:-}   # as before the flags
if [ -n "$PLUGIN_SRC" ]; then
  PLUGINS=$(rf_plugin_build "$PLUGIN_SRC" sim "$OUT.plugin") || exit 2
fi
export REDFUZZ_ONLY="$ONLY" REDFUZZ_PLUGINS="$PLUGINS"
mapfile -t VARIANTS < <(LLVM_PROFILE_FILE=/dev/null "$REPLAY" --list)
rm -rf "$OUT"; mkdir -p "$OUT"
# One process per variant, two at a time: each writes its own profile.
replay_one() {
  local v=$1 safe=${1//\//_}
  LLVM_PROFILE_FILE="$OUT/$safe.profraw" "$REPLAY" "$v" "${PATHS[@]}" > "$OUT/$safe.log" 2>&1 || {
    echo "coverage.sh: replaying $v failed (see $OUT/$safe.log)" >&2; return 1; }
  "$PROFDATA" merge -sparse -o "$OUT/$safe.profdata" "$OUT/$safe.profraw"
  # -skip-expansions: the report reads the functions' regions only, which are the same without
  # the files' expansion records; those were most of an export (4.5 MB a variant with them,
  # 1.9 without; 0.80 s of CPU against 0.46: docs/log/2026-12-07-main-job-time.md).
  "$LLVMCOV" export -format=text -skip-expansions -instr-profile="$OUT/$safe.profdata" "$REPLAY" > "$OUT/$safe.json"
}
pids=(); args=()
for v in "${VARIANTS[@]}"; do
  replay_one "$v" & pids+=($!)
  args+=("$v=$OUT/${v//\//_}.json")
  if [ ${#pids[@]} -ge 2 ]; then wait "${pids[0]}"; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p"; done
inputs=$(grep -hoE "[0-9]+ inputs" "$OUT/${VARIANTS[0]//\//_}.log" | tail -n 1 || true)
failures=$(cat "$OUT"/*.log | grep -c '^failure:' || true)
{
  echo "== kernel coverage: ${#VARIANTS[@]} variants (${ONLY:-every correct variant}), ${inputs:-? inputs} from ${PATHS[*]}; clang source regions"
  python3 scripts/coverage_report.py . "${args[@]}"
  [ "$failures" = 0 ] || echo "note: $failures failing (variant, input) pairs in the replay: grep ^failure: $OUT/*.log"
} | tee "$OUT/report.txt"

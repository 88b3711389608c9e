#!/bin/bash -eu
# Builds redfuzz's fuzz target for ClusterFuzzLite / OSS-Fuzz from their environment:
#   CC, CXX, CFLAGS, CXXFLAGS  compilers and instrumentation for the whole build
#   LIB_FUZZING_ENGINE         the engine to link (libFuzzer, AFL++, honggfuzz), picked up by
#                              cmake/rf_fuzz_engine.cmake
#   SANITIZER                  address / undefined (address also turns on the simulator's
#                              fiber annotations, REDFUZZ_SANITIZE=address)
#   SRC, OUT, WORK             sources (redfuzz in $SRC/redfuzz), results, scratch
# Writes $OUT/redfuzz_fuzz, $OUT/redfuzz_fuzz_seed_corpus.zip (corpus/bin) and
# $OUT/redfuzz_fuzz.options (the same limits scripts/fuzz.sh gives libFuzzer).
# Tested locally by tests/ci/test_clusterfuzzlite_build.sh.
src=${SRC}/redfuzz
[ -d "$src" ] || src=$(cd "$(dirname "$0")/.." && pwd)
build=${WORK:-/tmp}/redfuzz-build
san=""
[ "${SANITIZER:-}" = address ] && san=address
# UBSan: unsigned arithmetic wraps by definition in C, and the generators and the simulator's
# schedule (SplitMix64: model/gen.c, sim/schedule.h) rely on it; OSS-Fuzz's undefined flags
# include unsigned-integer-overflow, which with halt_on_error would make every input a crash.
if [ "${SANITIZER:-}" = undefined ]; then
  CFLAGS="$CFLAGS -fno-sanitize=unsigned-integer-overflow"
  CXXFLAGS="$CXXFLAGS -fno-sanitize=unsigned-integer-overflow"
  export CFLAGS CXXFLAGS
fi
# MPFR and GMP as static archives: the runner image that executes $OUT has neither.
lib_a() {
  local p; p=$("$CC" -print-file-name="$1")
  case "$p" in /*) echo "$p";; *) echo "build.sh: $1 not found (install libmpfr-dev, libgmp-dev)" >&2; exit 1;; esac
}
mpfr=$(lib_a libmpfr.a); gmp=$(lib_a libgmp.a)
cmake -S "$src" -B "$build" -G Ninja \
  -DCMAKE_BUILD_TYPE=OssFuzz \
  -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
  -DREDFUZZ_BACKEND=sim -DREDFUZZ_FUZZER=ON -DREDFUZZ_MUTANTS=ON \
  -DREDFUZZ_SANITIZE="$san" \
  -DREDFUZZ_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" \
  -DMPFR_LIB="$mpfr" -DGMP_LIB="$gmp"
cmake --build "$build" -j "$(nproc)" --target redfuzz_fuzz
cp "$build/fuzz/redfuzz_fuzz" "$OUT/"
rm -f "$OUT/redfuzz_fuzz_seed_corpus.zip"
(cd "$src/corpus/bin" && zip -q -j "$OUT/redfuzz_fuzz_seed_corpus.zip" ./*.bin)
# -timeout: a big softmax case runs for seconds on the simulator; 60 s as in scripts/fuzz.sh.
# -rss_limit_mb: the MPFR oracle on big cases needs more than libFuzzer's 2 GB default.
cat > "$OUT/redfuzz_fuzz.options" <<'OPTIONS'
[libfuzzer]
timeout = 60
rss_limit_mb = 8192
OPTIONS

#!/usr/bin/env bash
# Oracle benchmark: builds bench_oracle and bench_softmax_double (the default RelWithDebInfo
# build) if needed and runs them. Prints, for n = 2^24: naive float loop ms, exact sum ms and
# their ratio (two data sets); softmax 4096 x 1024 seconds with 1 and 2 threads; and
# (softmax-check) ns per element of the double softmax oracle, the softmax bound and the
# three-way check, at cols 1024 and 4096 on `uniform` and `wide` rows, with MPFR's for scale;
# and (lse) the log-op oracle's CPU time per case and per row, MPFR for every row against the
# double path, at 64x1024, 4096x1, 1x4096, 1x65536 and 256x4096.
#   scripts/bench-oracle.sh [sum|softmax|softmax-check|lse|all] [reps]   (BUILD_DIR, default build-bench)
# Figures are wall-clock: run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build-bench}
if [ ! -f "$BUILD_DIR/build.ninja" ] && [ ! -f "$BUILD_DIR/Makefile" ]; then
  gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
  cc=(); command -v clang-19 >/dev/null && cc=(-DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19)
  cmake -S . -B "$BUILD_DIR" "${gen[@]}" "${cc[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
if ! log=$(cmake --build "$BUILD_DIR" --target bench_oracle bench_softmax_double bench_lse_oracle 2>&1); then
  echo "$log" >&2
  exit 1
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
what=${1:-all} reps=${2:-5}
case "$what" in
  sum|softmax) "$BUILD_DIR/tests/bench_oracle" "$what" "$reps" ;;
  softmax-check) "$BUILD_DIR/tests/bench_softmax_double" "$reps" ;;
  lse) "$BUILD_DIR/tests/bench_lse_oracle" "$reps" ;;
  all) "$BUILD_DIR/tests/bench_oracle" all "$reps"
       "$BUILD_DIR/tests/bench_softmax_double" "$reps"
       "$BUILD_DIR/tests/bench_lse_oracle" "$reps" ;;
  *) echo "usage: scripts/bench-oracle.sh [sum|softmax|softmax-check|lse|all] [reps]" >&2; exit 2 ;;
esac

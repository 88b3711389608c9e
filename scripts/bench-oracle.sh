#!/usr/bin/env bash
# Oracle benchmark: builds bench_oracle (the default RelWithDebInfo build) if needed
# and runs it. Prints, for n = 2^24: naive float loop ms, exact sum ms and their ratio (two
# data sets); then softmax 4096 x 1024 seconds with 1 and 2 threads.
#   scripts/bench-oracle.sh [sum|softmax|all] [reps]      (BUILD_DIR, default build-bench)
# Figures are wall-clock: run it on an otherwise idle machine.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build-bench}
if [ ! -f "$BUILD_DIR/build.ninja" ] && [ ! -f "$BUILD_DIR/Makefile" ]; then
  gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
  cc=(); command -v clang-19 >/dev/null && cc=(-DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19)
  cmake -S . -B "$BUILD_DIR" "${gen[@]}" "${cc[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
if ! log=$(cmake --build "$BUILD_DIR" --target bench_oracle 2>&1); then
  echo "$log" >&2
  exit 1
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), load $(cut -d' ' -f1-3 /proc/loadavg)"
"$BUILD_DIR/tests/bench_oracle" "${1:-all}" "${2:-5}"

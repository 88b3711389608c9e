#!/usr/bin/env bash
# The test command: set-up, then every check CI runs. From a fresh clone:
#   scripts/test.sh
# 1. bootstrap system packages; 2. build the simulator backend plain, under ThreadSanitizer
# and under AddressSanitizer, and run ctest in each (TSan: the tests labelled tsan); 3. host
# code warning-clean under gcc 12 too; 4. the gfx1201 device-code compile check; 5. the whole
# hip backend built (host and device) and its gfx1201 code objects checked; 6. continuous
# fuzzing: ClusterFuzzLite's build.sh under OSS-Fuzz's variables, AFL++ finding a planted mutant
# (the CI files' lint is in ctest: tests/ci).
set -euo pipefail
cd "$(dirname "$0")/.."
JOBS=${JOBS:-$(nproc)}

bash scripts/bootstrap.sh

echo "== build: simulator backend (preset sim)"
cmake --preset sim >/dev/null
cmake --build --preset sim -j "$JOBS"
echo "== ctest: simulator backend"
ctest --preset sim -j "$JOBS"

echo "== build: simulator backend under ThreadSanitizer (preset sim-tsan)"
cmake --preset sim-tsan >/dev/null
cmake --build --preset sim-tsan -j "$JOBS"
echo "== ctest: ThreadSanitizer build"
ctest --preset sim-tsan -j "$JOBS" -L tsan

echo "== build: simulator backend under AddressSanitizer (preset sim-asan)"
cmake --preset sim-asan >/dev/null
cmake --build --preset sim-asan -j "$JOBS"
echo "== ctest: AddressSanitizer build (the whole suite but the long schedule sweep run above)"
ctest --preset sim-asan -j "$JOBS" -E 'sweep_boundaries_all_schedules'

echo "== includes point only down the layers (model <- oracle <- sim, kernels <- run <- cli, fuzz)"
bash scripts/check-layers.sh --self-test
bash scripts/check-layers.sh

echo "== host C code under gcc 12 with -Wall -Wextra -Werror"
bash scripts/check-gcc.sh

echo "== gfx1201 device-code compile check"
bash scripts/check-gfx1201.sh

echo "== every kernel can launch 1024 threads (sm_90 registers and shared memory, via nvcc)"
bash scripts/check-launch-resources.sh --self-test
bash scripts/check-launch-resources.sh

echo "== hip backend: host and device built against Debian's ROCm 5.2 with clang-19, code objects checked"
timeout 1200 bash scripts/check-hip-build.sh --self-test
timeout 1800 bash scripts/check-hip-build.sh

echo "== ClusterFuzzLite: .clusterfuzzlite/build.sh with OSS-Fuzz's variables (libFuzzer + ASan)"
timeout 1800 bash tests/ci/test_clusterfuzzlite_build.sh

echo "== AFL++: scripts/fuzz.sh --engine afl finds a planted mutant on the simulator"
timeout 1800 bash tests/ci/test_afl_finds_mutant.sh

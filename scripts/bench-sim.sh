#!/bin/sh
# Simulator throughput, plain and ThreadSanitizer builds: builds tests/sim/bench_sim in
# build-sim and build-sim-tsan (override with BUILD_PLAIN / BUILD_TSAN) and prints
# elements per second for a grid-stride + LDS-tree sum (n = 2^16, block 256) and a
# block-per-row softmax (64 x 1024), each with 1 simulator thread and with
# REDFUZZ_SIM_THREADS (default 2) parallel blocks, one right after the other (wall time, best
# of runs; the CPU time per run and one thread's best CPU time beside it), then the floor
# under them: the bare switch on the simulator's stacks (tests/sim/bench_switch.cpp, plain
# build). An argument runs only the workloads whose name contains it; REDFUZZ_SIM_SCHEDULE=2
# measures under the random schedule (0-3 as RF_SIM_SCHED_*, default 0). Figures only, no
# thresholds.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
plain=${BUILD_PLAIN:-$root/build-sim}
tsan=${BUILD_TSAN:-$root/build-sim-tsan}
cc=${CC:-clang-19}
cxx=${CXX:-clang++-19}

build() {  # build <dir> <sanitizer> <target>
  if [ ! -f "$1/build.ninja" ]; then
    cmake -S "$root" -B "$1" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" -DREDFUZZ_SANITIZE="$2" >/dev/null
  fi
  ninja -C "$1" "$3" >/dev/null
}

build "$plain" "" bench_sim
"$plain/tests/sim/bench_sim" "$@"
echo
build "$plain" "" bench_switch
"$plain/tests/sim/bench_switch"
echo
build "$tsan" thread bench_sim
# The options the simulator also sets by default (sim/tsan_report.cpp).
TSAN_OPTIONS=${TSAN_OPTIONS:-halt_on_error=0:report_signal_unsafe=0} "$tsan/tests/sim/bench_sim" "$@"

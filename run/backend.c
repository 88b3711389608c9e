/* One policy per backend (backend.h); the build defines exactly one RF_BACKEND_* macro. */
#include "backend.h"
#include "kernels/harness/device.h"

#if defined(RF_BACKEND_CUDA)
/* Up to 2^26 1-D elements (the study's range) and 2^24 softmax elements; fuzz inputs at most
 * 2^22 elements and 2^20 GPU threads, so a campaign still runs many executions a second. The
 * thread cap: a fuzz input may ask for a grid of up to 2^22 blocks whatever its length, and
 * those blocks (each with its LDS tree and atomic) were the GPU time of a campaign, not its
 * elements: on an H200 at REDFUZZ_MAX_ELEMS=4096 the synchronisation took 536 us an
 * execution uncapped and 62 us at 2^20 threads (1,357 against 3,137 executions/s; default
 * caps 107 against 984; docs/RESULTS.md, "GPU session of 2026-12-01, fourth"). 2^20 threads
 * are about four times what an H200 holds resident (132 SMs x 2048), so grids still run in
 * several waves, grid-stride loops still loop and a grid of 2^20 one-thread blocks is still
 * reachable; sweeps take every grid. NVIDIA's float atomics
 * flush subnormals (PTX ISA, atom.add.f32); CUDA's expf is within 2 ulp (CUDA C Programming
 * Guide, mathematical functions appendix). */
const rf_backend_policy rf_backend = {"cuda", 0, {1u << 26, 1u << 24, 65536, 0}, 1u << 22,
                                      1u << 20, RF_DEV_STREAMS, &RF_SUM_ATOMIC_FTZ, &RF_EXP_CUDA_EXPF};
#elif defined(RF_BACKEND_HIP)
/* As CUDA, the same caps; AMD's float atomics are not documented here to keep subnormals,
 * so assumed to flush; ROCm's ocml expf is within 1 ulp (docs/TOLERANCES.md). */
const rf_backend_policy rf_backend = {"hip", 0, {1u << 26, 1u << 24, 65536, 0}, 1u << 22,
                                      1u << 20, RF_DEV_STREAMS, &RF_SUM_ATOMIC_FTZ, &RF_EXP_OCML_EXPF};
#else
/* The simulator runs one fiber per GPU thread: cases stay small enough for seconds, fuzz
 * inputs at most 2^12 elements and 2^14 GPU threads, four per element at the element cap (a
 * launch's cost is its threads times their barriers, whatever its elements: 2000 rows of 2
 * columns at one 256-thread block per row were 3 % of a campaign's launches and 60 % of its
 * time). From 2^16 to 2^14 the campaign's CPU per execution fell by a third with the same
 * coverage (3,000 executions, two seeds: 13.4 and 16.4 ms against 10.9 and 9.3; cov/ft
 * 1966/2819 and 2046/2929 against 2128/3006 and 2001/2965), corpus/bench's by half;
 * docs/SIMULATOR.md, "Performance". Its atomics are exact IEEE additions, its expf the
 * host's. */
/* Sparse distributions go past max_n to the model's 2^34 on every backend (model/case.h);
 * the runner refuses what the device's memory cannot hold (run/runner.c, with the figures). */
const rf_backend_policy rf_backend = {"sim", 1, {1u << 18, 1u << 18, 8192, 0}, 1u << 12,
                                      1u << 14, 1, &RF_SUM_IEEE, &RF_EXP_HOST_LIBM};
#endif

const rf_exp_model *rf_backend_fast_exp(void) {
#if defined(RF_BACKEND_CUDA)
  return &RF_EXP_CUDA_FAST;
#elif defined(RF_BACKEND_HIP)
  return &RF_EXP_GFX1201_FAST;
#else
  return rf_dev_sim_target_nvidia() ? &RF_EXP_CUDA_FAST : &RF_EXP_GFX1201_FAST;
#endif
}

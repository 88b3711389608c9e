/* Simulator throughput (run by scripts/bench-sim.sh; not a test): a grid-stride + LDS-tree
 * sum at n = 2^16 with block 256, and a block-per-row softmax at 64 x 1024, in elements per
 * second of the whole launch sequence. Prints figures only. Environment: REDFUZZ_SIM_THREADS
 * (parallel blocks of the second figure, default 2), REDFUZZ_SIM_SCHEDULE (0-3, default 0:
 * in-order), read and checked as every REDFUZZ_* variable is (run/settings.def: a bad or
 * misspelt one is exit 2 naming it). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <vector>
#include "kernels/port.h"
#include "run/settings.h"
#include "schedule_names.h"

__global__ void sum_partials(const float *x, float *partial, int n) {
  RF_SHARED(float, s, 1024);
  unsigned t = threadIdx.x;
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) acc += x[i];
  s[t] = acc;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = s[0];
}

/* The fused softmax of seed chapter 004: max tree, reader barrier, sum tree, normalise. */
__global__ void softmax_lds(const float *x, float *y, int cols) {
  RF_SHARED(float, s, 1024);
  const float *row = x + static_cast<size_t>(blockIdx.x) * cols;
  unsigned t = threadIdx.x;
  float m = -INFINITY;
  for (int c = t; c < cols; c += blockDim.x) m = fmaxf(m, row[c]);
  s[t] = m;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] = fmaxf(s[t], s[t + stride]);
    __syncthreads();
  }
  const float maximum = s[0];
  __syncthreads();
  float sum = 0.0f;
  for (int c = t; c < cols; c += blockDim.x) sum += expf(row[c] - maximum);
  s[t] = sum;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  const float denominator = s[0];
  for (int c = t; c < cols; c += blockDim.x)
    y[static_cast<size_t>(blockIdx.x) * cols + c] = expf(row[c] - maximum) / denominator;
}

/* The same softmax with wave shuffles for the in-wave part: fewer barriers, more
 * collectives. */
__device__ float wave_max(float v) {
  for (int d = warpSize / 2; d > 0; d /= 2) v = fmaxf(v, __shfl_xor(v, d));
  return v;
}
__device__ float wave_sum(float v) {
  for (int d = warpSize / 2; d > 0; d /= 2) v += __shfl_xor(v, d);
  return v;
}
__global__ void softmax_wave(const float *x, float *y, int cols) {
  RF_SHARED(float, partial, 32);
  const float *row = x + static_cast<size_t>(blockIdx.x) * cols;
  unsigned t = threadIdx.x, lane = t % warpSize, wave = t / warpSize;
  unsigned waves = blockDim.x / warpSize;
  float m = -INFINITY;
  for (int c = t; c < cols; c += blockDim.x) m = fmaxf(m, row[c]);
  m = wave_max(m);
  if (lane == 0) partial[wave] = m;
  __syncthreads();
  m = wave_max(lane < waves ? partial[lane] : -INFINITY);
  __syncthreads();
  float sum = 0.0f;
  for (int c = t; c < cols; c += blockDim.x) sum += expf(row[c] - m);
  sum = wave_sum(sum);
  if (lane == 0) partial[wave] = sum;
  __syncthreads();
  sum = wave_sum(lane < waves ? partial[lane] : 0.0f);
  for (int c = t; c < cols; c += blockDim.x)
    y[static_cast<size_t>(blockIdx.x) * cols + c] = expf(row[c] - m) / sum;
}

/* Wall time: with parallel blocks the launch runs on several threads, which the CPU time of
 * this one does not show. Best of repeated runs: the machine may be shared. */
static double wall_seconds() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double cpu_seconds(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}
static double process_cpu_seconds() { return cpu_seconds(CLOCK_PROCESS_CPUTIME_ID); }
/* The best CPU time of this thread per run: what one thread's simulation costs, whatever
 * the machine's load (the figure earlier versions of this benchmark printed). */
static double best_thread_cpu;

/* REDFUZZ_SIM_SCHEDULE (0-3, RF_SIM_SCHED_*; default in-order): the fuzz campaign draws
 * all four, and the random one's pick is its own cost at every switch. */
static int schedule = RF_SIM_SCHED_IN_ORDER;

/* Best wall time of one run of launch() with `threads` simulator threads; *cpu: the
 * process's CPU time per run (all threads), on average. */
template <typename Launch>
static double best_run(unsigned threads, Launch launch, uint64_t *switches, double *cpu) {
  rf_sim_set_threads(threads);
  rf_sim_configure(schedule, 1, 32);
  launch();  // warm: fiber stacks, LDS arenas and worker threads exist from here on
  uint64_t switches0 = rf_sim_switch_count();
  int reps = 0;
  double best = 1e30, start = wall_seconds(), cpu0 = process_cpu_seconds();
  do {
    double t0 = wall_seconds(), c0 = cpu_seconds(CLOCK_THREAD_CPUTIME_ID);
    launch();
    double s = wall_seconds() - t0, c = cpu_seconds(CLOCK_THREAD_CPUTIME_ID) - c0;
    if (s < best) best = s;
    if (threads == 1 && c < best_thread_cpu) best_thread_cpu = c;
    reps++;
  } while (wall_seconds() - start < 1.0 && reps < 200);
  *switches = (rf_sim_switch_count() - switches0) / static_cast<uint64_t>(reps);
  *cpu = (process_cpu_seconds() - cpu0) / reps;
  return best;
}

/* One thread, then `threads` (REDFUZZ_SIM_THREADS, default 2) in the same second or two, so
 * that the ratio is measured under the same machine load. */
static unsigned parallel_threads = 2;

static const char *only;  // argv[1]: run the workloads whose name contains it

template <typename Launch>
static void measure(const char *what, double elements, Launch launch) {
  if (only && !strstr(what, only)) return;
  uint64_t switches = 0, switches_n = 0;
  double cpu = 0, cpu_n = 0;
  uint64_t par0 = rf_sim_parallel_launches(), rerun0 = rf_sim_parallel_reruns();
  best_thread_cpu = 1e30;
  double one = best_run(1, launch, &switches, &cpu);
  double many = best_run(parallel_threads, launch, &switches_n, &cpu_n);
  char msg[256];
  int status = rf_sim_take_status(msg, sizeof msg);
  printf("%-62s %7.2f M elements/s  %u threads: %7.2f M (x%.2f)  (wall %.3f / %.3f ms, CPU "
         "%.3f / %.3f ms per run, one thread's best CPU %.3f ms = %.2f M/s, %llu switches%s%s%s)\n",
         what, elements / one / 1e6, parallel_threads, elements / many / 1e6, one / many,
         one * 1e3, many * 1e3, cpu * 1e3, cpu_n * 1e3, best_thread_cpu * 1e3,
         elements / best_thread_cpu / 1e6, static_cast<unsigned long long>(switches),
         switches_n != switches ? ", switch counts differ" : "",
         rf_sim_parallel_launches() == par0 || rf_sim_parallel_reruns() != rerun0
             ? ", ran sequentially"
             : "",
         status ? ", status: " : "");
  if (status) printf("  %s\n", msg);
}

int main(int argc, char **argv) {
  if (argc > 1) only = argv[1];
  static rf_settings set;
  char err[512];
  if (rf_settings_from_env(&set, err, sizeof err)) {
    fprintf(stderr, "bench_sim: %s\n", err);
    return 2;
  }
  if (set.sim_threads_set) parallel_threads = static_cast<unsigned>(set.sim_threads);
  schedule = static_cast<int>(set.sim_schedule);   // 0..3 (run/settings.def)
  printf("rf-sim benchmark (%s build), schedule %s, wave 32, wall time, best of runs\n",
         rf_sim_race_detection() ? "ThreadSanitizer" : "plain", kScheduleNames[schedule]);
  const int n = 1 << 16;
  std::vector<float> hx(n);
  for (int i = 0; i < n; i++) hx[i] = static_cast<float>(i % 17) - 8.0f;
  float *x, *partial, *total;
  hipMalloc(&x, n * sizeof(float));
  hipMalloc(&partial, 1024 * sizeof(float));
  hipMalloc(&total, sizeof(float));
  hipMemcpy(x, hx.data(), n * sizeof(float), hipMemcpyHostToDevice);
  for (int grid : {8, 64, 256}) {
    char what[96];
    snprintf(what, sizeof what, "sum grid-stride+LDS tree n=2^16 block 256 grid %d (+1 block)",
             grid);
    measure(what, n, [&] {
      hipLaunchKernelGGL(sum_partials, dim3(grid), dim3(256), 0, 0, x, partial, n);
      hipLaunchKernelGGL(sum_partials, dim3(1), dim3(256), 0, 0, partial, total, grid);
    });
  }
  const int rows = 64, cols = 1024;
  std::vector<float> hs(rows * cols);
  for (int i = 0; i < rows * cols; i++) hs[i] = static_cast<float>((i * 37) % 101) / 10.0f;
  float *sx, *sy;
  hipMalloc(&sx, hs.size() * sizeof(float));
  hipMalloc(&sy, hs.size() * sizeof(float));
  hipMemcpy(sx, hs.data(), hs.size() * sizeof(float), hipMemcpyHostToDevice);
  for (int block : {256, 1024}) {
    char what[96];
    snprintf(what, sizeof what, "softmax block-per-row LDS trees 64x1024 block %d", block);
    measure(what, rows * cols,
            [&] { hipLaunchKernelGGL(softmax_lds, dim3(rows), dim3(block), 0, 0, sx, sy, cols); });
    snprintf(what, sizeof what, "softmax block-per-row wave shuffles 64x1024 block %d", block);
    measure(what, rows * cols,
            [&] { hipLaunchKernelGGL(softmax_wave, dim3(rows), dim3(block), 0, 0, sx, sy, cols); });
  }
  hipFree(x);
  hipFree(partial);
  hipFree(total);
  hipFree(sx);
  hipFree(sy);
  return 0;
}

/* Planted bug 1, the softmax "LDS reuse race" (seed chapter 004): a block reduces the row
 * maximum into shared[0] by a tree, every thread reads it, and then the LDS is reused for
 * the sum partials. Without the reader barrier between the read and the reuse, thread 0's
 * sum partial can overwrite shared[0] before another thread has read the maximum.
 *   - ThreadSanitizer build: the first launch reports `race` naming both lines, and so does
 *     every later one (the launch ends at its race: no result is checked there).
 *   - every other build: wave-skew and in-order schedules give a wrong result.
 *   - the corrected kernel (with the reader barrier) reports nothing, right result. */
#include <math.h>
#include <string>
#include "sim_test_util.h"

template <bool kReaderBarrier>
__global__ void row_softmax(const float *x, float *y, int cols) {
  RF_SHARED(float, shared, 1024);
  const float *row = x + static_cast<size_t>(blockIdx.x) * cols;
  unsigned t = threadIdx.x;
  float m = -INFINITY;
  for (int c = t; c < cols; c += blockDim.x) m = fmaxf(m, row[c]);
  shared[t] = m;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) shared[t] = fmaxf(shared[t], shared[t + stride]);
    __syncthreads();
  }
  enum { kLineReadMax = __LINE__ + 1 };
  const float maximum = shared[0];
  if (kReaderBarrier) __syncthreads();
  float s = 0.0f;
  for (int c = t; c < cols; c += blockDim.x) s += expf(row[c] - maximum);
  enum { kLineReuse = __LINE__ + 1 };
  shared[t] = s;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) shared[t] += shared[t + stride];
    __syncthreads();
  }
  const float denominator = shared[0];
  for (int c = t; c < cols; c += blockDim.x)
    y[static_cast<size_t>(blockIdx.x) * cols + c] = expf(row[c] - maximum) / denominator;
  // The lines the race report must name, exported through a global the host reads.
  if (blockIdx.x == 0 && t == 0) {
    extern int g_line_read_max, g_line_reuse;
    g_line_read_max = kLineReadMax;
    g_line_reuse = kLineReuse;
  }
}
int g_line_read_max, g_line_reuse;

static const int kRows = 4, kCols = 300;

static std::vector<float> make_input() {
  std::vector<float> x(kRows * kCols);
  for (int r = 0; r < kRows; r++)
    for (int c = 0; c < kCols; c++)
      x[r * kCols + c] = static_cast<float>((c * 37 + r * 11) % 101) / 10.0f - 5.0f;
  return x;
}

/* Largest relative error against a double-precision reference. */
static double max_rel_error(const std::vector<float> &x, const std::vector<float> &y) {
  double worst = 0;
  for (int r = 0; r < kRows; r++) {
    double m = -INFINITY, s = 0;
    for (int c = 0; c < kCols; c++) m = fmax(m, x[r * kCols + c]);
    for (int c = 0; c < kCols; c++) s += exp(x[r * kCols + c] - m);
    for (int c = 0; c < kCols; c++) {
      double want = exp(x[r * kCols + c] - m) / s;
      double e = fabs(y[r * kCols + c] - want) / want;
      if (!(e <= worst)) worst = e;  // NaN counts as the worst
    }
  }
  return worst;
}

template <bool kReaderBarrier>
static double run(int schedule, uint64_t seed, unsigned block, int *status, char *msg, size_t len) {
  std::vector<float> x = make_input();
  float *dx = dev_from(x);
  float *dy = dev_alloc<float>(x.size());
  rf_sim_configure(schedule, seed, 32);
  hipLaunchKernelGGL(row_softmax<kReaderBarrier>, dim3(kRows), dim3(block), 0, 0, dx, dy, kCols);
  CHECK(hipGetLastError() == hipSuccess);
  *status = rf_sim_take_status(msg, len);
  double err = max_rel_error(x, host_from(dy, x.size()));
  hipFree(dx);
  hipFree(dy);
  return err;
}

static int contains_line(const char *msg, int line) {
  char needle[64];
  snprintf(needle, sizeof needle, "test_race_lds_reuse.hip:%d", line);
  return strstr(msg, needle) != nullptr;
}

int main() {
  char msg[512];
  int status;
  // The racy kernel, first launch of the process, in-order schedule, block 256.
  double err = run<false>(RF_SIM_SCHED_IN_ORDER, 1, 256, &status, msg, sizeof msg);
  printf("racy kernel, in-order: max rel error %g, status %s: %s\n", err,
         rf_sim_status_name(status), msg);
  // The racy launches' messages, checked for the two lines once a launch that runs to its
  // end (the corrected kernel's, the same source lines) has exported them.
  std::vector<std::string> racy;
  if (rf_sim_race_detection()) {
    CHECK_MSG(status == RF_SIM_RACE, "status %s: %s", rf_sim_status_name(status), msg);
    racy.push_back(std::string("first launch, in-order: ") + msg);
  } else {
    CHECK_MSG(err > 1e-3, "in-order should expose the overwritten maximum (error %g)", err);
    CHECK_MSG(status == RF_SIM_OK, "plain build: %s", msg);
  }
  // Wave-skew: some seeds let a later wave run ahead; every seed gives a wrong result
  // because the rest of the block then runs in order. Other block sizes too, up to 1024
  // (where the race detector groups threads to stay within its 255 identities).
  for (unsigned block : {64u, 256u, 1024u})
    for (uint64_t seed = 1; seed <= 3; seed++) {
      err = run<false>(RF_SIM_SCHED_WAVE_SKEW, seed, block, &status, msg, sizeof msg);
      if (rf_sim_race_detection()) {  // reported again at every launch, not only the first
        CHECK_MSG(status == RF_SIM_RACE, "wave-skew block %u seed %llu: %s", block,
                  (unsigned long long)seed, msg);
        racy.push_back(std::string("wave-skew: ") + msg);
      } else {
        CHECK_MSG(err > 1e-3, "wave-skew block %u seed %llu: error %g", block,
                  (unsigned long long)seed, err);
      }
    }
  // The corrected kernel: right under every schedule, nothing reported.
  for (unsigned block : {64u, 256u, 1024u})
    for (int s = 0; s < 4; s++) {
      err = run<true>(s, 7, block, &status, msg, sizeof msg);
      CHECK_MSG(err < 1e-5, "corrected kernel, block %u %s: error %g", block, kScheduleNames[s],
                err);
      CHECK_MSG(status == RF_SIM_OK, "corrected kernel, block %u %s: %s %s", block,
                kScheduleNames[s], rf_sim_status_name(status), msg);
    }
  CHECK(g_line_read_max > 0 && g_line_reuse > 0);
  for (const std::string &m : racy)
    CHECK_MSG(contains_line(m.c_str(), g_line_read_max) && contains_line(m.c_str(), g_line_reuse),
              "race message must name lines %d and %d: %s", g_line_read_max, g_line_reuse,
              m.c_str());
  return rf_test_done();
}

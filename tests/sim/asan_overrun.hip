/* AddressSanitizer build only: an LDS overrun and a global overrun inside a kernel are
 * reported at the kernel line that makes them. ASan aborts on the report; its report
 * callback checks the text first and prints the marker ctest looks for. */
#include <stdlib.h>
#include "sim_test_util.h"

extern "C" void __asan_set_error_report_callback(void (*callback)(const char *));

enum { kLineLds = __LINE__ + 4 };
__global__ void lds_overrun(float *out) {
  RF_SHARED(float, s, 32);
  RF_SHARED(float, t, 32);
  s[threadIdx.x + 1] = 1.0f;  // thread 31 writes one past the end of s
  t[threadIdx.x] = 2.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x] + t[threadIdx.x];
}

enum { kLineGlobal = __LINE__ + 2 };
__global__ void global_overrun(const float *x, float *out, int n) {
  out[threadIdx.x] = x[threadIdx.x + 1] * static_cast<float>(n);  // reads x[n]
}

static const char *want_kind;
static int want_line;

static void on_report(const char *report) {
  char where[64];
  snprintf(where, sizeof where, "asan_overrun.hip:%d", want_line);
  if (strstr(report, want_kind) && strstr(report, where))
    fprintf(stderr, "rf-sim asan check: %s reported at %s\n", want_kind, where);
  else
    fprintf(stderr, "rf-sim asan check: expected %s at %s\n", want_kind, where);
}

int main(int argc, char **argv) {
  __asan_set_error_report_callback(on_report);
  bool lds = argc > 1 && strcmp(argv[1], "lds") == 0;
  const int n = 32;
  float *x = dev_from(std::vector<float>(n, 1.0f));
  float *out = dev_alloc<float>(n);
  rf_sim_configure(RF_SIM_SCHED_IN_ORDER, 0, 32);
  if (lds) {
    want_kind = "use-after-poison";
    want_line = kLineLds;
    hipLaunchKernelGGL(lds_overrun, dim3(1), dim3(n), 0, 0, out);
  } else {
    want_kind = "heap-buffer-overflow";
    want_line = kLineGlobal;
    hipLaunchKernelGGL(global_overrun, dim3(1), dim3(n), 0, 0, x, out, n);
  }
  fprintf(stderr, "rf-sim asan check: no report\n");
  return 1;
}

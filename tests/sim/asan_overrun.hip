/* AddressSanitizer build only: an LDS overrun and a global overrun inside a kernel are
 * reported at the kernel line that makes them.
 *   `lds` / `global`: ASan's own report text names the kind and the line (a report callback
 *     installed over the simulator's checks the text and prints the marker ctest looks for).
 *   `status`: with the build's defaults alone (kernels recoverable, sim/asan_report.cpp's
 *     halt_on_error=0:suppress_equal_pcs=0, no ASAN_OPTIONS), both overruns become the
 *     simulator status `oob` naming kind and line at every launch, not only the first, and
 *     the run goes on.
 *   `host`: a report outside any kernel (a memset past a heap block, on the host) still ends
 *     the process: a bug of the harness is never a verdict. */
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
static int reported;

static void on_report(const char *report) {
  char where[64];
  snprintf(where, sizeof where, "asan_overrun.hip:%d", want_line);
  reported = 1;
  if (strstr(report, want_kind) && strstr(report, where))
    fprintf(stderr, "rf-sim asan check: %s reported at %s\n", want_kind, where);
  else
    fprintf(stderr, "rf-sim asan check: expected %s at %s\n", want_kind, where);
}

static void launch(bool lds, float *x, float *out, int n) {
  if (lds)
    hipLaunchKernelGGL(lds_overrun, dim3(1), dim3(n), 0, 0, out);
  else
    hipLaunchKernelGGL(global_overrun, dim3(1), dim3(n), 0, 0, x, out, n);
}

static void check_status(bool lds, float *x, float *out, int n) {
  char msg[512], where[64];
  launch(lds, x, out, n);
  int status = rf_sim_take_status(msg, sizeof msg);
  snprintf(where, sizeof where, "asan_overrun.hip:%d", lds ? kLineLds : kLineGlobal);
  printf("%s\n", msg);
  CHECK_MSG(status == RF_SIM_OOB &&
                strstr(msg, lds ? "use-after-poison" : "heap-buffer-overflow") &&
                strstr(msg, where),
            "want oob at %s: %s %s", where, rf_sim_status_name(status), msg);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "status";
  const int n = 32;
  float *x = dev_from(std::vector<float>(n, 1.0f));
  float *out = dev_alloc<float>(n);
  rf_sim_configure(RF_SIM_SCHED_IN_ORDER, 0, 32);
  if (strcmp(mode, "status") == 0) {
    for (int i = 0; i < 3; i++) {  // the same lines again: each launch reports
      check_status(true, x, out, n);
      check_status(false, x, out, n);
    }
    hipLaunchKernelGGL(global_overrun, dim3(1), dim3(n - 1), 0, 0, x, out, n);  // in bounds
    CHECK(rf_sim_take_status(nullptr, 0) == RF_SIM_OK);
    hipFree(x);
    hipFree(out);
    return rf_test_done();
  }
  if (strcmp(mode, "host") == 0) {
    launch(true, x, out, 1);  // the simulator installs its report callback here
    volatile size_t len = 48;
    char *volatile p = static_cast<char *>(malloc(32));
    memset(p, 1, len);  // intercepted: a recoverable report, outside any kernel
    fprintf(stderr, "rf-sim asan check: the host report did not end the process (%d)\n", p[0]);
    free(p);
    return 0;
  }
  bool lds = strcmp(mode, "lds") == 0;
  launch(lds, x, out, 1);  // in bounds; the simulator installs its report callback here
  __asan_set_error_report_callback(on_report);
  want_kind = lds ? "use-after-poison" : "heap-buffer-overflow";
  want_line = lds ? kLineLds : kLineGlobal;
  launch(lds, x, out, n);
  if (!reported) fprintf(stderr, "rf-sim asan check: no report\n");
  return reported ? 0 : 1;
}

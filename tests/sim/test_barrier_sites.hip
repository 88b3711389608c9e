/* How a barrier arrival is told apart from the generation's first (sim/sync_ops.cpp): the
 * common arrival compares the file-name pointer and the line; any difference goes to the
 * out-of-line path, which compares the names. The same site reached through another
 * pointer to the same name is one barrier (no divergence under any schedule); the same line
 * in another file is a divergent barrier. A barrier or wave operation called on the host,
 * before any launch and after one, is a launch error, not a crash. */
#include <stdio.h>
#include "sim_test_util.h"

/* __FILE__ copied by the host before the launches: the same name at another address. */
static char copied_file[512];

__global__ void same_site_other_pointer(int *out) {
  RF_SHARED(int, s, 64);
  s[threadIdx.x] = static_cast<int>(threadIdx.x);
  // Odd threads name the site through the copy: the first arrival is even under in-order,
  // odd under reverse (thread 63), either under the others.
  ::rf_sim::syncthreads(threadIdx.x % 2 ? copied_file : __FILE__, __LINE__);
  out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
}

__global__ void same_line_other_file(int *out) {
  ::rf_sim::syncthreads(threadIdx.x % 2 ? "elsewhere.hip" : __FILE__, __LINE__);
  out[blockIdx.x * 64 + threadIdx.x] = 1;
}

/* A host call reports only while no problem of the last launch stands (abandon() keeps the
 * first problem): so one call before any launch and one after a launch that succeeded. */
static void expect_refused(int status, const char *msg, const char *what) {
  CHECK_MSG(status == RF_SIM_LAUNCH_ERROR && strstr(msg, what), "%s: %s %s", what,
            rf_sim_status_name(status), msg);
}
int main() {
  char msg[512];
  __syncthreads();  // before any launch: no GPU thread's record was ever current
  expect_refused(rf_sim_take_status(msg, sizeof msg), msg, "__syncthreads() outside a kernel");
  snprintf(copied_file, sizeof copied_file, "%s", __FILE__);
  const char *literal = __FILE__;
  CHECK(strcmp(copied_file, literal) == 0 && copied_file != literal);
  int *out = dev_alloc<int>(2 * 64);
  for (int s = 0; s < 4; s++) {
    rf_sim_configure(s, 3, 32);
    hipLaunchKernelGGL(same_site_other_pointer, dim3(2), dim3(64), 0, 0, out);
    int status = rf_sim_take_status(msg, sizeof msg);
    CHECK_MSG(status == RF_SIM_OK, "%s, same site through a copied name: %s %s",
              kScheduleNames[s], rf_sim_status_name(status), msg);
    std::vector<int> got = host_from(out, 2 * 64);
    for (int i = 0; i < 2 * 64; i++) CHECK_MSG(got[i] == 63 - i % 64, "%s: out[%d] = %d",
                                               kScheduleNames[s], i, got[i]);

    hipLaunchKernelGGL(same_line_other_file, dim3(2), dim3(64), 0, 0, out);
    status = rf_sim_take_status(msg, sizeof msg);
    CHECK_MSG(status == RF_SIM_DIVERGENT_BARRIER && strstr(msg, "elsewhere.hip"),
              "%s, same line in another file: %s %s", kScheduleNames[s],
              rf_sim_status_name(status), msg);
    CHECK(hipGetLastError() == hipErrorLaunchFailure);
  }
  hipLaunchKernelGGL(same_site_other_pointer, dim3(1), dim3(64), 0, 0, out);
  CHECK(rf_sim_take_status(nullptr, 0) == RF_SIM_OK);
  CHECK_MSG(__shfl_xor(5, 1) == 5, "a host shuffle returns its own value");
  expect_refused(rf_sim_take_status(msg, sizeof msg), msg, "wave operation outside a kernel");
  hipFree(out);
  return rf_test_done();
}

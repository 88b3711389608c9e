/* Plain HIP keeps the simulator's alignment check (docs/SIMULATOR.md, "Alignment" and "Plain
 * HIP"): compiled through the plain-HIP build step with -fsanitize=alignment, a vector load
 * from an address that is not a multiple of its size ends the launch as `crash` naming the
 * type and the kernel's own line, as a GPU faults; the same load aligned passes. Global memory
 * (a float4 view of a float buffer one element in) and LDS (an int4 view of a __shared__ int
 * array one element in). The sanitizer builds have no alignment check: there only the aligned
 * loads run. */
#include <hip/hip_runtime.h>
#include <stdio.h>
#include "../sim_test_util.h"

enum { kLineGlobal = __LINE__ + 3 };
__global__ void load4(const float *x, float *out) {
  const float4 *v = reinterpret_cast<const float4 *>(x);
  const float4 a = v[threadIdx.x];
  out[threadIdx.x] = a.x + a.y + a.z + a.w;
}

enum { kLineShared = __LINE__ + 6 };
__global__ void shared4(unsigned skip, int *out) {
  __shared__ int s[4 * 33];
  for (unsigned i = threadIdx.x; i < 4 * 33; i += blockDim.x) s[i] = static_cast<int>(i);
  __syncthreads();
  const int4 *v = reinterpret_cast<const int4 *>(s + skip);
  const int4 a = v[threadIdx.x];
  out[threadIdx.x] = a.x + a.y + a.z + a.w;
}

static int take(char *msg, size_t len) {
  (void)hipGetLastError();
  return rf_sim_take_status(msg, len);
}

int main() {
  char msg[512], want[96];
  rf_sim_configure(RF_SIM_SCHED_IN_ORDER, 0, 32);

  std::vector<float> xs(4 * 33);
  for (size_t i = 0; i < xs.size(); i++) xs[i] = static_cast<float>(i);
  float *x = dev_from(xs), *out = dev_alloc<float>(32);
  load4<<<1, 32>>>(x, out);
  CHECK_MSG(take(msg, sizeof msg) == RF_SIM_OK, "aligned float4 loads: %s", msg);
  std::vector<float> got = host_from(out, 32);
  CHECK(got[0] == 0 + 1 + 2 + 3 && got[31] == 124 + 125 + 126 + 127);

  int *iout = dev_alloc<int>(32);
  shared4<<<1, 32>>>(0, iout);
  CHECK_MSG(take(msg, sizeof msg) == RF_SIM_OK, "aligned int4 loads from __shared__: %s", msg);
  std::vector<int> igot = host_from(iout, 32);
  CHECK(igot[0] == 0 + 1 + 2 + 3 && igot[31] == 124 + 125 + 126 + 127);

#if !(defined(RF_ASAN) && RF_ASAN) && !(defined(RF_TSAN) && RF_TSAN)
  load4<<<1, 32>>>(x + 1, out);
  int st = take(msg, sizeof msg);
  printf("float4 one float in: %s\n", msg);
  CHECK(st == RF_SIM_CRASH);
  snprintf(want, sizeof want, "test_plain_align.hip:%d", kLineGlobal);
  CHECK_MSG(strstr(msg, "misaligned") && strstr(msg, "'const float4'") &&
                strstr(msg, "4 bytes past a 16-byte boundary") && strstr(msg, want),
            "want a misaligned float4 at %s in: %s", want, msg);

  shared4<<<1, 32>>>(1, iout);
  st = take(msg, sizeof msg);
  printf("int4 from __shared__ one int in: %s\n", msg);
  CHECK(st == RF_SIM_CRASH);
  snprintf(want, sizeof want, "test_plain_align.hip:%d", kLineShared);
  CHECK_MSG(strstr(msg, "misaligned") && strstr(msg, "'const int4'") && strstr(msg, want),
            "want a misaligned int4 at %s in: %s", want, msg);
#endif
  hipFree(x);
  hipFree(out);
  hipFree(iout);
  return rf_test_done();
}

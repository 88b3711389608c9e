/* Wave collectives order the lanes of their own wave only (one sync object per wave and
 * collective). Lanes of one wave that exchange LDS data around a shuffle do not race; two
 * waves that do the same with only their own shuffles in between do.
 *   - ThreadSanitizer build: `race` for the cross-wave kernel naming both lines, nothing for
 *     the in-wave kernel.
 *   - every build: the cross-wave kernel reads poison under the reverse schedule. */
#include "sim_test_util.h"

/* Lane 0 of wave 0 publishes; lane 0 of wave 1 reads after its own wave's shuffle. */
template <bool kCrossWave>
__global__ void publish_then_shuffle(float *out) {
  RF_SHARED(float, s, 2);
  unsigned t = threadIdx.x, reader = kCrossWave ? warpSize : 0, writer = kCrossWave ? 0 : 1;
  enum { kLineWrite = __LINE__ + 1 };
  if (t == writer) s[0] = 42.0f;
  float v = __shfl_xor(static_cast<float>(t), 1);
  enum { kLineRead = __LINE__ + 1 };
  if (t == reader) out[0] = s[0] + 0.0f * v;
  if (t == 0) {
    extern int g_line_write, g_line_read;
    g_line_write = kLineWrite;
    g_line_read = kLineRead;
  }
}
int g_line_write, g_line_read;

static float run(bool cross, int schedule, int *status, char *msg, size_t len) {
  float *out = dev_alloc<float>(1);
  rf_sim_configure(schedule, 1, 32);
  if (cross)
    hipLaunchKernelGGL(publish_then_shuffle<true>, dim3(1), dim3(64), 0, 0, out);
  else
    hipLaunchKernelGGL(publish_then_shuffle<false>, dim3(1), dim3(64), 0, 0, out);
  CHECK(hipGetLastError() == hipSuccess);
  *status = rf_sim_take_status(msg, len);
  float got = host_from(out, 1)[0];
  hipFree(out);
  return got;
}

int main() {
  char msg[512], w[64], r[64];
  int status;
  for (int s = 0; s < 4; s++) {
    float got = run(true, s, &status, msg, sizeof msg);
    printf("cross-wave, %s: read %g, status %s: %s\n", kScheduleNames[s], got,
           rf_sim_status_name(status), msg);
    if (s == RF_SIM_SCHED_REVERSE)
      CHECK_MSG(got != got, "reverse should read the poison (got %g)", got);
    if (rf_sim_race_detection()) {
      snprintf(w, sizeof w, "test_race_wave.hip:%d", g_line_write);
      snprintf(r, sizeof r, "test_race_wave.hip:%d", g_line_read);
      CHECK_MSG(status == RF_SIM_RACE && strstr(msg, w) && strstr(msg, r), "%s: want %s and %s: %s",
                kScheduleNames[s], w, r, msg);
    } else {
      CHECK_MSG(status == RF_SIM_OK, "%s", msg);
    }
    got = run(false, s, &status, msg, sizeof msg);
    CHECK_MSG(got == 42.0f && status == RF_SIM_OK, "in-wave, %s: read %g, %s", kScheduleNames[s],
              got, msg);
  }
  return rf_test_done();
}

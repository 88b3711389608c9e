/* Barrier semantics: values written before __syncthreads() are visible after it, across
 * every schedule, for block sizes 1..1024 (also not multiples of the wave) and 2-D/3-D
 * blocks; many barrier generations in a loop. */
#include "sim_test_util.h"

/* Each thread writes its id, then reads its mirror's after the barrier; repeated `rounds`
 * times with the values rotating, so a barrier that let a thread through early shows. */
__global__ void mirror_kernel(const int *in, int *out, int rounds) {
  RF_SHARED(int, buf, 1024);
  unsigned n = blockDim.x * blockDim.y * blockDim.z;
  unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int v = in[blockIdx.x * n + t];
  for (int r = 0; r < rounds; r++) {
    buf[t] = v;
    __syncthreads();
    v = buf[n - 1 - t] + 1;
    __syncthreads();
  }
  out[blockIdx.x * n + t] = v;
}

static std::vector<int> mirror_reference(const std::vector<int> &in, unsigned n, unsigned blocks,
                                         int rounds) {
  std::vector<int> v(in);
  for (int r = 0; r < rounds; r++) {
    std::vector<int> next(v.size());
    for (unsigned b = 0; b < blocks; b++)
      for (unsigned t = 0; t < n; t++) next[b * n + t] = v[b * n + (n - 1 - t)] + 1;
    v = next;
  }
  return v;
}

static void run_mirror(dim3 block, unsigned blocks, int rounds, int schedule, unsigned wave) {
  unsigned n = block.x * block.y * block.z;
  std::vector<int> in(n * blocks);
  for (size_t i = 0; i < in.size(); i++) in[i] = static_cast<int>(i * 7 + 3);
  int *din = dev_from(in);
  int *dout = dev_alloc<int>(in.size());
  rf_sim_configure(schedule, 42, wave);
  hipLaunchKernelGGL(mirror_kernel, dim3(blocks), block, 0, 0, din, dout, rounds);
  CHECK_MSG(hipGetLastError() == hipSuccess, "block (%u,%u,%u)", block.x, block.y, block.z);
  char msg[512];
  int code = rf_sim_take_status(msg, sizeof msg);
  CHECK_MSG(code == RF_SIM_OK, "block (%u,%u,%u) %s: %s", block.x, block.y, block.z,
            kScheduleNames[schedule], msg);
  std::vector<int> got = host_from(dout, in.size());
  CHECK_MSG(got == mirror_reference(in, n, blocks, rounds), "block (%u,%u,%u) schedule %s wave %u",
            block.x, block.y, block.z, kScheduleNames[schedule], wave);
  hipFree(din);
  hipFree(dout);
}

int main() {
  const unsigned sizes[] = {1,   2,   31,  32,  33,  63,   64,   65,
                            100, 255, 256, 257, 500, 1000, 1023, 1024};
  for (unsigned n : sizes)
    for (int s = 0; s < 4; s++) run_mirror(dim3(n), 2, 3, s, 32);
  for (unsigned n : {33u, 64u, 96u, 1024u})
    for (int s = 0; s < 4; s++) run_mirror(dim3(n), 2, 2, s, 64);
  // Multi-dimensional blocks: the linear thread index is x + Dx*(y + Dy*z).
  run_mirror(dim3(8, 4, 2), 3, 2, RF_SIM_SCHED_RANDOM, 32);
  run_mirror(dim3(5, 7, 3), 2, 2, RF_SIM_SCHED_WAVE_SKEW, 32);
  run_mirror(dim3(1, 1, 64), 2, 2, RF_SIM_SCHED_REVERSE, 64);
  // Many generations of one barrier site.
  run_mirror(dim3(64), 1, 200, RF_SIM_SCHED_RANDOM, 32);
  return rf_test_done();
}

/* Wave collectives against a host reference written from the HIP/CUDA documentation:
 * every width (power of two up to the wave), every kind, edge deltas and lanes, float /
 * int / unsigned, wave 32 and 64, partial last waves (missing lanes read as poison), and
 * the launch error for an invalid width. */
#include "sim_test_util.h"

enum Op { kIdx, kUp, kDown, kXor, kIdxDefaultWidth, kDownDefaultWidth };

template <typename T>
static T lane_value(unsigned t, unsigned b) {
  return static_cast<T>(static_cast<int>(t * 3u + b * 1000u + 1u) * (t % 2 ? -1 : 1));
}
template <>
unsigned lane_value<unsigned>(unsigned t, unsigned b) {
  return t * 2654435761u + b;
}

template <typename T>
__global__ void shuffle_kernel(T *out, int op, int arg, int width) {
  unsigned t = threadIdx.x;
  T v = lane_value<T>(t, blockIdx.x);
  T r = v;
  switch (op) {
    case kIdx: r = __shfl(v, arg, width); break;
    case kUp: r = __shfl_up(v, static_cast<unsigned>(arg), width); break;
    case kDown: r = __shfl_down(v, static_cast<unsigned>(arg), width); break;
    case kXor: r = __shfl_xor(v, arg, width); break;
    case kIdxDefaultWidth: r = __shfl(v, arg); break;
    case kDownDefaultWidth: r = __shfl_down(v, static_cast<unsigned>(arg)); break;
  }
  out[blockIdx.x * blockDim.x + t] = r;
}

/* The documented source lane, or -1 for "own value". Lanes are numbered within the wave;
 * a segment is `width` consecutive lanes. */
static long reference_source(long lane, int op, long arg, long width) {
  long segment = lane / width, pos = lane % width;
  switch (op) {
    case kIdx:
    case kIdxDefaultWidth: {
      long m = ((arg % width) + width) % width;  // srcLane modulo width
      return segment * width + m;
    }
    case kUp: return pos >= arg ? lane - arg : -1;
    case kDown:
    case kDownDefaultWidth: return pos + arg < width ? lane + arg : -1;
    default: {
      long target = lane ^ arg;  // later segments are out of reach, earlier ones are not
      return target < (segment + 1) * width ? target : -1;
    }
  }
}

static int failures_logged;

template <typename T>
static void check_case(unsigned wave, unsigned block, unsigned blocks, int op, int arg, int width) {
  T *out = dev_alloc<T>(block * blocks);
  rf_sim_configure(RF_SIM_SCHED_RANDOM, static_cast<uint64_t>(arg * 31 + width), wave);
  hipLaunchKernelGGL(shuffle_kernel<T>, dim3(blocks), dim3(block), 0, 0, out, op, arg, width);
  CHECK(hipGetLastError() == hipSuccess);
  char msg[512];
  int status = rf_sim_take_status(msg, sizeof msg);
  CHECK_MSG(status == RF_SIM_OK, "%s", msg);
  std::vector<T> got = host_from(out, block * blocks);
  long w = (op == kIdxDefaultWidth || op == kDownDefaultWidth) ? static_cast<long>(wave) : width;
  for (unsigned b = 0; b < blocks; b++)
    for (unsigned t = 0; t < block; t++) {
      long wave_first = t / wave * wave, lane = t - wave_first;
      long src = reference_source(lane, op, arg, w);
      long src_thread = src < 0 ? t : wave_first + src;
      uint32_t want_bits;
      if (src_thread >= static_cast<long>(block)) {
        want_bits = 0x7FDADBADu;  // that lane does not exist in a partial wave
      } else {
        T want = lane_value<T>(static_cast<unsigned>(src_thread), b);
        memcpy(&want_bits, &want, 4);
      }
      uint32_t got_bits;
      memcpy(&got_bits, &got[b * block + t], 4);
      bool ok = got_bits == want_bits;
      CHECK(ok);
      if (!ok && failures_logged++ < 10)
        fprintf(stderr, "wave %u block %u op %d arg %d width %d thread %u: got %08x want %08x\n",
                wave, block, op, arg, width, t, got_bits, want_bits);
    }
  hipFree(out);
}

static void check_invalid_width(unsigned wave, int width) {
  int *out = dev_alloc<int>(64);
  rf_sim_configure(RF_SIM_SCHED_IN_ORDER, 0, wave);
  hipLaunchKernelGGL(shuffle_kernel<int>, dim3(1), dim3(64), 0, 0, out, static_cast<int>(kDown), 1,
                     width);
  CHECK(hipGetLastError() == hipErrorLaunchFailure);
  char msg[512];
  CHECK(rf_sim_take_status(msg, sizeof msg) == RF_SIM_LAUNCH_ERROR);
  CHECK_MSG(strstr(msg, "width") && strstr(msg, "test_shuffle.hip:"), "%s", msg);
  hipFree(out);
}

int main() {
  for (unsigned wave : {32u, 64u}) {
    for (unsigned block : {wave, 2 * wave, wave + 8, 3u}) {
      for (int width = 1; width <= static_cast<int>(wave); width *= 2) {
        const int w = width;
        for (int arg : {0, 1, 2, w / 2, w - 1, w, w + 1, 2 * w + 3, -1, -w - 2})
          check_case<int>(wave, block, 2, kIdx, arg, width);
        for (int arg : {0, 1, 2, w / 2, w - 1, w, w + 5})
          for (int op : {kUp, kDown}) check_case<int>(wave, block, 2, op, arg, width);
        for (int arg : {0, 1, w / 2, w - 1, w, 2 * w - 1, static_cast<int>(wave) - 1})
          check_case<int>(wave, block, 2, kXor, arg, width);
      }
      for (int op : {kIdx, kUp, kDown, kXor}) {
        check_case<float>(wave, block, 1, op, 3, 16);
        check_case<unsigned>(wave, block, 1, op, 5, 8);
      }
      check_case<float>(wave, block, 1, kIdxDefaultWidth, static_cast<int>(wave) + 2, 0);
      check_case<int>(wave, block, 1, kDownDefaultWidth, 7, 0);
    }
    for (int width : {0, 3, 24, static_cast<int>(2 * wave)}) check_invalid_width(wave, width);
  }
  return rf_test_done();
}

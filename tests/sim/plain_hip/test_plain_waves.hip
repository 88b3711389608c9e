/* Plain HIP's wave functions on the simulator (sim/sim_plain_hip.h, sync_ops.cpp "masks"):
 * the _sync shuffles give what the mask-less ones give, for 2-, 4- and 8-byte values; votes
 * and __activemask; and the mask rule: a lane missing from its own mask, lanes naming each
 * other with different masks, or a read from a lane outside the mask is a divergent wave
 * operation naming the lane, the mask and the line, while a full mask (32-bit on a wave of 32,
 * 64-bit on either) and CUB-style disjoint masks of logical warps pass. Also the atomics beyond
 * port.h's subset. */
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <stdint.h>
#include "../sim_test_util.h"

/* Each lane's values after a butterfly sum through each _sync form and type. */
__global__ void sync_forms(float *f, double *d, long long *ll, float *h, unsigned long long mask) {
  const unsigned t = threadIdx.x;
  float vf = static_cast<float>(t);
  double vd = static_cast<double>(t) + 0.25;
  long long vl = (1ll << 40) + t;
  __half vh = __float2half(static_cast<float>(t % 8));
  for (int o = warpSize / 2; o > 0; o /= 2) {
    vf += __shfl_xor_sync(mask, vf, o);
    vd += __shfl_down_sync(mask, vd, o);
    vl += __shfl_up_sync(mask, vl, o);
    vh = __hadd(vh, __shfl_sync(mask, vh, (t + o) % warpSize));
  }
  f[t] = vf;
  d[t] = vd;
  ll[t] = vl;
  h[t] = __half2float(vh);
}

__global__ void votes(unsigned long long *out) {
  const unsigned t = threadIdx.x;
  const unsigned long long b = __ballot(t % 3 == 0);
  const unsigned long long bs = __ballot_sync(0xffffffffffffffffull, t % 3 == 0);
  const int any = __any(t == 5), all = __all(t < 1000), none = __any_sync(~0ull, 0);
  const int all_sync = __all_sync(~0ull, t != 7);
  const unsigned long long active = __activemask();
  __syncwarp();
  if (t % warpSize == 0) {
    unsigned long long *o = out + (t / warpSize) * 8;
    o[0] = b;
    o[1] = bs;
    o[2] = any;
    o[3] = all;
    o[4] = none;
    o[5] = all_sync;
    o[6] = active;
    o[7] = __lane_id();
  }
}

/* The mask cases; line numbers named in the messages. */
enum { kLineHalfMask = __LINE__ + 2 };
__global__ void half_mask(float *out) {
  float v = __shfl_xor_sync(0xffffu, static_cast<float>(threadIdx.x), 1);
  out[threadIdx.x] = v;
}
__global__ void full32(float *out) {
  out[threadIdx.x] = __shfl_down_sync(0xffffffffu, static_cast<float>(threadIdx.x), 1);
}
__global__ void full64(float *out) {
  out[threadIdx.x] = __shfl_down_sync(0xffffffffffffffffull, static_cast<float>(threadIdx.x), 1);
}
/* CUB's logical warps of 16 lanes: each group's own mask, width 16 keeps reads inside it;
 * without the width the upper lanes of the first group read the second group's. */
__global__ void logical_warps(float *out, int width) {
  const unsigned lane = threadIdx.x % 32, group = lane / 16;
  const unsigned long long m = 0xffffull << (16 * group + 32 * ((threadIdx.x % warpSize) / 32));
  out[threadIdx.x] = __shfl_down_sync(m, static_cast<float>(threadIdx.x), 8, width);
}
enum { kLineMixed = __LINE__ + 4 };
/* Lane 3 calls with another mask than the others. */
__global__ void mixed(float *out) {
  const unsigned long long m = threadIdx.x == 3 ? 0x7fffffffull : 0xffffffffull;
  out[threadIdx.x] = __shfl_xor_sync(m, 1.0f, 1);
}

/* Atomics beyond port.h's: each thread adds its part; thread 0 reads the totals after. */
__global__ void more_atomics(unsigned *u, float *f, double *d, unsigned long long *ull, int *i) {
  const unsigned t = threadIdx.x;
  atomicInc(&u[0], 9u);                                   // counts 0..9 and wraps
  atomicDec(&u[1], 100u);                                 // from 5 down, then wraps to 100
  atomicMax(&f[0], t == 17 ? 3.5f : -1.0f);
  atomicMin(&f[1], t == 9 ? -2.25f : 0.0f);
  atomicAdd(&d[0], 0.5);
  atomicSub(&i[0], 2);
  atomicOr(&u[2], 1u << (t % 32));
  atomicAnd(&u[3], ~(1u << (t % 32)));
  atomicXor(&u[4], 1u);
  atomicMin(&i[1], -static_cast<int>(t));
  atomicExch(&ull[1], 42ull);
  /* A double max through atomicCAS on its bits, the loop starting from a guess (the start
   * value) rather than a plain load of the word other threads update atomically: that load
   * would be a data race, reported as one in the ThreadSanitizer build. */
  unsigned long long old = static_cast<unsigned long long>(__double_as_longlong(-1.0));
  const double mine = static_cast<double>(t) * 0.5;
  const unsigned long long mine_bits = static_cast<unsigned long long>(__double_as_longlong(mine));
  while (__longlong_as_double(static_cast<long long>(old)) < mine) {
    const unsigned long long prev = atomicCAS(&ull[0], old, mine_bits);
    if (prev == old) break;
    old = prev;
  }
}

static int launch_status(int wave, void (*launch)(float *), unsigned threads, char *msg,
                         size_t len, std::vector<float> *got = nullptr) {
  float *out = dev_alloc<float>(threads);
  rf_sim_configure(RF_SIM_SCHED_RANDOM, 3, static_cast<unsigned>(wave));
  launch(out);
  (void)hipGetLastError();
  int st = rf_sim_take_status(msg, len);
  if (got) *got = host_from(out, threads);
  hipFree(out);
  return st;
}

static void test_forms(unsigned wave) {
  const unsigned n = 2 * wave;
  float *f = dev_alloc<float>(n), *h = dev_alloc<float>(n);
  double *d = dev_alloc<double>(n);
  long long *l = dev_alloc<long long>(n);
  rf_sim_configure(RF_SIM_SCHED_WAVE_SKEW, 1, wave);
  hipLaunchKernelGGL(sync_forms, 1, n, 0, 0, f, d, l, h, ~0ull);
  char msg[512] = "";
  CHECK_MSG(rf_sim_take_status(msg, sizeof msg) == RF_SIM_OK, "wave %u: %s", wave, msg);
  std::vector<float> hf = host_from(f, n), hh = host_from(h, n);
  std::vector<double> hd = host_from(d, n);
  std::vector<long long> hl = host_from(l, n);
  // The same butterflies on the host (HIP's definitions: out-of-segment reads give the own
  // value).
  for (unsigned w = 0; w < 2; w++) {
    std::vector<float> vf(wave), vh(wave);
    std::vector<double> vd(wave);
    std::vector<long long> vl(wave);
    for (unsigned l2 = 0; l2 < wave; l2++) {
      const unsigned t = w * wave + l2;
      vf[l2] = static_cast<float>(t);
      vd[l2] = t + 0.25;
      vl[l2] = (1ll << 40) + t;
      vh[l2] = static_cast<float>(t % 8);
    }
    for (unsigned o = wave / 2; o > 0; o /= 2) {
      std::vector<float> nf(vf), nh(vh);
      std::vector<double> nd(vd);
      std::vector<long long> nl(vl);
      for (unsigned l2 = 0; l2 < wave; l2++) {
        nf[l2] = vf[l2] + vf[l2 ^ o];
        nd[l2] = vd[l2] + (l2 + o < wave ? vd[l2 + o] : vd[l2]);
        nl[l2] = vl[l2] + (l2 >= o ? vl[l2 - o] : vl[l2]);
        nh[l2] = static_cast<float>(static_cast<_Float16>(vh[l2] + vh[(w * wave + l2 + o) % wave]));
      }
      vf = nf, vd = nd, vl = nl, vh = nh;
    }
    for (unsigned l2 = 0; l2 < wave; l2++) {
      const unsigned t = w * wave + l2;
      CHECK_MSG(hf[t] == vf[l2] && hd[t] == vd[l2] && hl[t] == vl[l2] && hh[t] == vh[l2],
                "wave %u thread %u: %g %g %lld %g, want %g %g %lld %g", wave, t, hf[t], hd[t],
                hl[t], hh[t], vf[l2], vd[l2], vl[l2], vh[l2]);
    }
  }
  hipFree(f);
  hipFree(h);
  hipFree(d);
  hipFree(l);
}

static void test_votes(unsigned wave) {
  const unsigned n = 2 * wave;
  unsigned long long *out = dev_alloc<unsigned long long>(16);
  rf_sim_configure(RF_SIM_SCHED_REVERSE, 0, wave);
  hipLaunchKernelGGL(votes, 1, n, 0, 0, out);
  char msg[512] = "";
  CHECK_MSG(rf_sim_take_status(msg, sizeof msg) == RF_SIM_OK, "wave %u: %s", wave, msg);
  std::vector<unsigned long long> o = host_from(out, 16);
  for (unsigned w = 0; w < 2; w++) {
    unsigned long long want = 0;
    for (unsigned l2 = 0; l2 < wave; l2++)
      if ((w * wave + l2) % 3 == 0) want |= 1ull << l2;
    const unsigned long long all = wave == 64 ? ~0ull : 0xffffffffull;
    const unsigned long long *v = &o[w * 8];
    CHECK_MSG(v[0] == want && v[1] == want, "wave %u/%u: ballot %llx %llx, want %llx", w, wave,
              v[0], v[1], want);
    CHECK(v[2] == (w == 0 ? 1u : 0u));   // lane 5 of wave 0 only
    CHECK(v[3] == 1 && v[4] == 0);
    CHECK(v[5] == (w == 0 && wave > 7 ? 0u : 1u));
    CHECK_MSG(v[6] == all, "activemask %llx", v[6]);
    CHECK(v[7] == 0);
  }
  hipFree(out);
}

static void test_masks() {
  char msg[512] = "", want[128];
  std::vector<float> got;
  // A 16-lane mask while all 32 lanes take part: lane 16 is named first, the line is given.
  int st = launch_status(32, [](float *o) { half_mask<<<1, 32>>>(o); }, 32, msg, sizeof msg);
  printf("%s\n", msg);
  CHECK(st == RF_SIM_DIVERGENT_BARRIER);
  snprintf(want, sizeof want, "test_plain_waves.hip:%d with mask 0x000000000000ffff", kLineHalfMask);
  CHECK_MSG(strstr(msg, want) && strstr(msg, "lane 16 (thread (16,0,0))") &&
                strstr(msg, "omits the lane itself"), "want %s in: %s", want, msg);
  // A CUDA-style 32-bit full mask: right on a wave of 32, a finding on a wave of 64.
  CHECK(launch_status(32, [](float *o) { full32<<<1, 64>>>(o); }, 64, msg, sizeof msg, &got) == RF_SIM_OK);
  CHECK(got[0] == 1.0f && got[31] == 31.0f && got[32] == 33.0f);
  st = launch_status(64, [](float *o) { full32<<<1, 64>>>(o); }, 64, msg, sizeof msg);
  printf("%s\n", msg);
  CHECK_MSG(st == RF_SIM_DIVERGENT_BARRIER && strstr(msg, "lane 32") &&
                strstr(msg, "a 32-bit mask names lanes 0..31 only"), "%s", msg);
  // HIP's 64-bit full mask: right on both.
  CHECK(launch_status(32, [](float *o) { full64<<<1, 64>>>(o); }, 64, msg, sizeof msg) == RF_SIM_OK);
  CHECK(launch_status(64, [](float *o) { full64<<<1, 64>>>(o); }, 64, msg, sizeof msg) == RF_SIM_OK);
  // Logical warps: disjoint masks are right with their width, a read across them is not.
  for (int wave : {32, 64}) {
    st = launch_status(wave, [](float *o) { logical_warps<<<1, 64>>>(o, 16); }, 64, msg, sizeof msg, &got);
    CHECK_MSG(st == RF_SIM_OK, "wave %d: %s", wave, msg);
    CHECK(got[0] == 8.0f && got[8] == 8.0f && got[16] == 24.0f);
    st = launch_status(wave, [](float *o) { logical_warps<<<1, 64>>>(o, 32); }, 64, msg, sizeof msg);
    CHECK_MSG(st == RF_SIM_DIVERGENT_BARRIER && strstr(msg, "lane 8 ") &&
                  strstr(msg, "reads lane 16, which the mask does not name"), "wave %d: %s", wave, msg);
  }
  // Different masks among lanes that name each other.
  st = launch_status(32, [](float *o) { mixed<<<1, 32>>>(o); }, 32, msg, sizeof msg);
  printf("%s\n", msg);
  snprintf(want, sizeof want, "test_plain_waves.hip:%d", kLineMixed);
  CHECK_MSG(st == RF_SIM_DIVERGENT_BARRIER && strstr(msg, want) &&
                strstr(msg, "every lane a mask names must call with the same mask"), "%s", msg);
  // The simulator goes on after each finding.
  CHECK(launch_status(32, [](float *o) { full64<<<1, 32>>>(o); }, 32, msg, sizeof msg) == RF_SIM_OK);
}

static void test_atomics() {
  unsigned *u = dev_alloc<unsigned>(5);
  float *f = dev_alloc<float>(2);
  double *d = dev_alloc<double>(1);
  unsigned long long *ull = dev_alloc<unsigned long long>(2);
  int *i = dev_alloc<int>(2);
  const unsigned uh[5] = {0, 5, 0, 0xffffffffu, 0};
  const float fh[2] = {-INFINITY, INFINITY};
  const double dh = 0.0;
  const unsigned long long lh[2] = {static_cast<unsigned long long>(__double_as_longlong(-1.0)), 0};
  const int ih[2] = {100, 0};
  hipMemcpy(u, uh, sizeof uh, hipMemcpyHostToDevice);
  hipMemcpy(f, fh, sizeof fh, hipMemcpyHostToDevice);
  hipMemcpy(d, &dh, sizeof dh, hipMemcpyHostToDevice);
  hipMemcpy(ull, lh, sizeof lh, hipMemcpyHostToDevice);
  hipMemcpy(i, ih, sizeof ih, hipMemcpyHostToDevice);
  rf_sim_configure(RF_SIM_SCHED_RANDOM, 2, 32);
  hipLaunchKernelGGL(more_atomics, 2, 32, 0, 0, u, f, d, ull, i);
  CHECK(rf_sim_take_status(nullptr, 0) == RF_SIM_OK);
  std::vector<unsigned> hu = host_from(u, 5);
  std::vector<float> hf = host_from(f, 2);
  std::vector<unsigned long long> hl = host_from(ull, 2);
  std::vector<int> hi = host_from(i, 2);
  // 64 increments modulo 10; 64 decrements from 5: 5 down to 0 (5), then 100 ... (59 more).
  CHECK_MSG(hu[0] == 64 % 10, "atomicInc: %u", hu[0]);
  CHECK_MSG(hu[1] == 100 - (64 - 6), "atomicDec: %u", hu[1]);
  CHECK(hu[2] == 0xffffffffu && hu[3] == 0 && hu[4] == 0);
  CHECK(hf[0] == 3.5f && hf[1] == -2.25f);
  CHECK(host_from(d, 1)[0] == 32.0);
  CHECK(hi[0] == 100 - 128 && hi[1] == -31);
  CHECK(__longlong_as_double(static_cast<long long>(hl[0])) == 15.5 && hl[1] == 42);
  hipFree(u);
  hipFree(f);
  hipFree(d);
  hipFree(ull);
  hipFree(i);
}

int main() {
  for (unsigned wave : {32u, 64u}) {
    test_forms(wave);
    test_votes(wave);
  }
  test_masks();
  test_atomics();
  return rf_test_done();
}

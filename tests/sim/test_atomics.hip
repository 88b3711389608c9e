/* Atomics from every thread of several blocks: totals are exact, the old values returned
 * form a permutation (each thread got a distinct ticket), max/CAS/exch behave as in HIP. */
#include <algorithm>
#include "sim_test_util.h"

struct Counters {
  int i_sum;
  unsigned u_sum;
  unsigned long long ull_sum;
  float f_sum;
  int i_max;
  unsigned u_max;
  unsigned long long ull_max;
  int cas_count;
  int exch_i;
  unsigned exch_u;
  float exch_f;
};

__global__ void atomics_kernel(Counters *c, int *tickets, int *cas_seen) {
  unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  int v = static_cast<int>(g % 97) - 48;
  tickets[g] = atomicAdd(&c->i_sum, 1);
  atomicAdd(&c->u_sum, g);
  atomicAdd(&c->ull_sum, 1ull << 33);
  atomicAdd(&c->f_sum, static_cast<float>(v));  // small integers: every order is exact
  atomicMax(&c->i_max, v * 3);
  atomicMax(&c->u_max, g * 7u % 1000u);
  atomicMax(&c->ull_max, static_cast<unsigned long long>(g) << 40);
  // A CAS loop increment: the value each thread swapped from is distinct.
  int old = atomicAdd(&c->cas_count, 0), seen;  // an atomic read: no plain access races
  while ((seen = atomicCAS(&c->cas_count, old, old + 1)) != old) old = seen;
  cas_seen[g] = old;
  atomicExch(&c->exch_i, static_cast<int>(g));
  atomicExch(&c->exch_u, g + 1);
  atomicExch(&c->exch_f, static_cast<float>(g) + 0.5f);
  __syncthreads();
}

/* atomicCAS returns the old value whether or not it swapped. */
__global__ void cas_semantics(int *p, int *ret) {
  ret[0] = atomicCAS(p, 5, 9);   // *p is 7: no swap, returns 7
  ret[1] = atomicCAS(p, 7, 11);  // swaps, returns 7
  ret[2] = *p;                   // 11
}

int main() {
  const unsigned blocks = 5, block = 96, n = blocks * block;
  for (int s = 0; s < 4; s++) {
    Counters init{};
    init.i_max = -1000000;
    Counters *c = dev_from(std::vector<Counters>{init});
    int *tickets = dev_alloc<int>(n), *cas_seen = dev_alloc<int>(n);
    rf_sim_configure(s, 11, 32);
    hipLaunchKernelGGL(atomics_kernel, dim3(blocks), dim3(block), 0, 0, c, tickets, cas_seen);
    CHECK(hipGetLastError() == hipSuccess);
    char msg[512];
    CHECK_MSG(rf_sim_take_status(msg, sizeof msg) == RF_SIM_OK, "%s", msg);
    Counters got = host_from(c, 1)[0];
    long long want_f = 0;
    int want_imax = -1000000;
    unsigned want_umax = 0;
    for (unsigned g = 0; g < n; g++) {
      int v = static_cast<int>(g % 97) - 48;
      want_f += v;
      want_imax = std::max(want_imax, v * 3);
      want_umax = std::max(want_umax, g * 7u % 1000u);
    }
    CHECK(got.i_sum == static_cast<int>(n));
    CHECK(got.u_sum == n * (n - 1) / 2);
    CHECK(got.ull_sum == static_cast<unsigned long long>(n) << 33);
    CHECK(got.f_sum == static_cast<float>(want_f));
    CHECK(got.i_max == want_imax);
    CHECK(got.u_max == want_umax);
    CHECK(got.ull_max == static_cast<unsigned long long>(n - 1) << 40);
    CHECK(got.cas_count == static_cast<int>(n));
    CHECK(got.exch_i >= 0 && got.exch_i < static_cast<int>(n));
    CHECK(got.exch_u == static_cast<unsigned>(got.exch_i) + 1);
    CHECK(got.exch_f == static_cast<float>(got.exch_i) + 0.5f);
    for (int *p : {tickets, cas_seen}) {
      std::vector<int> v = host_from(p, n);
      std::sort(v.begin(), v.end());
      bool permutation = true;
      for (unsigned k = 0; k < n; k++) permutation = permutation && v[k] == static_cast<int>(k);
      CHECK_MSG(permutation, "schedule %s: returned old values are not 0..n-1", kScheduleNames[s]);
    }
    hipFree(c);
    hipFree(tickets);
    hipFree(cas_seen);
  }
  int *p = dev_from(std::vector<int>{7});
  int *ret = dev_alloc<int>(3);
  hipLaunchKernelGGL(cas_semantics, dim3(1), dim3(1), 0, 0, p, ret);
  std::vector<int> r = host_from(ret, 3);
  CHECK(r[0] == 7 && r[1] == 7 && r[2] == 11);
  CHECK(rf_sim_take_status(nullptr, 0) == RF_SIM_OK);
  hipFree(p);
  hipFree(ret);
  return rf_test_done();
}

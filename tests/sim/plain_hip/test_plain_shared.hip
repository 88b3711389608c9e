/* Plain HIP's `__shared__` on the simulator is RF_SHARED's per-block LDS (docs/SIMULATOR.md,
 * "Plain HIP"): compiled through the plain-HIP build step (sim/plain_hip/rf_sim_hipcc.py).
 * Each check holds a `__shared__` array beside an RF_SHARED twin of the same type and size:
 * both poisoned at every block's start, placed alike (plain build: each ends at its guard),
 * an access one past the end `oob` naming the declaration's own line (plain and ASan builds);
 * `extern __shared__` is the launch's dynamic LDS; a namespace-scope declaration is one
 * placement per block for all its uses; template instances, declarators and `static` each get
 * what a GPU gives; the <<<...>>> launch deduces a kernel template's arguments. */
#include <hip/hip_runtime.h>
#include <stdint.h>
#include "../sim_test_util.h"

static const unsigned kPoison = 0x7FDADBADu;
/* Plain build: a declaration's slot is 128 KiB, its data ends at 64 KiB (sim/lds.cpp). */
static const uintptr_t kSlot = 128u * 1024u;

/* Thread t reads both arrays before any write (poison), then writes a block tag, so the next
 * block would see it if its LDS were not fresh; thread 0 records where each array lies. */
__global__ void poison_and_place(unsigned *seen, uintptr_t *where) {
  __shared__ unsigned plain[256];
  RF_SHARED(unsigned, twin, 256);
  const unsigned t = threadIdx.x, b = blockIdx.x;
  seen[(b * blockDim.x + t) * 2] = plain[t];
  seen[(b * blockDim.x + t) * 2 + 1] = twin[t];
  __syncthreads();
  plain[t] = twin[t] = b + 1;
  if (t == 0) {
    where[b * 4 + 0] = reinterpret_cast<uintptr_t>(&plain[0]) % kSlot;
    where[b * 4 + 1] = reinterpret_cast<uintptr_t>(&twin[0]) % kSlot;
    where[b * 4 + 2] = sizeof(plain);
    where[b * 4 + 3] = reinterpret_cast<uintptr_t>(&plain[0]) % alignof(unsigned);
  }
}

/* One past the end: the plain array in one launch, its twin in another (one status each). */
enum { kLinePlainDecl = __LINE__ + 2 };
__global__ void overrun_plain(unsigned *out) {
  __shared__ unsigned plain[64];
  plain[threadIdx.x] = threadIdx.x;   // thread 64 writes plain[64]
  __syncthreads();
  out[threadIdx.x] = plain[threadIdx.x % 64];
}
enum { kLineTwinDecl = __LINE__ + 2 };
__global__ void overrun_twin(unsigned *out) {
  RF_SHARED(unsigned, twin, 64);
  twin[threadIdx.x] = threadIdx.x;   // thread 64 writes twin[64]
  __syncthreads();
  out[threadIdx.x] = twin[threadIdx.x % 64];
}

/* The dynamic LDS: every extern __shared__ array starts where RF_DYN_SHARED does. */
namespace plain_ns {
extern __shared__ double dyn_ns[];
}
__global__ void dynamic_alias(uintptr_t *out) {
  extern __shared__ float dyn_a[];
  extern __shared__ int dyn_b[];
  RF_DYN_SHARED(char, dyn_twin);
  if (threadIdx.x == 0) {
    out[0] = reinterpret_cast<uintptr_t>(dyn_a);
    out[1] = reinterpret_cast<uintptr_t>(dyn_b);
    out[2] = reinterpret_cast<uintptr_t>(plain_ns::dyn_ns);
    out[3] = reinterpret_cast<uintptr_t>(dyn_twin);
  }
  dyn_b[threadIdx.x] = static_cast<int>(threadIdx.x);
  __syncthreads();
  if (threadIdx.x == 1) out[4] = static_cast<uintptr_t>(dyn_a[0] == 0.0f && dyn_b[0] == 0);
}

/* A namespace-scope declaration: one placement per block for every use, poisoned per block;
 * a template's instances and a group's declarators get their own arrays. */
__shared__ unsigned ns_count;
__device__ void bump() { atomicAdd(&ns_count, 1u); }
template <typename T>
__device__ uintptr_t scratch_of() {
  __shared__ T scratch[8];
  return reinterpret_cast<uintptr_t>(scratch);
}
__global__ void scopes(uintptr_t *out) {
  __shared__ float p[4], q[4];
  const unsigned t = threadIdx.x;
  const unsigned before = ns_count;   // poison in every block, read before anyone writes
  __syncthreads();
  if (t == 0) ns_count = 0;
  __syncthreads();
  bump();
  __syncthreads();
  uintptr_t *o = out + blockIdx.x * 8;
  if (t == 0) {
    o[0] = before;
    o[1] = ns_count;
    o[2] = scratch_of<float>();
    o[3] = scratch_of<double>();
    o[4] = reinterpret_cast<uintptr_t>(p);
    o[5] = reinterpret_cast<uintptr_t>(q);
  }
  /* A static declaration in a loop: one array for every thread and iteration. */
  uintptr_t first = 0;
  bool same = true;
  for (int k = 0; k < 3; k++) {
    static __shared__ int in_loop[2];
    const uintptr_t at = reinterpret_cast<uintptr_t>(in_loop);
    if (k == 0) first = at;
    same = same && at == first;
  }
  if (t == 1) o[6] = same;
  if (t == 2) o[7] = first;
}

/* A kernel template launched with <<<...>>> and deduced arguments (a pointer converts to its
 * parameter's type on each GPU thread, as hipcc's launch converts it once). */
template <typename T>
__global__ void fill(T *dst, T value, unsigned n) {
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = value + static_cast<T>(i);
}

static void test_poison_and_place(int schedule) {
  const unsigned blocks = 3, threads = 256;
  unsigned *seen = dev_alloc<unsigned>(2 * blocks * threads);
  uintptr_t *where = dev_alloc<uintptr_t>(4 * blocks);
  rf_sim_configure(schedule, 5, 32);
  poison_and_place<<<blocks, threads>>>(seen, where);
  char msg[512] = "";
  CHECK(hipGetLastError() == hipSuccess);
  CHECK_MSG(rf_sim_take_status(msg, sizeof msg) == RF_SIM_OK, "%s", msg);
  std::vector<unsigned> got = host_from(seen, 2 * blocks * threads);
  size_t plain_poisoned = 0, twin_poisoned = 0;
  for (size_t i = 0; i < got.size(); i += 2) {
    plain_poisoned += got[i] == kPoison;
    twin_poisoned += got[i + 1] == kPoison;
  }
  CHECK_MSG(plain_poisoned == blocks * threads && twin_poisoned == blocks * threads,
            "%s: poisoned reads: __shared__ %zu, RF_SHARED %zu of %u", kScheduleNames[schedule],
            plain_poisoned, twin_poisoned, blocks * threads);
  std::vector<uintptr_t> w = host_from(where, 4 * blocks);
  for (unsigned b = 0; b < blocks; b++) {
    CHECK(w[b * 4 + 2] == 256 * sizeof(unsigned));
    CHECK(w[b * 4 + 3] == 0);
#if !(defined(RF_ASAN) && RF_ASAN) && !(defined(RF_TSAN) && RF_TSAN)
    // Placed alike: the same offset in their slots (each ending at its slot's guard, which
    // the overrun below shows); the slots start 128 KiB apart from one mapping.
    CHECK_MSG(w[b * 4 + 0] == w[b * 4 + 1], "block %u: offsets in the slot %zu and %zu", b,
              (size_t)w[b * 4], (size_t)w[b * 4 + 1]);
#endif
  }
  hipFree(seen);
  hipFree(where);
}

/* The status of one overrun launch, with the kernel's own line in it. */
static int overrun_status(void (*launch)(unsigned *), char *msg, size_t len) {
  unsigned *out = dev_alloc<unsigned>(65);
  rf_sim_configure(RF_SIM_SCHED_IN_ORDER, 0, 32);
  launch(out);
  (void)hipGetLastError();
  int st = rf_sim_take_status(msg, len);
  hipFree(out);
  return st;
}

static void test_overrun() {
#if !(defined(RF_TSAN) && RF_TSAN)
  char plain[512] = "", twin[512] = "", want[160];
  const int sp = overrun_status([](unsigned *o) { overrun_plain<<<1, 65>>>(o); }, plain, sizeof plain);
  const int st = overrun_status([](unsigned *o) { hipLaunchKernelGGL(overrun_twin, 1, 65, 0, 0, o); },
                                twin, sizeof twin);
  printf("__shared__: %s\nRF_SHARED: %s\n", plain, twin);
  CHECK(sp == RF_SIM_OOB && st == RF_SIM_OOB);
#if defined(RF_ASAN) && RF_ASAN
  // AddressSanitizer names the access's line (the write, one line after the declaration).
  snprintf(want, sizeof want, "test_plain_shared.hip:%d", kLinePlainDecl + 1);
  CHECK_MSG(strstr(plain, want) != nullptr, "want %s in: %s", want, plain);
  snprintf(want, sizeof want, "test_plain_shared.hip:%d", kLineTwinDecl + 1);
  CHECK_MSG(strstr(twin, want) != nullptr, "want %s in: %s", want, twin);
#else
  // The guard after the declaration names it: same words, each its own line.
  snprintf(want, sizeof want, "LDS declaration at tests/sim/plain_hip/test_plain_shared.hip:%d (256 bytes)",
           kLinePlainDecl);
  CHECK_MSG(strstr(plain, want) != nullptr, "want %s in: %s", want, plain);
  snprintf(want, sizeof want, "LDS declaration at tests/sim/plain_hip/test_plain_shared.hip:%d (256 bytes)",
           kLineTwinDecl);
  CHECK_MSG(strstr(twin, want) != nullptr, "want %s in: %s", want, twin);
  CHECK(strstr(plain, "LDS write at byte 0 past the end") && strstr(twin, "LDS write at byte 0 past the end"));
#endif
#endif
}

static void test_dynamic_and_scopes() {
  uintptr_t *out = dev_alloc<uintptr_t>(8 * 2);
  rf_sim_configure(RF_SIM_SCHED_RANDOM, 7, 32);
  dynamic_alias<<<dim3(1), dim3(32), 32 * sizeof(double)>>>(out);
  char msg[512] = "";
  CHECK(hipGetLastError() == hipSuccess);
  CHECK_MSG(rf_sim_take_status(msg, sizeof msg) == RF_SIM_OK, "%s", msg);
  std::vector<uintptr_t> d = host_from(out, 5);
  CHECK(d[0] == d[1] && d[1] == d[2] && d[2] == d[3] && d[0] % 16 == 0);
  CHECK(d[4] == 1);   // dyn_a and dyn_b alias: thread 0 wrote 0 through dyn_b

  for (int s = 0; s < 4; s++) {
    rf_sim_configure(s, 11, 32);
    scopes<<<2, 64>>>(out);
    CHECK(hipGetLastError() == hipSuccess);
    CHECK_MSG(rf_sim_take_status(msg, sizeof msg) == RF_SIM_OK, "%s: %s", kScheduleNames[s], msg);
    std::vector<uintptr_t> o = host_from(out, 16);
    for (unsigned b = 0; b < 2; b++) {
      const uintptr_t *v = &o[b * 8];
      CHECK_MSG(v[0] == kPoison, "block %u: ns_count read %zu before any write", b, (size_t)v[0]);
      CHECK_MSG(v[1] == 64, "block %u: %zu increments of the namespace-scope counter", b, (size_t)v[1]);
      CHECK(v[2] != v[3]);   // scratch_of<float> and scratch_of<double>: two arrays
      CHECK(v[4] != v[5]);   // p and q
      CHECK(v[6] == 1);      // the loop's static declaration: one array
    }
  }
  hipFree(out);
}

/* Text that only looks like a launch stays as it is (the step rewrites code, not literals). */
static const char *const kNotALaunch = "fill<<<1, 2>>>(x)";
static const char kNotALaunchChar = '<';

static void test_chevron() {
  CHECK(strcmp(kNotALaunch, "fill<<<1, 2>>>(x)") == 0 && kNotALaunchChar == '<');
  const unsigned n = 100;
  float *f = dev_alloc<float>(n);
  long long *l = dev_alloc<long long>(n);
  rf_sim_configure(RF_SIM_SCHED_IN_ORDER, 0, 32);
  fill<<<(n + 63) / 64, 64>>>(f, 0.5f, n);
  fill<<<dim3(2), dim3(64), 0, nullptr>>>(l, 7ll, n);
  CHECK(hipGetLastError() == hipSuccess);
  CHECK(rf_sim_take_status(nullptr, 0) == RF_SIM_OK);
  std::vector<float> hf = host_from(f, n);
  std::vector<long long> hl = host_from(l, n);
  bool ok = true;
  for (unsigned i = 0; i < n; i++) ok = ok && hf[i] == 0.5f + i && hl[i] == 7 + (long long)i;
  CHECK(ok);
  // A bad configuration is the launch's error, as hipcc's launch gives it.
  fill<<<1, 2048>>>(f, 1.0f, n);
  CHECK(hipGetLastError() == hipErrorInvalidConfiguration);
  CHECK(rf_sim_take_status(nullptr, 0) == RF_SIM_LAUNCH_ERROR);
  hipFree(f);
  hipFree(l);
}

int main() {
  for (int s = 0; s < 4; s++) test_poison_and_place(s);
  test_overrun();
  test_dynamic_and_scopes();
  test_chevron();
  return rf_test_done();
}

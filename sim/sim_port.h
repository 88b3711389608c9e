/* port.h's HIP subset for the CPU simulator (included by kernels/port.h when RF_SIM is
 * defined). The kernel files are compiled unmodified as C++17: every GPU thread runs as a
 * fiber; __syncthreads is a block barrier and the __shfl family are wave collectives, both
 * scheduling points; LDS declarations (RF_SHARED, RF_DYN_SHARED) get a per-block arena
 * poisoned with NaN. See docs/SIMULATOR.md. */
#ifndef RF_SIM_PORT_H
#define RF_SIM_PORT_H
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <atomic>
#include <tuple>
#include <type_traits>
#include <utility>
#include "sim_control.h"
#include "sim_hip_runtime.h"

/* ---- qualifiers: plain C++ functions on the CPU (__restrict__ is a compiler keyword) ---- */
#define __global__
/* A register budget for the GPU compilers; nothing to budget on fibers. */
#define __launch_bounds__(...)
#define __device__
#define __host__
#define __forceinline__ inline

/* ---- vector and index types ---------------------------------------------------------- */
struct dim3 {
  uint32_t x, y, z;
  constexpr dim3(uint32_t x_ = 1, uint32_t y_ = 1, uint32_t z_ = 1) : x(x_), y(y_), z(z_) {}
};
struct rf_sim_uint3 {
  uint32_t x, y, z;
};
/* The vector types have the GPU's alignment, and copy member by member: a copy of a whole
 * struct would be a memcpy, which -fsanitize=alignment does not check, while a member access
 * through a misaligned float4 is reported (sim/align_report.cpp) as the GPU's fault it is. */
struct alignas(16) float4 {
  float x, y, z, w;
  float4() = default;
  constexpr float4(float x_, float y_, float z_, float w_) : x(x_), y(y_), z(z_), w(w_) {}
  constexpr float4(const float4 &o) : x(o.x), y(o.y), z(o.z), w(o.w) {}
  float4 &operator=(const float4 &o) {
    x = o.x;
    y = o.y;
    z = o.z;
    w = o.w;
    return *this;
  }
};
inline float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }
struct alignas(8) float2 {
  float x, y;
  float2() = default;
  constexpr float2(float x_, float y_) : x(x_), y(y_) {}
  constexpr float2(const float2 &o) : x(o.x), y(o.y) {}
  float2 &operator=(const float2 &o) {
    x = o.x;
    y = o.y;
    return *this;
  }
};
inline float2 make_float2(float x, float y) { return float2{x, y}; }

namespace rf_sim {
/* What threadIdx/blockIdx read: the running fiber's own indices. */
struct ThreadView {
  rf_sim_uint3 thread_idx, block_idx;
};
/* Launch-wide constants, set before a launch starts. */
struct LaunchView {
  dim3 block_dim, grid_dim;
};
/* The running fiber's view, per host thread (parallel blocks run on several). Accessed with
 * relaxed atomics: written by the scheduler, read by fibers; under ThreadSanitizer it must
 * not create happens-before edges between GPU threads. Initial-exec: one %fs-relative load,
 * also from a plugin (the variable lives in the executable's static TLS). */
extern __thread const ThreadView *current_view __attribute__((tls_model("initial-exec")));
extern LaunchView launch_view;
extern int wave_size;
inline const ThreadView &self() { return *__atomic_load_n(&current_view, __ATOMIC_RELAXED); }
}  // namespace rf_sim

#define threadIdx (::rf_sim::self().thread_idx)
#define blockIdx (::rf_sim::self().block_idx)
#define blockDim (static_cast<const dim3 &>(::rf_sim::launch_view.block_dim))
#define gridDim (static_cast<const dim3 &>(::rf_sim::launch_view.grid_dim))
/* A run-time value (32 or 64, per rf_sim_configure), like warpSize in current ROCm. */
inline const int &warpSize = ::rf_sim::wave_size;

/* ---- math ---------------------------------------------------------------------------- */
/* Fast intrinsics as the simulated target computes them (rf_sim_target; the error models
 * are in oracle/bounds.c and docs/SIMULATOR.md). Both targets evaluate exp and log through
 * base 2 with a float log2(e) / ln(2): gfx1201's ocml native functions (v_exp_f32(x * log2e),
 * v_log_f32(x) * ln2, x * v_rcp_f32(y)) and NVIDIA's (ex2.approx.ftz(x * log2e),
 * lg2.approx.ftz(x) * ln2, x * rcp.approx(y)). The hardware's own exp2 / log2 / rcp are
 * modelled by glibc's (within half an ulp or so, inside both targets' documented 1-2 ulp),
 * so the simulator's error is the argument rounding the targets really have, and subnormal
 * results flush to zero as on both. */
namespace rf_sim {
constexpr float kLog2e = 0x1.715476p+0f;  // RN(log2 e)
constexpr float kLn2 = 0x1.62e430p-1f;    // RN(ln 2)
constexpr float kLog2_10 = 0x1.a934f0p+1f;  // RN(log2 10)
inline float flush(float r) { return fabsf(r) < 0x1p-126f ? copysignf(0.0f, r) : r; }
}  // namespace rf_sim
inline float __expf(float x) { return ::rf_sim::flush(exp2f(x * ::rf_sim::kLog2e)); }
inline float __exp10f(float x) { return ::rf_sim::flush(exp2f(x * ::rf_sim::kLog2_10)); }
inline float __log2f(float x) { return log2f(::rf_sim::flush(x)); }
inline float __logf(float x) { return log2f(::rf_sim::flush(x)) * ::rf_sim::kLn2; }
/* x * rcp(y). NVIDIA documents "for 2^126 < |y| < 2^128, __fdividef(x, y) delivers 0"
 * (CUDA guide, intrinsic functions): rcp.approx.ftz's subnormal result is flushed. gfx1201
 * runs HIP code with f32 denormals enabled by default, so its v_rcp_f32 is modelled keeping
 * the subnormal reciprocal (an assumption: not checked on the hardware). */
inline float __fdividef(float x, float y) {
  float r = 1.0f / y;
  if (rf_sim_target() == RF_SIM_TARGET_NVIDIA) r = ::rf_sim::flush(r);
  return x * r;
}
inline float __int_as_float(int v) {
  float f;
  memcpy(&f, &v, 4);
  return f;
}
inline int __float_as_int(float f) {
  int v;
  memcpy(&v, &f, 4);
  return v;
}
inline unsigned __float_as_uint(float f) {
  unsigned v;
  memcpy(&v, &f, 4);
  return v;
}
inline float __uint_as_float(unsigned v) {
  float f;
  memcpy(&f, &v, 4);
  return f;
}

/* ---- synchronisation ----------------------------------------------------------------- */
namespace rf_sim {
void syncthreads(const char *file, int line);
void threadfence();
/* SHFL_BALLOT (plain HIP's __ballot family, sim_plain_hip.h): every lane receives bits
 * 32*arg .. 32*arg+31 of the wave's ballot of the lanes' nonzero values. */
enum ShuffleKind { SHFL_IDX = 0, SHFL_UP = 1, SHFL_DOWN = 2, SHFL_XOR = 3, SHFL_BALLOT = 4 };
/* One lane's part of a wave collective: returns the 32 bits the lane receives. */
uint32_t wave_exchange(uint32_t bits, int kind, int arg, int width, const char *file, int line);

/* What a wave operation moves: a value of 2, 4 or 8 bytes copied bit for bit (float, int,
 * unsigned; and for plain HIP kernels, sim_plain_hip.h, also double, long long, __half ...). */
template <typename T>
struct is_shuffle_type
    : std::integral_constant<bool, std::is_trivially_copyable<T>::value &&
                                       (sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8)> {};
/* Any delta of a wave's size or more behaves alike (own value); keep it an int. */
inline int clamp_delta(unsigned d) { return d > 0x7fffffffu ? 0x7fffffff : static_cast<int>(d); }
/* Every lane's mask where the call has none (port.h's __shfl family): it names every lane. */
constexpr uint64_t kNoMask = ~uint64_t{0};
/* wave_exchange with the caller's `_sync` mask (sim_plain_hip.h): checked against the lanes
 * that take part when the collective completes (sync_ops.cpp, "Masks"). */
uint32_t wave_exchange_masked(uint32_t bits, int kind, int arg, int width, uint64_t mask,
                              const char *file, int line);
/* A value of 8 bytes is two collectives at the same call site, its low then its high word. */
template <typename T>
inline T shuffle_masked(T v, int kind, int arg, int width, uint64_t mask, const char *file,
                        int line) {
  static_assert(is_shuffle_type<T>::value, "wave operations take a value of 2, 4 or 8 bytes");
  uint32_t w[2] = {0, 0};
  memcpy(w, &v, sizeof(T));
  for (unsigned k = 0; k < (sizeof(T) + 3) / 4; k++)
    w[k] = mask == kNoMask ? wave_exchange(w[k], kind, arg, width, file, line)
                           : wave_exchange_masked(w[k], kind, arg, width, mask, file, line);
  memcpy(&v, w, sizeof(T));
  return v;
}
template <typename T>
inline T shuffle(T v, int kind, int arg, int width, const char *file, int line) {
  return shuffle_masked(v, kind, arg, width, kNoMask, file, line);
}
}  // namespace rf_sim

/* The call site of a barrier names it in divergent-barrier reports. */
#define __syncthreads() ::rf_sim::syncthreads(__FILE__, __LINE__)
#define __threadfence() ::rf_sim::threadfence()

/* Wave operations, HIP semantics; the caller's line comes in through __builtin_LINE. */
template <typename T>
inline T __shfl(T v, int src_lane, int width = warpSize, const char *file = __builtin_FILE(),
                int line = __builtin_LINE()) {
  return ::rf_sim::shuffle(v, ::rf_sim::SHFL_IDX, src_lane, width, file, line);
}
template <typename T>
inline T __shfl_up(T v, unsigned delta, int width = warpSize, const char *file = __builtin_FILE(),
                   int line = __builtin_LINE()) {
  return ::rf_sim::shuffle(v, ::rf_sim::SHFL_UP, ::rf_sim::clamp_delta(delta), width, file, line);
}
template <typename T>
inline T __shfl_down(T v, unsigned delta, int width = warpSize, const char *file = __builtin_FILE(),
                     int line = __builtin_LINE()) {
  return ::rf_sim::shuffle(v, ::rf_sim::SHFL_DOWN, ::rf_sim::clamp_delta(delta), width, file, line);
}
template <typename T>
inline T __shfl_xor(T v, int lane_mask, int width = warpSize, const char *file = __builtin_FILE(),
                    int line = __builtin_LINE()) {
  return ::rf_sim::shuffle(v, ::rf_sim::SHFL_XOR, lane_mask, width, file, line);
}

/* ---- atomics: __atomic builtins, relaxed like HIP's (ThreadSanitizer sees atomics) ----- */
namespace rf_sim {
void atomic_observed(); /* models __threadfence publication for the race detector */
/* Before every atomic: with parallel blocks, a block's first atomic on global memory waits
 * until every block before it in the launch's order has finished (docs/SIMULATOR.md,
 * "Parallel blocks"); otherwise nothing. */
void atomic_gate(const void *p);
template <typename T>
inline T atomic_rmw_cas(T *p, T (*op)(T, T), T v) {
  atomic_gate(p);
  T old = __atomic_load_n(p, __ATOMIC_RELAXED);
  while (
      !__atomic_compare_exchange_n(p, &old, op(old, v), true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
  atomic_observed();
  return old;
}
}  // namespace rf_sim

inline float atomicAdd(float *p, float v) {
  ::rf_sim::atomic_gate(p);
  uint32_t *u = reinterpret_cast<uint32_t *>(p);
  uint32_t old = __atomic_load_n(u, __ATOMIC_RELAXED);
  for (;;) {
    float f;
    memcpy(&f, &old, 4);
    f += v;
    uint32_t nu;
    memcpy(&nu, &f, 4);
    if (__atomic_compare_exchange_n(u, &old, nu, true, __ATOMIC_RELAXED, __ATOMIC_RELAXED)) break;
  }
  ::rf_sim::atomic_observed();
  float r;
  memcpy(&r, &old, 4);
  return r;
}
#define RF_SIM_ATOMIC_INT_OPS(T)                                                        \
  inline T atomicAdd(T *p, T v) {                                                       \
    ::rf_sim::atomic_gate(p);                                                           \
    T r = __atomic_fetch_add(p, v, __ATOMIC_RELAXED);                                   \
    ::rf_sim::atomic_observed();                                                        \
    return r;                                                                           \
  }                                                                                     \
  inline T atomicMax(T *p, T v) {                                                       \
    return ::rf_sim::atomic_rmw_cas<T>(                                                 \
        p, [](T a, T b) { return a > b ? a : b; }, v);                                  \
  }                                                                                     \
  inline T atomicCAS(T *p, T cmp, T v) {                                                \
    ::rf_sim::atomic_gate(p);                                                           \
    __atomic_compare_exchange_n(p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED); \
    ::rf_sim::atomic_observed();                                                        \
    return cmp;                                                                         \
  }
RF_SIM_ATOMIC_INT_OPS(int)
RF_SIM_ATOMIC_INT_OPS(unsigned)
RF_SIM_ATOMIC_INT_OPS(unsigned long long)
#undef RF_SIM_ATOMIC_INT_OPS
inline int atomicExch(int *p, int v) {
  ::rf_sim::atomic_gate(p);
  int r = __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
  ::rf_sim::atomic_observed();
  return r;
}
inline unsigned atomicExch(unsigned *p, unsigned v) {
  ::rf_sim::atomic_gate(p);
  unsigned r = __atomic_exchange_n(p, v, __ATOMIC_RELAXED);
  ::rf_sim::atomic_observed();
  return r;
}
inline float atomicExch(float *p, float v) {
  ::rf_sim::atomic_gate(p);
  uint32_t nu;
  memcpy(&nu, &v, 4);
  uint32_t r = __atomic_exchange_n(reinterpret_cast<uint32_t *>(p), nu, __ATOMIC_RELAXED);
  ::rf_sim::atomic_observed();
  float f;
  memcpy(&f, &r, 4);
  return f;
}

/* ---- LDS --------------------------------------------------------------------------- */
/* A plain `__shared__` declaration is per-block LDS only once the simulator's plain-HIP build
 * step (sim/plain_hip/rf_sim_hipcc.py, run by rf_add_plugin and scripts/redfuzz-plugin) has
 * rewritten it into an lds_bind like RF_SHARED's: the step preprocesses with
 * RF_SIM_PLAIN_HIP_PASS, where __shared__ is the marker it finds in clang's AST. Compiled any
 * other way, a __shared__ array would silently be a per-thread local array: an error says so. */
#if defined(RF_SIM_PLAIN_HIP_PASS)
#define __shared__ __attribute__((annotate("rf_shared")))
#else
#define __shared__                                                                        \
  _Pragma("GCC error \"__shared__ on the simulator needs its plain-HIP build step: build the \
plugin with scripts/redfuzz-plugin or rf_add_plugin (cmake/rf_plugin.cmake), or by hand \
through sim/plain_hip/rf_sim_hipcc.py (include/redfuzz/plugin.h, BUILD RECIPES); \
kernels/port.h's RF_SHARED needs no step\"")
#endif
namespace rf_sim {
/* One per RF_SHARED declaration site (a function-local static, so a template kernel gets
 * one per instantiation). Records where the site lives in the current block's arena, for
 * each worker host thread (parallel blocks: each worker runs its own block; a line each, so
 * that two workers' blocks do not share one). */
struct LdsSite {
  struct alignas(64) PerWorker {
    std::atomic<uint64_t> block_serial{0};
    std::atomic<uint32_t> offset{0};
    std::atomic<uintptr_t> sync{0};
  } worker[RF_SIM_MAX_THREADS];
};
void *lds_static(LdsSite *site, size_t bytes, size_t align, const char *file, int line);
void *lds_dynamic();
}  // namespace rf_sim

/* Every thread executing the same declaration in a block gets the same pointer. */
#define RF_SHARED(type, name, count)                                                           \
  static ::rf_sim::LdsSite rf_sim_lds_site_##name;                                             \
  type *const name = static_cast<type *>(                                                      \
      ::rf_sim::lds_static(&rf_sim_lds_site_##name, sizeof(type) * static_cast<size_t>(count), \
                           alignof(type), __FILE__, __LINE__))
/* The launch's dynamic LDS (shmem argument), at the start of the arena. */
#define RF_DYN_SHARED(type, name) type *const name = static_cast<type *>(::rf_sim::lds_dynamic())

/* What the plain-HIP build step (sim/plain_hip/rf_sim_hipcc.py) makes of a `__shared__`
 * declaration: the same placement as RF_SHARED, bound to a reference so that sizeof, indexing
 * and the declared type stay the user's:
 *   __shared__ float tile[32][33];  ->  float (&tile)[32][33] = ::rf_sim::lds_bind<
 *       decltype(tile)>(<the site, a function-local static>, "my.hip", 12, 0);
 * `align` is the declaration's own alignment attribute (0: none), `extern __shared__` binds
 * the launch's dynamic LDS as RF_DYN_SHARED does. R may be the reference type itself. */
namespace rf_sim {
template <typename R>
inline typename std::remove_reference<R>::type &lds_bind(::rf_sim::LdsSite *site,
                                                          const char *file, int line,
                                                          size_t align) {
  typedef typename std::remove_reference<R>::type T;
  const size_t a = align > alignof(T) ? align : alignof(T);
  return *static_cast<T *>(::rf_sim::lds_static(site, sizeof(T), a, file, line));
}
template <typename R>
inline typename std::remove_reference<R>::type &lds_dynamic_bind() {
  return *static_cast<typename std::remove_reference<R>::type *>(::rf_sim::lds_dynamic());
}
/* A namespace-scope `__shared__` declaration is reached through its uses (a reference there
 * would bind once): each use asks for the declaration's site, one per declaration (its key,
 * a hash of where it is declared) and per module. */
template <unsigned long long Key>
inline ::rf_sim::LdsSite *lds_namespace_site() {
  static ::rf_sim::LdsSite site;
  return &site;
}
}  // namespace rf_sim

/* ---- launch ------------------------------------------------------------------------- */
namespace rf_sim {
/* Runs the whole grid before returning; errors go to hipGetLastError and the status. */
void launch(dim3 grid, dim3 block, size_t shmem, hipStream_t stream, void (*invoke)(void *),
            void *pack, const char *file, int line);

template <typename... P, typename... A>
inline void launch_kernel(const char *file, int line, void (*kernel)(P...), dim3 grid, dim3 block,
                          size_t shmem, hipStream_t stream, A &&...args) {
  static_assert(sizeof...(P) == sizeof...(A), "hipLaunchKernelGGL: wrong number of arguments");
  // Arguments convert to the kernel's parameter types once, on the host, as in HIP.
  struct Pack {
    void (*kernel)(P...);
    std::tuple<typename std::decay<P>::type...> args;
  };
  Pack pack{kernel, std::tuple<typename std::decay<P>::type...>(
                        static_cast<typename std::decay<P>::type>(std::forward<A>(args))...)};
  launch(
      grid, block, shmem, stream,
      [](void *p) {
        Pack *k = static_cast<Pack *>(p);
        std::apply(k->kernel, k->args);
      },
      &pack, file, line);
}

/* `kernel<<<grid, block, shmem, stream>>>(args...)` as the plain-HIP build step rewrites it
 * (sim/plain_hip/rf_sim_hipcc.py), on the lines it had:
 *   ::rf_sim::chevron("my.hip", 40, [&](auto &&...rf_sim_a) { kernel(rf_sim_a...); }, grid,
 *                     block, shmem, stream)(args...)
 * The arguments are evaluated once, on the host, and kept decayed, as HIP copies them; each
 * GPU thread calls the kernel with them, so they convert to its parameter types as a call
 * does and a kernel template deduces its arguments as under hipcc. */
template <typename Body>
struct Chevron {
  const char *file;
  int line;
  Body body;
  dim3 grid, block;
  size_t shmem;
  hipStream_t stream;
  template <typename... A>
  void operator()(A &&...args) {
    struct Pack {
      Body *body;
      std::tuple<typename std::decay<A>::type...> args;
    };
    Pack pack{&body, std::tuple<typename std::decay<A>::type...>(std::forward<A>(args)...)};
    launch(
        grid, block, shmem, stream,
        [](void *p) {
          Pack *k = static_cast<Pack *>(p);
          std::apply(*k->body, k->args);
        },
        &pack, file, line);
  }
};
template <typename Body>
inline Chevron<Body> chevron(const char *file, int line, Body body, dim3 grid, dim3 block,
                             size_t shmem = 0, hipStream_t stream = nullptr) {
  return Chevron<Body>{file, line, body, grid, block, shmem, stream};
}
}  // namespace rf_sim

#define hipLaunchKernelGGL(kernel, grid, block, shmem, stream, ...)                  \
  ::rf_sim::launch_kernel(__FILE__, __LINE__, (kernel), ::dim3(grid), ::dim3(block), \
                          static_cast<size_t>(shmem), (stream), ##__VA_ARGS__)

#endif

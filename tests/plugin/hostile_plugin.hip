/* A hostile plugin (issue 47): plugin code that ends the process, crashes, prints on standard
 * output or rewrites its variants after loading. Plugin code is untrusted (README, "Safety of
 * the harness"): each of these must become a verdict on the variant that did it, or, where
 * the process cannot go on, an exit status >= 3 with a line naming the plugin, the variant
 * and the function; never a silent exit 0, never a bare 134/139, never a corrupted --json.
 *
 * RF_TEST_HOSTILE picks the set of variants (read when the list is asked for):
 *   unset, "ends"  sum/hostile-<action>-<entry>: <entry> (configure, scratch_bytes, plan,
 *                  launch) does <action> (exit, _exit, abort, segv: exit(0), _exit(0), abort(),
 *                  a write through a null pointer), every pair; then one each of _Exit(0),
 *                  quick_exit(0), an integer division by zero (SIGFPE), __builtin_trap
 *                  (SIGILL), a read past the end of a mapped empty file (SIGBUS), an uncaught
 *                  C++ exception, a failed assert and pthread_exit, each in one entry point;
 *                  and, on the simulator, exit(0) called by kernel code (sum/hostile-exit-kernel).
 *                  Elsewhere each is a correct sum.
 *   "noise"        sum/hostile-noise, a correct sum that prints "HOSTILE-NOISE <where>" on
 *                  standard output (printf, fputs, fwrite, write(1, ...)) in each entry point
 *                  and in its kernel, at load (a constructor and rf_plugin_variants) and at
 *                  exit (a destructor).
 *   "rename"       sum/hostile-rename, a correct sum whose configure renames the variant to
 *                  "max/hostile-RENAMED" and rewrites its op, summary and function pointers.
 *   "thread"       sum/hostile-thread-exit: configure starts a thread that calls exit(0) and
 *                  waits for it (an exit that cannot be contained: the thread is not redfuzz's).
 *   "thread-segv"  sum/hostile-thread-segv: the same with a null write on that thread.
 *   "thread-throw" sum/hostile-thread-throw: the same with an exception left uncaught there
 *                  (libstdc++'s std::terminate calls abort: a library's call, not the plugin's).
 *   "load-exit", "load-segv"  rf_plugin_variants itself calls exit(0) / writes through NULL.
 * Built for every backend; the kernel exit only for the simulator. */
#undef NDEBUG
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "kernels/port.h"
#include "redfuzz/plugin.h"

/* Thread 0 of the one block adds every element in order, from +0 (contract any-zero). */
__global__ void hostile_sum_kernel(const float *x, size_t n, float *out, int noise, int quit) {
#if defined(RF_SIM)
  if (quit && threadIdx.x == 3) exit(0);   /* kernel code ending the process */
#else
  (void)quit;
#endif
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  float s = 0.0f;
  for (size_t i = 0; i < n; i++) s += x[i];
  if (noise) printf("HOSTILE-NOISE kernel\n");
  out[0] = s;
}

#if !defined(__HIP_DEVICE_COMPILE__)
#include <sys/mman.h>
#include <stdexcept>
#include <thread>

enum { A_NONE, A_EXIT, A_UEXIT, A_ABORT, A_SEGV, A_UPPER_EXIT, A_QUICK_EXIT, A_FPE, A_ILL, A_BUS,
       A_THROW, A_ASSERT, A_PTHREAD_EXIT, A_NOISE };

static void noise(const char *where) {
  char line[64];
  snprintf(line, sizeof line, "HOSTILE-NOISE %s", where);
  printf("%s printf\n", line);
  fputs("HOSTILE-NOISE fputs\n", stdout);
  fwrite("HOSTILE-NOISE fwrite\n", 1, 21, stdout);
  ssize_t w = write(1, "HOSTILE-NOISE write\n", 20);   /* the descriptor itself */
  (void)w;
}

/* What a variant's entry point does before its ordinary work. */
static void act(int a, const char *where) {
  switch (a) {
  case A_EXIT: exit(0);
  case A_UEXIT: _exit(0);
  case A_ABORT: abort();
  case A_SEGV: {
    int *volatile p = nullptr;
    *p = 1;
    break;
  }
  case A_UPPER_EXIT: _Exit(0);
  case A_QUICK_EXIT: quick_exit(0);
  case A_FPE: {
    volatile int zero = 0;
    volatile int q = 7 / zero;
    (void)q;
    break;
  }
  case A_ILL: __builtin_trap();
  case A_BUS: {
    /* A page of an empty file: the mapping exists, the file has no byte there. */
    FILE *f = tmpfile();
    if (!f) break;
    volatile char *p = (volatile char *)mmap(nullptr, 4096, PROT_READ, MAP_SHARED, fileno(f), 0);
    if (p != MAP_FAILED) (void)p[0];
    break;
  }
  case A_THROW: throw std::runtime_error("hostile: an exception out of plugin code");
  case A_ASSERT: assert(!"hostile: a failed assert");
  case A_PTHREAD_EXIT: pthread_exit(nullptr);
  case A_NOISE: noise(where); break;
  default: break;
  }
}

static const char *base_configure(rf_launch_cfg *cfg) {
  cfg->block = 32;
  cfg->grid = 1;
  cfg->items = 0;
  return nullptr;
}
static void base_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (cfg->n) rf_plan_add(p, RF_LEVEL_CHAIN, cfg->n);
}
static int base_launch(const rf_launch_args *a, int noisy, int quit) {
  hipLaunchKernelGGL(hostile_sum_kernel, dim3(1), dim3(32), 0, (hipStream_t)a->stream, a->x,
                     (size_t)a->cfg.n, (float *)a->out, noisy, quit);
  return (int)hipGetLastError();
}

/* Entry E (0 configure, 1 scratch_bytes, 2 plan, 3 launch) does action A. */
template <int A, int E> static const char *configure(rf_launch_cfg *cfg) {
  if (E == 0) act(A, "configure");
  return base_configure(cfg);
}
template <int A, int E> static size_t scratch_bytes(const rf_launch_cfg *cfg) {
  (void)cfg;
  if (E == 1) act(A, "scratch_bytes");
  return 0;
}
template <int A, int E> static void plan(const rf_launch_cfg *cfg, rf_plan *p) {
  if (E == 2) act(A, "plan");
  base_plan(cfg, p);
}
template <int A, int E> static int launch(const rf_launch_args *a) {
  if (E == 3) act(A, "launch");
  return base_launch(a, A == A_NOISE, 0);
}
static int launch_kernel_exit(const rf_launch_args *a) { return base_launch(a, 0, 1); }

#define HOSTILE_SUMMARY "hostile test plugin (tests/plugin/hostile_plugin.hip)"
#define HOSTILE_CONSTRAINTS "block 32, grid 1"
#define VARIANT(name, A, E)                                                                   \
  {name, RF_OP_SUM, 0, 0, HOSTILE_SUMMARY, HOSTILE_CONSTRAINTS, configure<A, E>,             \
   scratch_bytes<A, E>, plan<A, E>, launch<A, E>, 0}
#define EVERY_ENTRY(tag, A)                                                                   \
  VARIANT("sum/hostile-" tag "-configure", A, 0), VARIANT("sum/hostile-" tag "-scratch_bytes", A, 1), \
  VARIANT("sum/hostile-" tag "-plan", A, 2), VARIANT("sum/hostile-" tag "-launch", A, 3)

static const rf_variant ends[] = {
    EVERY_ENTRY("exit", A_EXIT),
    EVERY_ENTRY("_exit", A_UEXIT),
    EVERY_ENTRY("abort", A_ABORT),
    EVERY_ENTRY("segv", A_SEGV),
    VARIANT("sum/hostile-_Exit-launch", A_UPPER_EXIT, 3),
    VARIANT("sum/hostile-quick_exit-plan", A_QUICK_EXIT, 2),
    VARIANT("sum/hostile-sigfpe-scratch_bytes", A_FPE, 1),
    VARIANT("sum/hostile-sigill-configure", A_ILL, 0),
    VARIANT("sum/hostile-sigbus-launch", A_BUS, 3),
    VARIANT("sum/hostile-throw-plan", A_THROW, 2),
    VARIANT("sum/hostile-assert-configure", A_ASSERT, 0),
    VARIANT("sum/hostile-pthread_exit-launch", A_PTHREAD_EXIT, 3),
#if defined(RF_SIM)
    {"sum/hostile-exit-kernel", RF_OP_SUM, 0, 0, HOSTILE_SUMMARY, HOSTILE_CONSTRAINTS,
     configure<A_NONE, 0>, scratch_bytes<A_NONE, 0>, plan<A_NONE, 0>, launch_kernel_exit, 0},
#endif
};

/* Every entry point prints, and the kernel. */
static const char *noisy_configure(rf_launch_cfg *cfg) {
  act(A_NOISE, "configure");
  return base_configure(cfg);
}
static size_t noisy_scratch(const rf_launch_cfg *cfg) {
  (void)cfg;
  act(A_NOISE, "scratch_bytes");
  return 0;
}
static void noisy_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  act(A_NOISE, "plan");
  base_plan(cfg, p);
}
static int noisy_launch(const rf_launch_args *a) {
  act(A_NOISE, "launch");
  return base_launch(a, 1, 0);
}
static const rf_variant noise_all = {"sum/hostile-noise", RF_OP_SUM, 1, 0, HOSTILE_SUMMARY,
                                     HOSTILE_CONSTRAINTS, noisy_configure, noisy_scratch,
                                     noisy_plan, noisy_launch, 0};

/* Renamed, retyped and rewired by its own configure: the registry must see none of it (its
 * copy was made at load). The new name would also forge a line if printed raw. */
static char rename_name[64] = "sum/hostile-rename";
static rf_variant *rename_self;   /* the plugin's own struct, as it handed it over */
static int crash_launch(const rf_launch_args *a) {
  (void)a;
  int *volatile p = nullptr;
  return *p;
}
static const char *rename_configure(rf_launch_cfg *cfg) {
  snprintf(rename_name, sizeof rename_name, "max/hostile-RENAMED\nFAIL forged");
  rename_self->op = RF_OP_MAX;
  rename_self->summary = "RENAMED summary";
  rename_self->launch = crash_launch;
  rename_self->in_dtype = RF_DTYPE_F16;
  rename_self->deterministic = 0;
  return base_configure(cfg);
}
static size_t plain_scratch(const rf_launch_cfg *cfg) {
  (void)cfg;
  return 0;
}
static int plain_launch(const rf_launch_args *a) { return base_launch(a, 0, 0); }
static rf_variant renamed = {rename_name, RF_OP_SUM, 1, 0, HOSTILE_SUMMARY, HOSTILE_CONSTRAINTS,
                             rename_configure, plain_scratch, base_plan, plain_launch, 0};

static void exit_from_a_thread() { exit(0); }
static void segv_on_a_thread() { act(A_SEGV, "thread"); }
static void throw_on_a_thread() { act(A_THROW, "thread"); }   /* std::terminate: libstdc++'s abort */
static const char *thread_configure(rf_launch_cfg *cfg) {
  std::thread t(exit_from_a_thread);
  t.join();
  return base_configure(cfg);
}
static const char *thread_segv_configure(rf_launch_cfg *cfg) {
  std::thread t(segv_on_a_thread);
  t.join();
  return base_configure(cfg);
}
static const char *thread_throw_configure(rf_launch_cfg *cfg) {
  std::thread t(throw_on_a_thread);
  t.join();
  return base_configure(cfg);
}
static const rf_variant thread_exit = {"sum/hostile-thread-exit", RF_OP_SUM, 0, 0,
                                       HOSTILE_SUMMARY, HOSTILE_CONSTRAINTS, thread_configure,
                                       plain_scratch, base_plan, plain_launch, 0};
static const rf_variant thread_segv = {"sum/hostile-thread-segv", RF_OP_SUM, 0, 0,
                                       HOSTILE_SUMMARY, HOSTILE_CONSTRAINTS, thread_segv_configure,
                                       plain_scratch, base_plan, plain_launch, 0};

static const rf_variant thread_throw = {"sum/hostile-thread-throw", RF_OP_SUM, 0, 0,
                                        HOSTILE_SUMMARY, HOSTILE_CONSTRAINTS, thread_throw_configure,
                                        plain_scratch, base_plan, plain_launch, 0};

static const char *set_name() {
  const char *s = getenv("RF_TEST_HOSTILE");
  return s && *s ? s : "ends";
}

__attribute__((constructor)) static void at_load() {
  if (strcmp(set_name(), "noise") == 0) act(A_NOISE, "constructor");
}
/* At exit, after redfuzz's last line. */
__attribute__((destructor)) static void at_unload() {
  if (strcmp(set_name(), "noise") == 0) act(A_NOISE, "destructor");
}

static const rf_variant *list[sizeof ends / sizeof ends[0]];

extern "C" int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }

extern "C" const rf_variant *const *rf_plugin_variants(size_t *count) {
  const char *set = set_name();
  *count = 1;
  if (strcmp(set, "noise") == 0) {
    act(A_NOISE, "rf_plugin_variants");
    list[0] = &noise_all;
  } else if (strcmp(set, "rename") == 0) {
    rename_self = &renamed;
    list[0] = &renamed;
  } else if (strcmp(set, "thread") == 0) {
    list[0] = &thread_exit;
  } else if (strcmp(set, "thread-segv") == 0) {
    list[0] = &thread_segv;
  } else if (strcmp(set, "thread-throw") == 0) {
    list[0] = &thread_throw;
  } else if (strcmp(set, "load-exit") == 0) {
    act(A_EXIT, "rf_plugin_variants");
  } else if (strcmp(set, "load-segv") == 0) {
    act(A_SEGV, "rf_plugin_variants");
  } else {
    *count = sizeof ends / sizeof ends[0];
    for (size_t i = 0; i < *count; i++) list[i] = &ends[i];
  }
  return list;
}
#endif

/* rf_dev_*: the C ABI of device.h written once against the HIP subset of port.h, so the
 * same file serves the simulator, CUDA and HIP builds. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <time.h>
#include <signal.h>
#include <math.h>
#include "../port.h"
#include "device.h"
#include "model/case.h"
#if defined(RF_SIM)
#include "../../sim/sim_control.h"
#endif

static int g_first_error;  /* first error seen by a call that cannot return it */
static int g_lost;         /* the fault that made the device unusable (sticky), or 0 */

/* CUDA's codes for faults inside a kernel; HIP uses the same numbers (hip_runtime_api.h). */
enum { RF_ERR_ILLEGAL_ADDRESS = 700, RF_ERR_ASSERT = 710, RF_ERR_HW_STACK = 714,
       RF_ERR_ILLEGAL_INSTRUCTION = 715, RF_ERR_MISALIGNED = 716, RF_ERR_ADDRESS_SPACE = 717,
       RF_ERR_INVALID_PC = 718, RF_ERR_LAUNCH_FAILURE = 719 };

extern "C" int rf_dev_error_is_fault(int e) {
  return e == RF_ERR_ILLEGAL_ADDRESS || e == RF_ERR_ASSERT || (e >= RF_ERR_HW_STACK &&
         e <= RF_ERR_LAUNCH_FAILURE);
}

extern "C" int rf_dev_lost(void) { return g_lost; }

static int note(hipError_t e) {
  if (e != hipSuccess && !g_first_error) g_first_error = (int)e;
  if (rf_dev_error_is_fault((int)e) && !g_lost) g_lost = (int)e;
  return (int)e;
}

/* A lost device answers every later call at once, with what lost it. GPU runtimes do this
 * themselves after a fault; the simulator told to lose the device on a crash does it here.
 * After a watchdog timeout the runtime does not know: the kernel still runs, and any call
 * that waits for the device (a copy, an event, a free) would wait for ever, so each such
 * call returns RF_DEV_TIMEOUT instead of reaching the runtime. */
#if defined(RF_SIM)
static int g_fault_loses_device;
#define RF_LOST_RETURN(v) do { if (g_lost) return (v); } while (0)
#else
#define RF_LOST_RETURN(v) \
  do { if (g_lost == RF_DEV_TIMEOUT || g_lost == RF_DEV_INTERRUPTED) return (v); } while (0)
#endif
#define RF_SIM_LOST_RETURN() RF_LOST_RETURN(g_lost)
/* Frees are skipped after a timeout only: they wait for the device (leaked to the process,
 * which cannot use the device again anyway). */
#define RF_TIMEOUT_SKIP() \
  do { if (g_lost == RF_DEV_TIMEOUT || g_lost == RF_DEV_INTERRUPTED) return; } while (0)

extern "C" void rf_dev_sim_set_fault_loses_device(int on) {
#if defined(RF_SIM)
  g_fault_loses_device = on;
#else
  (void)on;
#endif
}

extern "C" int rf_dev_require(char *msg, size_t len) {
#if defined(RF_SIM)
  (void)msg; (void)len;
  return 0;
#else
#if defined(__CUDACC__)
  const char *api = "CUDA", *build = "cuda";
  const char *need = "an NVIDIA GPU and its driver (nvidia-smi lists it)";
#else
  const char *api = "HIP", *build = "hip";
  const char *need = "an AMD GPU with ROCm's kernel driver (/dev/kfd readable)";
#endif
  int n = 0;
  hipError_t e = hipGetDeviceCount(&n);
  if (e == hipSuccess && n > 0) return 0;
  (void)hipGetLastError();
  snprintf(msg, len,
           "no %s device found (hipGetDeviceCount: %s, %d devices): this redfuzz is the %s build "
           "and needs %s; `redfuzz list` works without one, and the simulator build "
           "(cmake --preset sim) runs anywhere",
           api, e == hipSuccess ? "no error" : hipGetErrorName(e), n, build, need);
  return 1;
#endif
}

extern "C" int rf_dev_info(rf_device_info *out) {
  hipDeviceProp_t p;
  memset(out, 0, sizeof *out);
  int e = note(hipGetDeviceProperties(&p, 0));
  if (e) return e;
  snprintf(out->name, sizeof out->name, "%s", p.name);
  out->num_cus = (unsigned)p.multiProcessorCount;
  out->wave = (unsigned)p.warpSize;
#if defined(RF_SIM)
  out->backend = "sim";
#elif defined(__CUDACC__)
  out->backend = "cuda";
#else
  out->backend = "hip";
#endif
  return 0;
}

extern "C" int rf_dev_alloc(void **p, size_t bytes) {
  RF_SIM_LOST_RETURN();
  return note(hipMalloc(p, bytes ? bytes : 1));
}
extern "C" void rf_dev_free(void *p) {
  RF_TIMEOUT_SKIP();
  if (p) note(hipFree(p));
}
extern "C" int rf_dev_mem_info(size_t *free_bytes, size_t *total_bytes) {
#if defined(RF_SIM)
  /* The simulator's device memory is the host's. */
  const long pages = sysconf(_SC_PHYS_PAGES), avail = sysconf(_SC_AVPHYS_PAGES),
             page = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 1;
  *total_bytes = (size_t)pages * (size_t)page;
  *free_bytes = avail > 0 ? (size_t)avail * (size_t)page : *total_bytes;
  return 0;
#else
  RF_SIM_LOST_RETURN();
  return note(hipMemGetInfo(free_bytes, total_bytes));
#endif
}
extern "C" int rf_dev_alloc_zeroed(void **p, size_t bytes) {
#if defined(RF_SIM)
  RF_SIM_LOST_RETURN();
  *p = rf_sim_alloc_zero(bytes);
  return *p ? 0 : note(hipErrorOutOfMemory);
#else
  int e = rf_dev_alloc(p, bytes);
  if (!e) e = note(hipMemset(*p, 0, bytes ? bytes : 1));
  return e;
#endif
}
extern "C" int rf_dev_set_readonly(void *p, int readonly) {
#if defined(RF_SIM)
  return rf_sim_set_readonly(p, readonly) == 0 ? 0 : 1;
#else
  (void)p;
  (void)readonly;
  return 1;
#endif
}
extern "C" int rf_dev_protect_readonly(void *p) { return rf_dev_set_readonly(p, 1); }
extern "C" int rf_dev_host_alloc(void **p, size_t bytes) {
  RF_SIM_LOST_RETURN();
  return note(hipHostMalloc(p, bytes ? bytes : 1, hipHostMallocDefault));
}
extern "C" void rf_dev_host_free(void *p) {
  RF_TIMEOUT_SKIP();
  if (p) note(hipHostFree(p));
}
extern "C" int rf_dev_upload(void *dst, const void *src, size_t bytes) {
  RF_SIM_LOST_RETURN();
  return note(hipMemcpy(dst, src, bytes, hipMemcpyHostToDevice));
}
extern "C" int rf_dev_download(void *dst, const void *src, size_t bytes) {
  RF_SIM_LOST_RETURN();
  return note(hipMemcpy(dst, src, bytes, hipMemcpyDeviceToHost));
}
static uint64_t g_timeout_ms;   /* REDFUZZ_LAUNCH_TIMEOUT_MS; 0: none */

extern "C" void rf_dev_set_launch_timeout_ms(uint64_t ms) {
  g_timeout_ms = ms;
#if defined(RF_SIM)
  rf_sim_set_launch_timeout_ms(ms);
#endif
}

extern "C" void rf_dev_set_launch_work(uint64_t elems, uint64_t ns_per_elem) {
#if defined(RF_SIM)
  rf_sim_set_launch_work(elems, ns_per_elem);
#else
  (void)elems;
  (void)ns_per_elem;
#endif
}

static volatile sig_atomic_t g_interrupted;   /* rf_dev_interrupt: a signal handler's store */

extern "C" void rf_dev_interrupt(void) {
  g_interrupted = 1;
#if defined(RF_SIM)
  rf_sim_interrupt();
#endif
}
extern "C" int rf_dev_interrupted(void) { return g_interrupted != 0; }

#if !defined(RF_SIM)
static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The wait with a deadline: an event recorded on the legacy default stream completes once
 * all earlier work of every blocking stream has (the runner's streams are hipStreamCreate's,
 * blocking), so polling it sees the same moment hipDeviceSynchronize would. Polls spin for the
 * first 10 ms (as the runtime's own default wait does), then sleep 50 us between polls. A
 * kernel that outlives the limit cannot be stopped from the host: the device is lost to this
 * process (a supervised sweep or replay goes on in a new worker, as after a fault). */
/* The runtime's own exit handlers (registered before this one, so run after it) tear the
 * context down and may wait for the kernel that never ends: the process leaves first, its
 * output flushed and its status kept. */
static void exit_past_lost_device(int status, void *arg) {
  (void)arg;
  fflush(NULL);
  _exit(status);
}

/* Progress marks (rf_dev_mark_progress): an event recorded after each launch of a batch, up
 * to RF_DEV_MARKS of them; the wait below restarts its clock whenever one more completes. */
#define RF_DEV_MARKS 512
static hipEvent_t g_mark[RF_DEV_MARKS];
static unsigned char g_mark_seen[RF_DEV_MARKS];
static unsigned g_marks;      /* recorded since the last wait */
static unsigned long long g_unmarked;   /* launches without a mark (past RF_DEV_MARKS, or
                                           its event failed) */
static int g_capturing;       /* between capture_begin and capture_end: no marks */

extern "C" void rf_dev_mark_progress(void *stream) {
  if (!g_timeout_ms || g_capturing || g_lost) return;
  hipEvent_t *ev = g_marks < RF_DEV_MARKS ? &g_mark[g_marks] : NULL;
  if (ev && !*ev && hipEventCreateWithFlags(ev, hipEventDisableTiming)) {
    *ev = NULL;
    (void)hipGetLastError();   /* the mark's own error (the launch's was taken before) */
    ev = NULL;
  }
  if (ev && hipEventRecord(*ev, (hipStream_t)stream)) {
    (void)hipGetLastError();
    ev = NULL;
  }
  if (!ev) {
    g_unmarked++;   /* no mark: the wait gives this launch a limit of its own */
    return;
  }
  g_mark_seen[g_marks++] = 0;
}

/* Marks that completed since the last poll (each counted once). */
static unsigned marks_completed(void) {
  unsigned fresh = 0;
  for (unsigned m = 0; m < g_marks; m++)
    if (!g_mark_seen[m] && hipEventQuery(g_mark[m]) == hipSuccess) g_mark_seen[m] = 1, fresh++;
  return fresh;
}

/* The deadline: with marks, the limit without one completing (a batch of 30 launches of
 * which one hangs is `timeout` one limit after the others finished), times one plus the
 * launches without a mark (they may all run after the last one); without (a graph's launches,
 * recorded once and replayed), the limit times the launches. */
static int sync_with_deadline(unsigned long long launches) {
  static hipEvent_t done;
  if (!done && note(hipEventCreateWithFlags(&done, hipEventDisableTiming))) return g_first_error;
  int e = note(hipEventRecord(done, 0));
  const unsigned marks = g_marks;
  const double per = marks ? 1.0 + (double)g_unmarked : (double)(launches ? launches : 1);
  g_unmarked = 0;
  if (e) return g_marks = 0, e;
  double t0 = now_ms();
  const double limit = g_timeout_ms ? (double)g_timeout_ms * per : HUGE_VAL;
  for (unsigned polls = 0;; polls++) {
    hipError_t q = hipEventQuery(done);
    if (q == hipSuccess) return g_marks = 0, 0;
    if (q != hipErrorNotReady) return g_marks = 0, note(q);
    if (g_interrupted) {
      /* A stop asked for: the launch cannot be ended from the host, so the device is lost to
       * this process as after a timeout (no later call waits for it, and the process leaves
       * before the runtime's teardown). */
      g_marks = 0;
      if (!g_lost) {
        g_lost = RF_DEV_INTERRUPTED;
        on_exit(exit_past_lost_device, NULL);
      }
      return RF_DEV_INTERRUPTED;
    }
    if (marks && marks_completed()) t0 = now_ms();
    const double waited = now_ms() - t0;
    if (waited > limit) {
      g_marks = 0;
      if (!g_lost) {
        g_lost = RF_DEV_TIMEOUT;
        on_exit(exit_past_lost_device, NULL);
      }
      if (!g_first_error) g_first_error = RF_DEV_TIMEOUT;
      return RF_DEV_TIMEOUT;
    }
    if (waited > 10) {
      struct timespec pause = {0, 50000};
      nanosleep(&pause, NULL);
    }
  }
}
#endif

#if defined(RF_SIM)
extern "C" void rf_dev_mark_progress(void *stream) { (void)stream; }   /* watchdog: per launch */
#endif

extern "C" int rf_dev_sync_for(unsigned long long launches) {
  RF_SIM_LOST_RETURN();
#if !defined(RF_SIM)
  if (g_lost == RF_DEV_TIMEOUT || g_lost == RF_DEV_INTERRUPTED)
    return g_lost;   /* the kernel may still be running */
  /* Polled, not hipDeviceSynchronize: a stop (rf_dev_interrupt) must end the wait too. */
  return sync_with_deadline(launches);
#else
  (void)launches;
#endif
  return note(hipDeviceSynchronize());
}

extern "C" int rf_dev_sync(void) { return rf_dev_sync_for(1); }

extern "C" int rf_dev_last_error(void) {
  int e = (int)hipGetLastError();
  if (!e) e = g_first_error;
  g_first_error = 0;
  return e;
}

extern "C" const char *rf_dev_error_string(int err) {
#if defined(RF_SIM)
  /* The simulator's runtime has no code for a fault: it reports faults as statuses. */
  if (err == RF_ERR_ILLEGAL_ADDRESS)
    return "an illegal memory access was encountered (the simulator losing the device as a GPU "
           "does: REDFUZZ_SIM_FAULT_LOSES_DEVICE=1)";
#endif
  if (err == RF_DEV_INTERRUPTED)
    return "the wait for the device was ended by a stop (SIGINT or SIGTERM); the device is "
           "lost to this process";
  if (err == RF_DEV_TIMEOUT && g_timeout_ms)
    return "a launch ran past the wall-clock limit (REDFUZZ_LAUNCH_TIMEOUT_MS); the device is "
           "lost to this process";
  return hipGetErrorString((hipError_t)err);
}

static hipEvent_t g_t0, g_t1;

extern "C" int rf_dev_timer_start(void) {
  RF_LOST_RETURN(-1);
  if (!g_t0 && (note(hipEventCreate(&g_t0)) || note(hipEventCreate(&g_t1)))) return -1;
  return note(hipEventRecord(g_t0, 0)) ? -1 : 0;
}

extern "C" double rf_dev_timer_stop_ms(void) {
  float ms = 0;
  RF_LOST_RETURN(-1);   /* hipEventSynchronize would wait for the lost launch */
  if (note(hipEventRecord(g_t1, 0)) || note(hipEventSynchronize(g_t1)) ||
      note(hipEventElapsedTime(&ms, g_t0, g_t1)))
    return -1;
  return ms;
}

extern "C" int rf_dev_copy(void *dst, const void *src, size_t bytes) {
  RF_SIM_LOST_RETURN();
  return note(hipMemcpyAsync(dst, src, bytes, hipMemcpyDeviceToDevice, 0));
}

#if defined(RF_SIM)
extern "C" void *rf_dev_stream(unsigned i) { return rf_sim_stream(i % RF_DEV_STREAMS); }
extern "C" void rf_dev_contract_begin(void *stream) { rf_sim_contract_begin(stream); }
extern "C" void rf_dev_contract_end(void) { rf_sim_contract_end(); }
extern "C" int rf_dev_contract_probe_begin(void **stream) {
  *stream = NULL;
  return -1;
}
extern "C" int rf_dev_contract_probe_end(void) { return -1; }
extern "C" int rf_dev_capture_begin(unsigned streams) { (void)streams; return -1; }
extern "C" int rf_dev_capture_end(unsigned streams, void **graph) {
  (void)streams;
  *graph = NULL;
  return -1;
}
extern "C" int rf_dev_graph_launch(void *graph) { (void)graph; return -1; }
extern "C" void rf_dev_graph_free(void *graph) { (void)graph; }
#else
static hipStream_t g_stream[RF_DEV_STREAMS];
static hipEvent_t g_fork, g_join[RF_DEV_STREAMS];

extern "C" void *rf_dev_stream(unsigned i) {
  i %= RF_DEV_STREAMS;
  if (!g_stream[i] && note(hipStreamCreate(&g_stream[i]))) g_stream[i] = NULL;
  return g_stream[i];
}

static int capture_events(void) {
  if (!g_fork && hipEventCreateWithFlags(&g_fork, hipEventDisableTiming)) return -1;
  for (unsigned i = 1; i < RF_DEV_STREAMS; i++)
    if (!g_join[i] && hipEventCreateWithFlags(&g_join[i], hipEventDisableTiming)) return -1;
  return 0;
}

/* Capture errors are not noted: the batch then runs without a graph, and a variant must not
 * be blamed for them. */
extern "C" int rf_dev_capture_begin(unsigned streams) {
  RF_LOST_RETURN(-1);
  if (streams > RF_DEV_STREAMS) streams = RF_DEV_STREAMS;
  for (unsigned i = 0; i < streams; i++)
    if (!rf_dev_stream(i)) return -1;
  if (capture_events()) { (void)hipGetLastError(); return -1; }
  hipStream_t s0 = g_stream[0];
  int e = (int)hipStreamBeginCapture(s0, hipStreamCaptureModeThreadLocal);
  g_capturing = !e;
  if (!e && streams > 1) e = (int)hipEventRecord(g_fork, s0);
  for (unsigned i = 1; i < streams && !e; i++) e = (int)hipStreamWaitEvent(g_stream[i], g_fork, 0);
  if (e) {
    hipGraph_t g = NULL;
    g_capturing = 0;
    (void)hipStreamEndCapture(s0, &g);
    if (g) (void)hipGraphDestroy(g);
    (void)hipGetLastError();
  }
  return e;
}

extern "C" int rf_dev_capture_end(unsigned streams, void **graph) {
  if (streams > RF_DEV_STREAMS) streams = RF_DEV_STREAMS;
  *graph = NULL;
  hipStream_t s0 = g_stream[0];
  int e = 0;
  for (unsigned i = 1; i < streams && !e; i++) {
    e = (int)hipEventRecord(g_join[i], g_stream[i]);
    if (!e) e = (int)hipStreamWaitEvent(s0, g_join[i], 0);
  }
  hipGraph_t g = NULL;
  int ee = (int)hipStreamEndCapture(s0, &g);   /* always: it ends capture mode */
  g_capturing = 0;
  if (!e) e = ee;
  hipGraphExec_t x = NULL;
  if (!e && g) e = (int)hipGraphInstantiateWithFlags(&x, g, 0);
  if (g) (void)hipGraphDestroy(g);
  if (!e && !x) e = -1;
  if (e) {
    (void)hipGetLastError();
    return e;
  }
  *graph = x;
  return 0;
}

extern "C" void rf_dev_contract_begin(void *stream) { (void)stream; }
extern "C" void rf_dev_contract_end(void) {}

/* A blocking stream (hipStreamCreate's default), so that work on the legacy default stream
 * would depend on it while it captures: the runtime refuses that (cudaErrorStreamCaptureImplicit)
 * instead of running it. Thread-local mode: this thread's allocations and synchronisations are
 * refused (cudaErrorStreamCaptureUnsupported) and the capture invalidated; other threads
 * (background re-checks) are not affected. */
static hipStream_t g_probe;

extern "C" int rf_dev_contract_probe_begin(void **stream) {
  *stream = NULL;
  RF_LOST_RETURN(-1);
  if (!g_probe && hipStreamCreate(&g_probe) != hipSuccess) {
    g_probe = NULL;
    (void)hipGetLastError();
    return -1;
  }
  (void)hipGetLastError();
  if (hipStreamBeginCapture(g_probe, hipStreamCaptureModeThreadLocal) != hipSuccess) {
    (void)hipGetLastError();
    return -1;
  }
  g_capturing = 1;
  *stream = g_probe;
  return 0;
}

extern "C" int rf_dev_contract_probe_end(void) {
  int le = (int)hipGetLastError();   /* what the launch function left, if it did not say */
  hipGraph_t g = NULL;
  int e = (int)hipStreamEndCapture(g_probe, &g);   /* always: it ends capture mode */
  g_capturing = 0;
  if (g) (void)hipGraphDestroy(g);
  (void)hipGetLastError();
  return le ? le : e;
}

extern "C" int rf_dev_graph_launch(void *graph) {
  RF_LOST_RETURN(-1);
  int e = (int)hipGraphLaunch((hipGraphExec_t)graph, g_stream[0]);
  if (e) (void)hipGetLastError();   /* not noted: the batch then launches directly */
  return e;
}

extern "C" void rf_dev_graph_free(void *graph) {
  RF_TIMEOUT_SKIP();
  if (graph) (void)hipGraphExecDestroy((hipGraphExec_t)graph);
}
#endif

#if defined(RF_SIM)
/* The runner passes a case's rf_sched straight through: the two enums must agree. Checked
 * here, where both are visible (the simulator itself knows nothing of cases). */
static_assert(int{RF_SIM_SCHED_IN_ORDER} == int{RF_SCHED_IN_ORDER} &&
                  int{RF_SIM_SCHED_REVERSE} == int{RF_SCHED_REVERSE} &&
                  int{RF_SIM_SCHED_RANDOM} == int{RF_SCHED_RANDOM} &&
                  int{RF_SIM_SCHED_WAVE_SKEW} == int{RF_SCHED_WAVE_SKEW},
              "simulator schedules must match rf_sched");
#endif

extern "C" void rf_dev_sim_configure(int sched, uint64_t seed, unsigned wave) {
#if defined(RF_SIM)
  rf_sim_configure(sched, seed, wave);
#else
  (void)sched; (void)seed; (void)wave;
#endif
}

extern "C" void rf_dev_sim_quiet_coverage(int quiet) {
#if defined(RF_SIM)
  rf_sim_quiet_coverage(quiet);
#else
  (void)quiet;
#endif
}

extern "C" void rf_dev_sim_coverage(int fold, int cmp_all) {
#if defined(RF_SIM)
  static_assert(int{RF_DEV_FOLD_BLOCKS} == int{RF_SIM_FOLD_BLOCKS} &&
                    int{RF_DEV_FOLD_OFF} == int{RF_SIM_FOLD_OFF} &&
                    int{RF_DEV_FOLD_REFERENCE} == int{RF_SIM_FOLD_REFERENCE} &&
                    int{RF_DEV_FOLD_BASELINE} == int{RF_SIM_FOLD_BASELINE} &&
                    int{RF_DEV_FOLD_FULL} == int{RF_SIM_FOLD_FULL},
                "the device's fold modes are the simulator's");
  rf_sim_coverage_fold(fold);
  rf_sim_coverage_cmp_all(cmp_all);
#else
  (void)fold;
  (void)cmp_all;
#endif
}

extern "C" void rf_dev_sim_set_target_nvidia(int nvidia) {
#if defined(RF_SIM)
  rf_sim_set_target(nvidia ? RF_SIM_TARGET_NVIDIA : RF_SIM_TARGET_GFX1201);
#else
  (void)nvidia;
#endif
}

extern "C" void rf_dev_sim_install_fault_handling(void) {
#if defined(RF_SIM)
  rf_sim_install_fault_handling();
#endif
}

extern "C" int rf_dev_sim_in_kernel_thread(void) {
#if defined(RF_SIM)
  return rf_sim_in_kernel_thread();
#else
  return 0;
#endif
}

extern "C" void rf_dev_sim_end_kernel_thread(const char *what) {
#if defined(RF_SIM)
  rf_sim_end_kernel_thread(what);
#else
  (void)what;
#endif
}

extern "C" void rf_dev_sim_set_threads(unsigned threads) {
#if defined(RF_SIM)
  rf_sim_set_threads(threads);
#else
  (void)threads;
#endif
}

extern "C" unsigned rf_dev_sim_parallel_stats(unsigned long long *parallel,
                                              unsigned long long *reruns) {
#if defined(RF_SIM)
  *parallel = rf_sim_parallel_launches();
  *reruns = rf_sim_parallel_reruns();
  return rf_sim_threads();
#else
  (void)parallel;
  (void)reruns;
  return 0;
#endif
}

extern "C" int rf_dev_sim_target_nvidia(void) {
#if defined(RF_SIM)
  return rf_sim_target() == RF_SIM_TARGET_NVIDIA;
#else
  return 0;
#endif
}

extern "C" uintptr_t rf_dev_sim_status_address(void) {
#if defined(RF_SIM)
  return rf_sim_status_address();
#else
  return 0;
#endif
}

extern "C" int rf_dev_sim_take_status(char *msg, size_t len) {
#if defined(RF_SIM)
  switch (rf_sim_take_status(msg, len)) {
  case RF_SIM_OK: return RF_DEV_STATUS_OK;
  case RF_SIM_DIVERGENT_BARRIER: return RF_DEV_STATUS_DIVERGENT_BARRIER;
  case RF_SIM_RACE: return RF_DEV_STATUS_RACE;
  case RF_SIM_TIMEOUT: return RF_DEV_STATUS_TIMEOUT;
  case RF_SIM_OOB: return RF_DEV_STATUS_OOB;
  case RF_SIM_CRASH:
    if (g_fault_loses_device && !g_lost) g_lost = RF_ERR_ILLEGAL_ADDRESS;
    return RF_DEV_STATUS_CRASH;
  case RF_SIM_LAUNCH_CONTRACT: return RF_DEV_STATUS_LAUNCH_CONTRACT;
  case RF_SIM_INPUT_WRITTEN: return RF_DEV_STATUS_INPUT_WRITTEN;
  case RF_SIM_INTERRUPTED: return RF_DEV_STATUS_INTERRUPTED;
  default: return RF_DEV_STATUS_LAUNCH_ERROR;
  }
#else
  if (len) msg[0] = 0;
  return RF_DEV_STATUS_OK;
#endif
}

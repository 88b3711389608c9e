/* ThreadSanitizer integration: a race report raised while a kernel runs becomes the status
 * RF_SIM_RACE with the source lines of both accesses; default options keep the process
 * running and report every launch's race, not only the first in the process. Compiled to
 * (almost) nothing outside the ThreadSanitizer build. */
#include "engine.h"
#include "status.h"

void rf_sim::race_reporting_linked() {}

#if defined(RF_TSAN) && RF_TSAN
#include <stdio.h>

extern "C" {
int __tsan_get_report_data(void *report, const char **description, int *count, int *stack_count,
                           int *mop_count, int *loc_count, int *mutex_count, int *thread_count,
                           int *unique_tid_count, void **sleep_trace, unsigned long trace_size);
int __tsan_get_report_mop(void *report, unsigned long idx, int *tid, void **addr, int *size,
                          int *write, int *atomic, void **trace, unsigned long trace_size);
void __sanitizer_symbolize_pc(void *pc, const char *fmt, char *out_buf, size_t out_buf_size);
}

namespace __tsan {
struct ReportDesc;
/* A weak hook of the ThreadSanitizer runtime (tsan_rtl_report.cpp, OutputReport): called
 * for each report after symbolisation and before printing; returning true drops it. */
bool OnReport(const ReportDesc *rep, bool suppressed);
/* Likewise (tsan_rtl.cpp, Finalize): decides whether the process exits with a failure. */
bool OnFinalize(bool failed);
}  // namespace __tsan

#define RF_SIM_UNTRACKED __attribute__((no_sanitize("thread")))
/* For what runs inside the report hook: no_sanitize("thread") still leaves the function's
 * entry and exit traced (for stack traces) when the file is instrumented; this removes
 * every trace of instrumentation (clang >= 14). */
#if __has_attribute(disable_sanitizer_instrumentation)
#define RF_SIM_IN_REPORT __attribute__((disable_sanitizer_instrumentation))
#else
#define RF_SIM_IN_REPORT RF_SIM_UNTRACKED
#endif

/* The report hook runs while the runtime holds its report locks (ctx->slot_mtx among
 * them). Any event traced from inside it (an instrumented function's entry or access, an
 * intercepted call: a mutex, strcmp, snprintf, malloc) that happens to fill the thread's
 * trace part makes the runtime allocate a new part, which takes slot_mtx again: the process
 * hangs (seen in redfuzz replay with the simulator built instrumented, through short_path).
 * So the hook and the two helpers it calls are built without any instrumentation
 * (RF_SIM_IN_REPORT) and call no other simulator function, no library function and no
 * std::atomic member: they copy PCs and indices into the static slot below with plain
 * stores and __atomic builtins. Symbolising and formatting happen when the status record
 * takes the race (take_deferred_race, from rf_sim_take_status or the next problem
 * recorded), outside any report. */
namespace {
// Reports that were printed and did not come from a kernel: they still fail the process.
int other_reports;
// Kernel races already printed, by the pair of access PCs: printed once per process,
// recorded in the status at every launch.
constexpr int kPrintedMax = 256;
void *printed[kPrintedMax][2];
int nprinted;

// The first kernel race since the last take. The hook fills it only when empty (the first
// problem wins) and publishes it with a release store; the taker reads it after an acquire.
enum : int { kEmpty, kFilling, kFull };
struct DeferredRace {
  int state;  // __atomic builtins only
  void *pc[2];
  bool write[2], atomic[2];
  rf_sim_uint3 block, thread;  // of the current (first) access
};
DeferredRace deferred;

RF_SIM_IN_REPORT bool already_printed(void *a, void *b) {
  for (int i = 0; i < nprinted; i++)
    if ((printed[i][0] == a && printed[i][1] == b) || (printed[i][0] == b && printed[i][1] == a))
      return true;
  if (nprinted < kPrintedMax) {
    printed[nprinted][0] = a;
    printed[nprinted][1] = b;
    nprinted++;
  }
  return false;
}

// strcmp is intercepted: not usable inside the hook.
RF_SIM_IN_REPORT bool same_text(const char *a, const char *b) {
  while (*a && *a == *b) a++, b++;
  return *a == *b;
}

/* "file:line" of the first frame of pc, the project root prefix stripped. */
RF_SIM_UNTRACKED void source_line(void *pc, char *out, size_t len) {
  char buf[512];
  buf[0] = '\0';
  __sanitizer_symbolize_pc(pc, "%s:%l", buf, sizeof buf);
  snprintf(out, len, "%s", rf_sim::short_path(buf));
}

RF_SIM_UNTRACKED const char *access_kind(bool write, bool atomic) {
  return atomic ? (write ? "atomic write" : "atomic read") : (write ? "write" : "read");
}
}  // namespace

RF_SIM_UNTRACKED bool rf_sim::take_deferred_race(char *text, size_t len) {
  if (__atomic_load_n(&deferred.state, __ATOMIC_ACQUIRE) != kFull) return false;
  char where[2][256];
  for (int i = 0; i < 2; i++) source_line(deferred.pc[i], where[i], sizeof where[i]);
  // Current access first, then the earlier one it conflicts with.
  const rf_sim_uint3 &b = deferred.block, &t = deferred.thread;
  snprintf(text, len, "race: %s at %s (block (%u,%u,%u) thread (%u,%u,%u)) and earlier %s at %s",
           access_kind(deferred.write[0], deferred.atomic[0]), where[0], b.x, b.y, b.z, t.x, t.y,
           t.z, access_kind(deferred.write[1], deferred.atomic[1]), where[1]);
  __atomic_store_n(&deferred.state, kEmpty, __ATOMIC_RELEASE);
  return true;
}

RF_SIM_UNTRACKED bool rf_sim::race_pending() {
  return __atomic_load_n(&deferred.state, __ATOMIC_ACQUIRE) == kFull;
}

RF_SIM_IN_REPORT bool __tsan::OnReport(const ReportDesc *rep, bool suppressed) {
  if (suppressed) return true;
  rf_sim::Engine &e = rf_sim::engine();
  void *r = const_cast<ReportDesc *>(rep);
  const char *desc = "";
  int count = 0, stacks = 0, mops = 0, locs = 0, mutexes = 0, threads = 0, tids = 0;
  void *sleep_trace[1];
  __tsan_get_report_data(r, &desc, &count, &stacks, &mops, &locs, &mutexes, &threads, &tids,
                         sleep_trace, 1);
  rf_sim::Fiber *cur = e.current.get();
  bool in_kernel = e.in_launch && cur && cur != &e.host;
  if (!in_kernel || !same_text(desc, "data-race") || mops < 2) {
    other_reports++;
    return false;
  }
  void *pcs[2];
  int write[2], atomic[2];
  for (int i = 0; i < 2; i++) {
    int tid = 0, size = 0;
    void *addr = nullptr, *trace[4] = {nullptr, nullptr, nullptr, nullptr};
    write[i] = atomic[i] = 0;
    __tsan_get_report_mop(r, static_cast<unsigned long>(i), &tid, &addr, &size, &write[i],
                          &atomic[i], trace, 4);
    pcs[i] = trace[0];
  }
  int expected = kEmpty;
  if (__atomic_compare_exchange_n(&deferred.state, &expected, kFilling, false, __ATOMIC_ACQUIRE,
                                  __ATOMIC_RELAXED)) {
    for (int i = 0; i < 2; i++) {
      deferred.pc[i] = pcs[i];
      deferred.write[i] = write[i] != 0;
      deferred.atomic[i] = atomic[i] != 0;
    }
    deferred.block = cur->view.block_idx;
    deferred.thread = cur->view.thread_idx;
    __atomic_store_n(&deferred.state, kFull, __ATOMIC_RELEASE);
  }
  return already_printed(pcs[0], pcs[1]);
}

/* Kernel races are verdicts, not failures of the program: the exit status reflects only
 * the other reports. (Overrides the runtime's weak __tsan::OnFinalize; the documented
 * __tsan_on_finalize is looked up with dlsym and would need an exported symbol.) */
RF_SIM_UNTRACKED bool __tsan::OnFinalize(bool failed) { return failed && other_reports > 0; }

/* halt_on_error=0: keep running after a report. report_signal_unsafe=0: no reports about
 * the runtime's own signal handlers. suppress_equal_*=0: a race is detected again at every
 * launch (OnReport keeps the output to one print per pair of lines). The environment's
 * TSAN_OPTIONS still override these. */
extern "C" const char *__tsan_default_options() {
  return "halt_on_error=0:report_signal_unsafe=0:suppress_equal_stacks=0:"
         "suppress_equal_addresses=0";
}
#else
bool rf_sim::take_deferred_race(char *, size_t) { return false; }
bool rf_sim::race_pending() { return false; }
#endif

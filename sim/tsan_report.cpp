/* ThreadSanitizer integration: a race report raised while a kernel runs becomes the status
 * RF_SIM_RACE with the source lines of both accesses; default options keep the process
 * running and report every launch's race, not only the first in the process. Compiled to
 * nothing outside the ThreadSanitizer build. */
#include "engine.h"

void rf_sim::race_reporting_linked() {}

#if defined(RF_TSAN) && RF_TSAN
#include <stdio.h>
#include <string.h>
#include "status.h"

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

namespace {
// Reports that were printed and did not come from a kernel: they still fail the process.
int other_reports;
// Kernel races already printed, by the pair of access PCs: printed once per process,
// recorded in the status at every launch.
constexpr int kPrintedMax = 256;
void *printed[kPrintedMax][2];
int nprinted;

RF_SIM_UNTRACKED bool already_printed(void *a, void *b) {
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

/* "file:line" of the first frame of pc, the project root prefix stripped. */
RF_SIM_UNTRACKED void source_line(void *pc, char *out, size_t len) {
  char buf[512];
  buf[0] = '\0';
  __sanitizer_symbolize_pc(pc, "%s:%l", buf, sizeof buf);
  const char *s = rf_sim::short_path(buf);
  size_t n = 0;
  while (s[n] && n + 1 < len) {
    out[n] = s[n];
    n++;
  }
  out[n] = '\0';
}
}  // namespace

RF_SIM_UNTRACKED bool __tsan::OnReport(const ReportDesc *rep, bool suppressed) {
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
  if (!in_kernel || strcmp(desc, "data-race") != 0 || mops < 2) {
    other_reports++;
    return false;
  }
  char where[2][160];
  const char *kind[2];
  void *pcs[2];
  for (int i = 0; i < 2; i++) {
    int tid = 0, size = 0, write = 0, atomic = 0;
    void *addr = nullptr, *trace[4] = {nullptr, nullptr, nullptr, nullptr};
    __tsan_get_report_mop(r, static_cast<unsigned long>(i), &tid, &addr, &size, &write, &atomic,
                          trace, 4);
    pcs[i] = trace[0];
    kind[i] = atomic ? (write ? "atomic write" : "atomic read") : (write ? "write" : "read");
    source_line(trace[0], where[i], sizeof where[i]);
  }
  // Current access first, then the earlier one it conflicts with.
  char text[480];
  const rf_sim::ThreadView &v = cur->view;
  snprintf(text, sizeof text,
           "race: %s at %s (block (%u,%u,%u) thread (%u,%u,%u)) and earlier %s at %s", kind[0],
           where[0], v.block_idx.x, v.block_idx.y, v.block_idx.z, v.thread_idx.x, v.thread_idx.y,
           v.thread_idx.z, kind[1], where[1]);
  rf_sim::status_report_text(RF_SIM_RACE, text);
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
#endif

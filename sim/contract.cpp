/* The launch contract checked on the host runtime's calls (sim_control.h,
 * rf_sim_contract_begin; docs/SIMULATOR.md, "The launch contract"). A variant's launch
 * function runs on the host thread that opened the window; the calls it makes through
 * sim_hip_runtime.h (and the kernel launches of sim_port.h) ask here whether they break the
 * contract. Only the first breach of a launch is recorded (the status keeps the first
 * problem); the call itself goes on, so a breach never changes what the launch computes. */
#include <stdint.h>
#include <stdio.h>
#include "engine.h"
#include "sim_control.h"
#include "status.h"

namespace {

/* The window of the calling host thread: open, and the stream the launch was given. */
struct Window {
  bool open = false;
  hipStream_t stream = nullptr;
};
thread_local Window window;

/* The call site the macros of sim_hip_runtime.h pass just before the call (consumed by it, so
 * a call made through a function pointer has none). */
thread_local const char *site_file = nullptr;
thread_local int site_line = 0;

/* The runner's streams: objects of their own, never dereferenced. */
struct rf_sim_stream_obj {
  unsigned char unused;
};
rf_sim_stream_obj streams[8];

void breach(const char *what, const char *why, const char *file, int line) {
  if (file)
    rf_sim::status_report(RF_SIM_LAUNCH_CONTRACT, "launch contract: %s inside launch at %s:%d (%s)",
                          what, rf_sim::short_path(file), line, why);
  else
    rf_sim::status_report(RF_SIM_LAUNCH_CONTRACT, "launch contract: %s inside launch (%s)",
                          what, why);
}

/* The site passed for this call, cleared for the next. */
void take_site(const char **file, int *line) {
  *file = site_file;
  *line = site_line;
  site_file = nullptr;
  site_line = 0;
}

}  // namespace

namespace rf_sim {

void contract_forbidden(const char *call, const char *why) {
  const char *file;
  int line;
  take_site(&file, &line);
  if (window.open) breach(call, why, file, line);
}

void contract_stream(const char *call, hipStream_t stream, const char *file, int line) {
  const char *f;
  int l;
  take_site(&f, &l);
  if (!file) file = f, line = l;
  if (!window.open || stream == window.stream) return;
  char what[160];
  if (!stream)
    snprintf(what, sizeof what, "%s on the default stream (stream 0)", call);
  else
    snprintf(what, sizeof what, "%s on a stream other than a->stream", call);
  breach(what, "launch enqueues its work on a->stream only", file, line);
}

}  // namespace rf_sim

extern "C" {

void rf_sim_call_site(const char *file, int line) {
  site_file = file;
  site_line = line;
}

void rf_sim_contract_begin(void *stream) {
  window.open = true;
  window.stream = static_cast<hipStream_t>(stream);
}

void rf_sim_contract_end(void) {
  window.open = false;
  window.stream = nullptr;
}

void *rf_sim_stream(unsigned i) { return &streams[i % (sizeof streams / sizeof streams[0])]; }

}  // extern "C"

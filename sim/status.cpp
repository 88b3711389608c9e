#include "status.h"
#include <stdio.h>
#include <string.h>
#include <mutex>
#include "sim_control.h"

#if defined(__clang__) || defined(__GNUC__)
#define RF_SIM_UNTRACKED __attribute__((no_sanitize("thread")))
#else
#define RF_SIM_UNTRACKED
#endif

namespace rf_sim {

static std::mutex status_mutex;  // launches from several host threads are serialised too
static int status_code;
static char status_msg[512];
// status_note_write's, until a problem is stored; then the record's, until taken.
static volatile uintptr_t pending_addr;
static const void *volatile pending_pc;
static uintptr_t status_addr, taken_addr;
static const void *status_pc, *taken_pc;

RF_SIM_UNTRACKED void status_note_write(const void *addr, const void *pc) {
  pending_addr = reinterpret_cast<uintptr_t>(addr);
  pending_pc = pc;
}

RF_SIM_UNTRACKED static void store(int code, const char *text) {
  const uintptr_t addr = pending_addr;
  const void *pc = pending_pc;
  pending_addr = 0;
  pending_pc = nullptr;
  if (status_code != RF_SIM_OK) return;  // the first problem wins
  status_code = code;
  status_addr = code == RF_SIM_INPUT_WRITTEN ? addr : 0;
  status_pc = code == RF_SIM_INPUT_WRITTEN ? pc : nullptr;
  size_t n = 0;
  while (text[n] && n + 1 < sizeof status_msg) {
    status_msg[n] = text[n];
    n++;
  }
  status_msg[n] = '\0';
}

/* A race recorded by the report hook happened before whatever is stored or taken now. */
RF_SIM_UNTRACKED static void store_deferred_race() {
  char text[sizeof status_msg];
  if (take_deferred_race(text, sizeof text)) store(RF_SIM_RACE, text);
}

RF_SIM_UNTRACKED void status_report_text(int code, const char *text) {
  std::lock_guard<std::mutex> lock(status_mutex);
  store_deferred_race();
  store(code, text);
}

void status_vreport(int code, const char *fmt, va_list ap) {
  char text[sizeof status_msg];
  vsnprintf(text, sizeof text, fmt, ap);
  status_report_text(code, text);
}

void status_report(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  status_vreport(code, fmt, ap);
  va_end(ap);
}

RF_SIM_UNTRACKED int status_take(char *msg, size_t len) {
  std::lock_guard<std::mutex> lock(status_mutex);
  store_deferred_race();
  int code = status_code;
  if (msg && len) {
    size_t n = 0;
    while (status_msg[n] && n + 1 < len) {
      msg[n] = status_msg[n];
      n++;
    }
    msg[n] = '\0';
  }
  status_code = RF_SIM_OK;
  status_msg[0] = '\0';
  taken_addr = status_addr;
  taken_pc = status_pc;
  status_addr = 0;
  status_pc = nullptr;
  return code;
}

uintptr_t status_taken_address() { return taken_addr; }
const void *status_taken_pc() { return taken_pc; }

}  // namespace rf_sim

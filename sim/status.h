/* The problem record behind rf_sim_take_status: the first problem since the last take.
 * Its storage is invisible to ThreadSanitizer (uninstrumented functions), so fibers can
 * write it without the record creating happens-before edges between GPU threads.
 * Nothing here may be called from inside a sanitizer report: the race reporter records a
 * race in its own lock-free slot instead, and the record takes it (take_deferred_race)
 * before anything later is stored or read, so "first problem wins" still holds. */
#ifndef RF_SIM_STATUS_H
#define RF_SIM_STATUS_H
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

namespace rf_sim {

void status_report(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void status_vreport(int code, const char *fmt, va_list ap);
/* Records a message that is already formatted (no formatting, no allocation; takes a lock,
 * so not for ThreadSanitizer's report hook). */
void status_report_text(int code, const char *text);
int status_take(char *msg, size_t len);
/* A write into a read-only input (faults.cpp): the address written and the faulting
 * instruction, kept with the next problem recorded if it is RF_SIM_INPUT_WRITTEN (set just
 * before abandoning the launch; async-signal-safe: two stores). */
void status_note_write(const void *addr, const void *pc);
/* The address and instruction that came with the problem status_take last returned (0 and
 * null for any other problem). */
uintptr_t status_taken_address();
const void *status_taken_pc();

/* ThreadSanitizer build: if a kernel race was recorded since the last call, writes its
 * message ("race: …") to text, clears the record and returns true. Always false in other
 * builds (tsan_report.cpp). */
bool take_deferred_race(char *text, size_t len);
/* Whether such a race is recorded and not yet taken (a load; false in other builds): the
 * launch then ends at its next switch (engine.cpp, count_switch). */
bool race_pending();

}  // namespace rf_sim
#endif

/* The problem record behind rf_sim_take_status: the first problem since the last take.
 * Its storage is invisible to ThreadSanitizer (uninstrumented functions), so the race
 * reporter can write it from inside a report and fibers can write it without the record
 * creating happens-before edges between GPU threads. */
#ifndef RF_SIM_STATUS_H
#define RF_SIM_STATUS_H
#include <stdarg.h>
#include <stddef.h>

namespace rf_sim {

void status_report(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void status_vreport(int code, const char *fmt, va_list ap);
/* Records a message that is already formatted (safe inside a sanitizer report callback:
 * no formatting, no allocation). */
void status_report_text(int code, const char *text);
int status_take(char *msg, size_t len);

}  // namespace rf_sim
#endif

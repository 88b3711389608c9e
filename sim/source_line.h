/* The source line of a kernel instruction (source_line.cpp), for the plain build's fault
 * reports. Host code only: never from a signal handler (it starts addr2line). */
#ifndef RF_SIM_SOURCE_LINE_H
#define RF_SIM_SOURCE_LINE_H
#include <stddef.h>

namespace rf_sim {

/* "path:line" of the instruction at pc (the project root stripped) into out; false when it
 * cannot be found (no addr2line, no debug information), out then untouched. Each distinct pc
 * is looked up once. */
bool source_line_of(const void *pc, char *out, size_t len);

}  // namespace rf_sim
#endif

/* Out of host (or device) memory where the work cannot go on without it: an error exit with a
 * message, never a crash on a NULL pointer or GMP's abort(). Exit status 2: the case asks for
 * more memory than this process has (docs/CLI.md, "Exit status"). The simulator's own mappings
 * say the same through sim/oom.cpp. */
#ifndef RF_OOM_H
#define RF_OOM_H
#include <stddef.h>
#ifdef __cplusplus
extern "C" {
#endif

/* Prints "redfuzz: out of memory: <what> (<bytes> bytes) ..." and exits with status 2. */
_Noreturn void rf_oom_exit(const char *what, size_t bytes);

#ifdef __cplusplus
}
#endif
#endif

/* Why a case went to the host path (run/host_reasons.def): the ids, their names and help, and
 * the profile lines that print the runner's counts and host milliseconds per reason. */
#ifndef RF_HOST_REASON_H
#define RF_HOST_REASON_H
#include <stdio.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
#define RF_HOST_REASON(id, name, help) RF_HOST_##id,
#include "host_reasons.def"
#undef RF_HOST_REASON
  RF_HOST_COUNT,
  RF_HOST_NONE = RF_HOST_COUNT   /* wholly on the device */
} rf_host_reason;

const char *rf_host_reason_name(rf_host_reason why);
const char *rf_host_reason_help(rf_host_reason why);
/* One "<prefix>host path: <reason> N cases, M ms" line per reason with a count. */
void rf_host_reasons_print(FILE *f, const char *prefix, const unsigned long long *cases,
                           const double *ms);

#ifdef __cplusplus
}
#endif
#endif

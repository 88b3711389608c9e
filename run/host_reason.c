/* Names and profile lines of the host path's reasons (host_reason.h, host_reasons.def). */
#include "host_reason.h"

static const char *const names[RF_HOST_COUNT] = {
#define RF_HOST_REASON(id, name, help) name,
#include "host_reasons.def"
#undef RF_HOST_REASON
};
static const char *const helps[RF_HOST_COUNT] = {
#define RF_HOST_REASON(id, name, help) help,
#include "host_reasons.def"
#undef RF_HOST_REASON
};

const char *rf_host_reason_name(rf_host_reason why) {
  return why < RF_HOST_COUNT ? names[why] : "none";
}
const char *rf_host_reason_help(rf_host_reason why) {
  return why < RF_HOST_COUNT ? helps[why] : "made and judged on the device";
}

void rf_host_reasons_print(FILE *f, const char *prefix, const unsigned long long *cases,
                           const double *ms) {
  for (int i = 0; i < RF_HOST_COUNT; i++)
    if (cases[i])
      fprintf(f, "%shost path: %s %llu cases, %.1f ms\n", prefix, names[i], cases[i], ms[i]);
}

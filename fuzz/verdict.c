#include <string.h>
#include "verdict.h"

static const char *const names[RF_V_COUNT] = {
  "pass", "wrong", "nonfinite", "unwritten", "oob", "nondeterministic", "race",
  "divergent-barrier", "launch-error", "timeout", "unsupported", "crash",
};

const char *rf_verdict_name(rf_verdict v) {
  return (unsigned)v < RF_V_COUNT ? names[v] : "?";
}

int rf_verdict_parse(const char *s, rf_verdict *out) {
  for (int i = 0; i < RF_V_COUNT; i++)
    if (strcmp(s, names[i]) == 0) { *out = (rf_verdict)i; return 0; }
  return -1;
}

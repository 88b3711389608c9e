/* Verdict names and meanings from model/verdicts.def. */
#include <stdio.h>
#include <string.h>
#include "verdict.h"

static const char *const names[RF_V_COUNT] = {
#define RF_VERDICT(id, name, failure, sim_only, meaning) name,
#include "verdicts.def"
#undef RF_VERDICT
};
static const char *const meanings[RF_V_COUNT] = {
#define RF_VERDICT(id, name, failure, sim_only, meaning) meaning,
#include "verdicts.def"
#undef RF_VERDICT
};

const char *rf_verdict_name(rf_verdict v) { return (unsigned)v < RF_V_COUNT ? names[v] : "?"; }
const char *rf_verdict_meaning(rf_verdict v) {
  return (unsigned)v < RF_V_COUNT ? meanings[v] : "?";
}

int rf_verdict_parse(const char *s, rf_verdict *out) {
  for (int i = 0; s && i < RF_V_COUNT; i++)
    if (strcmp(s, names[i]) == 0) { *out = (rf_verdict)i; return 0; }
  return -1;
}

const char *rf_verdict_list(void) {
  static char buf[RF_V_COUNT * 24];
  size_t o = 0;
  if (buf[0]) return buf;
  for (int i = 0; i < RF_V_COUNT; i++)
    o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s", i ? ", " : "", names[i]);
  return buf;
}

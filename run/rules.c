/* Contract rule names (run/rules.h). */
#include "rules.h"
#include <string.h>

static const char *const names[RF_RULE_COUNT] = {
#define RF_RULE(id, name, meaning) name,
#include "rules.def"
#undef RF_RULE
};

const char *rf_rule_name(rf_rule r) { return (unsigned)r < RF_RULE_COUNT ? names[r] : ""; }

int rf_rule_parse(const char *s, rf_rule *out) {
  for (unsigned i = 1; i < RF_RULE_COUNT; i++)
    if (strcmp(s, names[i]) == 0) {
      *out = (rf_rule)i;
      return 0;
    }
  return -1;
}

const char *rf_rule_list(void) {
  static char buf[256];
  if (!buf[0])
    for (unsigned i = 1; i < RF_RULE_COUNT; i++) {
      if (i > 1) strncat(buf, ", ", sizeof buf - strlen(buf) - 1);
      strncat(buf, names[i], sizeof buf - strlen(buf) - 1);
    }
  return buf;
}

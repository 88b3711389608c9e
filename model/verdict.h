/* Verdicts (docs/ARCHITECTURE.md, "Vocabulary"), from their table model/verdicts.def. */
#ifndef RF_VERDICT_H
#define RF_VERDICT_H
#ifdef __cplusplus
extern "C" {
#endif
typedef enum {
#define RF_VERDICT(id, name, failure, sim_only, meaning) RF_V_##id,
#include "verdicts.def"
#undef RF_VERDICT
  RF_V_COUNT
} rf_verdict;
const char *rf_verdict_name(rf_verdict v);
/* One line on what the verdict means. */
const char *rf_verdict_meaning(rf_verdict v);
/* 0 and *out set, or -1 for an unknown name. */
int rf_verdict_parse(const char *s, rf_verdict *out);
/* "pass, wrong, ..." for messages and help. */
const char *rf_verdict_list(void);
/* The table's failure column: pass and unsupported are not failures. */
static inline int rf_verdict_is_failure(rf_verdict v) {
  switch (v) {
#define RF_VERDICT(id, name, failure, sim_only, meaning) case RF_V_##id: return failure;
#include "verdicts.def"
#undef RF_VERDICT
  default: return 1;   /* out of range: never taken as a pass */
  }
}
/* The table's sim_only column: race and divergent-barrier, which no GPU reports. */
static inline int rf_verdict_sim_only(rf_verdict v) {
  switch (v) {
#define RF_VERDICT(id, name, failure, sim_only, meaning) case RF_V_##id: return sim_only;
#include "verdicts.def"
#undef RF_VERDICT
  default: return 0;
  }
}
#ifdef __cplusplus
}
#endif
#endif

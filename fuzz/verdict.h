/* Verdicts (DESIGN.md vocabulary). */
#ifndef RF_VERDICT_H
#define RF_VERDICT_H
#ifdef __cplusplus
extern "C" {
#endif
typedef enum {
  RF_V_PASS, RF_V_WRONG, RF_V_NONFINITE, RF_V_UNWRITTEN, RF_V_OOB, RF_V_NONDETERMINISTIC,
  RF_V_RACE, RF_V_DIVERGENT_BARRIER, RF_V_LAUNCH_ERROR, RF_V_TIMEOUT, RF_V_UNSUPPORTED,
  RF_V_CRASH, /* the kernel faulted (signal in the simulator); the run goes on */
  RF_V_COUNT
} rf_verdict;
const char *rf_verdict_name(rf_verdict v);
/* 0 and *out set, or -1 for an unknown name. */
int rf_verdict_parse(const char *s, rf_verdict *out);
/* pass and unsupported are not failures; everything else is. */
static inline int rf_verdict_is_failure(rf_verdict v) {
  return v != RF_V_PASS && v != RF_V_UNSUPPORTED;
}
#ifdef __cplusplus
}
#endif
#endif

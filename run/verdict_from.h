/* Where the result of a variant judged from its device record comes from (dev_verdicts.c),
 * also read by the background re-check of row ops (recheck_rows.c). */
#ifndef RF_VERDICT_FROM_H
#define RF_VERDICT_FROM_H
typedef enum {
  RF_FROM_HOST = 0,      /* the host path must judge it (a failure, or undecided) */
  RF_FROM_RECORD = 1,    /* final, from the record (a pass) */
  RF_FROM_DISAGREE = 2   /* the device's own decision contradicts the host judge's */
} rf_verdict_from;
#endif

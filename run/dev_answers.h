/* Exact answers of 1-D cases made on the device (dev_answers.c; docs/RUNNER.md, "A batch, stage by stage"):
 * the oracle's launch, its record read back with the batch, the sampled host re-checks (in
 * the batch, or on the background session), and the confirmation of a failure's answer.
 * The stage owns its settings, its scratch slot and its counters; the arena it adds slots to
 * and the background session are the runner's, lent at init. */
#ifndef RF_DEV_ANSWERS_H
#define RF_DEV_ANSWERS_H
#include "runner_internal.h"

typedef struct {
  rf_arena *arena;           /* lent: the batch's arena */
  rf_recheck_bg *bg;         /* lent: the background re-check session */
  unsigned long every;       /* REDFUZZ_ORACLE_RECHECK: 1 answer in this many re-checked */
  int plant;                 /* REDFUZZ_DEVICE_ORACLE_PLANT=1 (tests the re-check) */
  int scratch_slot;          /* the oracles' shared scratch in this batch, or -1 */
  rf_host_buf x;             /* a device-made input made again on the host */
  unsigned long long cases, rechecks;   /* answers made here; re-checked in the batch, agreed */
  double ms_recheck;         /* host time of the re-checks made in the batch */
  char why[320];             /* a launch's failure (harness_check.h), for the caller */
} rf_dev_answers;

void rf_dev_answers_init(rf_dev_answers *da, rf_arena *arena, rf_recheck_bg *bg,
                         const rf_settings *set);
void rf_dev_answers_free(rf_dev_answers *da);
/* One record slot per case answered here (fetched with the outputs: call it between the
 * output slots and the others) and the shared scratch slot. 0, or -1 when out of host memory. */
int rf_dev_answers_slots(rf_dev_answers *da, batch_case *bcs, size_t nc);
/* After the inputs: each answer's launch on the default stream. NULL or what failed. */
const char *rf_dev_answers_launch(rf_dev_answers *da, batch_case *bcs, size_t nc);
/* After the fetch: the records into the answers, the sampled ones re-checked. NULL, or the
 * harness failure for the whole batch. */
const char *rf_dev_answers_collect(rf_dev_answers *da, batch_case *bcs, size_t nc);
/* After the verdicts: a failure against an answer not yet re-checked is re-checked now; a
 * disagreement goes into bc->harness, and rf_dev_answers_harness makes every result of that
 * case the harness failure. */
void rf_dev_answers_confirm(rf_dev_answers *da, batch_case *bc, const rf_result *res);
void rf_dev_answers_harness(const batch_case *bc, rf_result *res);
#endif

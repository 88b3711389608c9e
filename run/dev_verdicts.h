/* Verdicts made on the device (dev_verdicts.c; docs/RUNNER.md, "A batch, stage by stage"): a batch routed to
 * RF_VERDICT_DEVICE_RECORDS or RF_VERDICT_ROW_SUMMARIES gets one record per variant (and a
 * row op's summary), read back instead of the outputs; a record that shows nothing wrong
 * gives the result, anything else goes to the host path; sampled batches are judged both ways
 * and compared (row ops: on the background session, recheck_rows.c). The stage owns its
 * settings, this batch's slots and buffers, the row judges' device buffer and its counters;
 * the arena, the host oracle (a row op's answer made on the host after all) and the
 * background session are the runner's, lent at init. */
#ifndef RF_DEV_VERDICTS_H
#define RF_DEV_VERDICTS_H
#include "runner_internal.h"

typedef struct {
  rf_arena *arena;               /* lent: the batch's arena */
  rf_oracle_ctx *oracle;         /* lent: the host oracle */
  rf_recheck_bg *bg;             /* lent: the background re-check session */
  unsigned long every;           /* REDFUZZ_VERDICT_RECHECK: 1 batch in this many also on the host */
  int plant;                     /* REDFUZZ_DEVICE_VERDICT_PLANT=1 (tests the re-checks) */
  uint32_t row_chunk;            /* rows judged per launch (REDFUZZ_ROW_CHUNK; 0: derived) */
  /* this batch */
  int on;                        /* judged from its records (its cases' route) */
  int rec_slot, item_slot;       /* its records (fetched) and item descriptions (uploaded) */
  int smd_rec_slot;              /* row ops: a summary of each variant's rows (fetched) */
  size_t n;                      /* its variants (records) */
  size_t max_ob;                 /* its largest output */
  const pending *ps;             /* its variants (row ops: summary i is ps[i]'s) */
  int recheck_now;               /* also judged on the host and compared */
  rf_host_buf items, res, host, rowj;
  /* row ops: the device oracle's y and row facts, then one chunk's per-row records
   * (persistent; never read back) */
  void *smd_dev;
  size_t smd_cap, smd_rec_off;
  /* counters (rf_runner_stats: verdict_*, softmax_device_*, log_device_*) */
  unsigned long long batches, device_runs, host_runs, rechecks;
  unsigned long long softmax_cases, softmax_to_host, log_cases, log_to_host;
  double ms_recheck;             /* host time of the re-checks (also the host path's part) */
  char why[320];                 /* a launch's failure (harness_check.h), for the caller */
} rf_dev_verdicts;

void rf_dev_verdicts_init(rf_dev_verdicts *dv, rf_arena *arena, rf_oracle_ctx *oracle,
                          rf_recheck_bg *bg, const rf_settings *set);
void rf_dev_verdicts_free(rf_dev_verdicts *dv);
/* The record slot (and a row op's summary slot) of a batch of n variants judged `batch`; call
 * it right before rf_dev_answers_slots (records and answers then come back in one copy).
 * 0, or -1 when out of host memory. */
int rf_dev_verdicts_slots(rf_dev_verdicts *dv, rf_route_verdict batch, size_t n);
/* After every other slot: each variant's layout as the kernel reads it. 0, or -1. */
int rf_dev_verdicts_items(rf_dev_verdicts *dv, const batch_case *bcs, size_t nc,
                          const pending *ps, size_t n);
/* After the batch's launches: the check kernels. NULL or the harness failure. */
const char *rf_dev_verdicts_launch(rf_dev_verdicts *dv);
/* After the synchronisation: records and device answers in one copy. NULL or what failed. */
const char *rf_dev_verdicts_fetch(rf_dev_verdicts *dv, const batch_case *bcs, size_t nc);
/* Every result a record decides; returns the variants left to the host path (*n_host). */
pending *rf_dev_verdicts_judge(rf_dev_verdicts *dv, pending *ps, size_t n, size_t *n_host);
/* After the host path: a re-check batch's results compared byte for byte. */
void rf_dev_verdicts_finish(rf_dev_verdicts *dv, pending *ps, size_t n);

#endif

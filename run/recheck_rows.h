/* A row op's verdict re-check on the background session (recheck_rows.c), for the verdicts
 * stage (dev_verdicts.c). */
#ifndef RF_RECHECK_ROWS_H
#define RF_RECHECK_ROWS_H
#include "runner_internal.h"

/* The host's judgement of the variants of ps given from their records (how[i]: each one's
 * rf_verdict_from, verdict_from.h) onto bg; a record whose guards, poison or repeat the host
 * sees otherwise (in arena a) becomes a disagreement now (how[i] = RF_FROM_DISAGREE, dev[i]
 * its result). *rechecks counts the results the job confirms, when it is taken. 0 when queued
 * (or nothing to re-check), -1 when the caller must re-check now (too big, out of memory, no
 * read-back). */
int rf_recheck_rows_queue(rf_arena *a, rf_recheck_bg *bg, unsigned long long *rechecks,
                          const pending *ps, size_t n, unsigned char *how, rf_result *dev);
#endif

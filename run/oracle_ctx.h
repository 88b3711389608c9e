/* What the host oracle and the host judges work on (judge.c, judge_log.c): the buffers of the
 * row ops' exact answers, the oracle modes, and the counters of where rows came from. The
 * runner holds one (its statistics report the counters); the background re-check of row ops
 * makes its own (recheck_rows.c). Nothing of the runner is reached from here. */
#ifndef RF_ORACLE_CTX_H
#define RF_ORACLE_CTX_H
#include <stddef.h>
#include "buffers.h"

/* Rows of softmax and of the log ops: made by the double oracle, by MPFR, or upgraded to
 * MPFR by a judge the double oracle's margin could not decide (rf_runner_stats). */
typedef struct {
  unsigned long long softmax_rows_double, softmax_rows_mpfr, softmax_rows_upgraded;
  unsigned long long lse_rows_double, lse_rows_mpfr, lse_rows_upgraded;
} rf_oracle_counts;

typedef struct {
  rf_host_buf y_exact, row_rel, row_mpfr;   /* softmax, log-softmax: y, the row bounds */
  rf_host_buf lse_rows;     /* logsumexp, logsoftmax: the rows' oracle facts */
  rf_host_buf lse_margin;   /* and the double oracle's margins */
  int mpfr_only;            /* REDFUZZ_SOFTMAX_ORACLE=mpfr: no double oracle (cross-check);
                               softmax and the log ops alike */
  int upgrade_all;          /* REDFUZZ_SOFTMAX_ORACLE=upgrade: every double row counts as
                               undecided, so the MPFR fallback runs (tests it) */
  size_t threads;           /* MPFR-only log rows of big cases: threads (0 or 1: one) */
  rf_oracle_counts counts;
} rf_oracle_ctx;

/* Its buffers (judge.c). */
void rf_oracle_ctx_free(rf_oracle_ctx *oc);
#endif

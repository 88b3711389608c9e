/* redfuzz tolerance for the ops other than sum (cli_tolerance.c parses the flags and runs the
 * sum; tolerance_ops.c the rest): the exact ops (max, argmax: bound 0) and the row ops
 * (softmax, logsumexp, log-softmax: every output's derived bound, run/tol_rows.h). */
#ifndef RF_CLI_TOLERANCE_H
#define RF_CLI_TOLERANCE_H
#include <stddef.h>
#include <stdint.h>
#include "model/case.h"
#include "run/runner.h"

typedef struct {
  rf_op op;
  const rf_variant **vars;
  size_t nv;
  const rf_dist *dists;
  size_t nd;
  unsigned seeds;
  uint64_t n_lo, n_hi;       /* the 1-D ops' sizes */
  uint64_t rows_lo, rows_hi, cols_lo, cols_hi;   /* the row ops' */
} rf_tol_sweep;

/* v rounded up to 3 significant digits, as text ("0" for 0, "inf" for no finite value). */
const char *rf_tol_up3(double v, char *buf, size_t len);
/* Runs the sweep on r and prints the figures; the exit status (0, 1 a failure verdict,
 * 2 bad sizes, 128+signal when interrupted). */
int rf_tolerance_ops(rf_runner *r, const rf_tol_sweep *s);
#endif

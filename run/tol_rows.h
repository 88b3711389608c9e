/* The derived per-output bound of a row op's variant (softmax, logsumexp, log-softmax) for
 * `redfuzz tolerance`: for one case's input, every output's allowed error B as the host judge
 * compares it (run/judge.c, run/judge_log.c: the plan's bound, the backend's exp and log
 * models, a 16-bit output's final rounding), against the MPFR oracle's value w. The judge
 * passes an output when |got - w| <= B, so a test tolerance atol + rtol*|w| >= B for every
 * output holds wherever the judge passes. */
#ifndef RF_TOL_ROWS_H
#define RF_TOL_ROWS_H
#include <stddef.h>
#include "model/case.h"
#include "redfuzz/variant.h"

/* One output: want w (finite), allowed error B, and rel, the part of B that scales with |w|
 * (B <= rel*|w| + the rest; 0 where the bound is absolute: logsumexp). */
typedef struct { double w, b, rel; } rf_tol_out;

typedef struct {
  size_t special;      /* outputs of rows with no bound (NaN, +-inf: an IEEE class, exact) */
  size_t unbounded;    /* outputs whose bound is not finite (the plan is beyond the analysis) */
  unsigned h;          /* the plan's depth */
} rf_tol_rows_info;

/* Calls visit(ctx, out) for every output of case c (rows x cols, op and dtype of v) with input
 * x (rf_generate's), on a device of the given wave size and CU count. Returns 0, or -1 with a
 * reason in err when v refuses the case's launch (configure) or memory runs out. */
int rf_tol_rows_bounds(const rf_variant *v, const rf_case *c, const float *x, unsigned wave,
                       unsigned num_cus, void (*visit)(void *ctx, const rf_tol_out *o),
                       void *ctx, rf_tol_rows_info *info, char *err, size_t errlen);
#endif

/* Softmax oracle: y_j = exp(x_j - m) / Σ_k exp(x_k - m) from MPFR, each output correctly
 * rounded (to double and to float) from the true value.
 *
 * Per row, at working precision p (128 bits first), u = 2^-p: d_j, e_j, S = RN_p(Σ e_j) and
 * err_S >= |S - S_true| from the shared MPFR exp-sum (mpfr_expsum.h; terms below
 * d_j = -2000 dropped), then
 *   y_j = RN_p(e_j / S).
 * Alongside, rigorous error bounds, rounded up: with rel_S = err_S / S,
 * |y~_j - y_j| <= 2 y~_j (rel_S + 2u [e_j inexact] + 2u [quotient inexact]) (the factor 2
 * covers second-order terms).
 *
 * An output is written only when its rounding is certain: no binary64 / binary32 rounding
 * boundary, subnormal ones included, lies within the error bound of the approximation.
 * - Quick test: mpfr_can_round towards zero at 54 bits (every such boundary is a 54-bit
 *   number). Its precondition in the MPFR manual, a true value that is not itself a 54-bit
 *   number, holds whenever the bound is nonzero: by Lindemann-Weierstrass, exponentials of
 *   distinct rationals are linearly independent over the algebraic numbers, so y_j and S are
 *   irrational unless all finite x_j are equal, and that case is computed exactly.
 * - Otherwise: both ends of the error interval (rounded outwards) must round alike.
 * - Otherwise the row is redone at twice the precision (Ziv's strategy); that takes a true
 *   value within about 2^-120 relative of a rounding boundary.
 * Exactly computed values (constant rows, -inf entries) have a zero bound: certain at once. */
#include <math.h>
#include <stdlib.h>
#include <unistd.h>
#include "oracle/exact.h"
#include "oracle/ieee_round.h"
#include "oracle/mpfr_expsum.h"
#include "oracle/mpfr_interval.h"
#include "oracle/mpfr_rows.h"
#include "oracle/softmax_special.h"

#define MAX_PREC 16384      /* a safety stop; reaching it needs a value within 2^-16000 of a tie */

typedef struct {
  rf_mpfr_expsum es;        /* d_j, e_j, S, err_S (mpfr_expsum.h) */
  mpfr_t y, lo, hi;         /* at es.prec */
  mpfr_t rel_s, err;        /* RF_MPFR_ERR_BITS */
} workspace;

/* ws_init, ws_clear: also the row threads' (mpfr_rows.h), hence void *. */
static void ws_init(void *wv, uint32_t cols) {
  workspace *w = wv;
  rf_mpfr_expsum_init(&w->es, cols);
  mpfr_inits2(RF_MPFR_START_PREC, w->y, w->lo, w->hi, (mpfr_ptr)0);
  mpfr_inits2(RF_MPFR_ERR_BITS, w->rel_s, w->err, (mpfr_ptr)0);
}

static void ws_clear(void *wv) {
  workspace *w = wv;
  rf_mpfr_expsum_clear(&w->es);
  mpfr_clears(w->y, w->lo, w->hi, w->rel_s, w->err, (mpfr_ptr)0);
}

static void ws_set_prec(workspace *w, mpfr_prec_t p) {
  if (w->es.prec == p) return;
  rf_mpfr_expsum_set_prec(&w->es, p);
  mpfr_set_prec(w->y, p);
  mpfr_set_prec(w->lo, p);
  mpfr_set_prec(w->hi, p);
}

static int rounding_is_certain(workspace *w, mpfr_srcptr v, mpfr_srcptr err) {
  return rf_mpfr_rounding_is_certain(v, err, w->lo, w->hi, 1);
}

/* One attempt at precision w->es.prec; 0 when some output could not be certified (unless
 * force, the last resort, which writes them all). */
static int row_at_prec(workspace *w, const float *x, float m, double *y_exact, float *y_rn,
                       double *exp_sum, int force) {
  rf_mpfr_expsum *es = &w->es;
  rf_mpfr_expsum_row(es, x, m);
  if (!force && !rounding_is_certain(w, es->s, es->err_s)) return 0;
  mpfr_div(w->rel_s, es->err_s, es->s, MPFR_RNDU);   /* S >= 1: the maximum's term is 1 */
  for (uint32_t j = 0; j < es->cols; j++) {
    if (es->e_kind[j] == RF_MPFR_E_DROPPED) {        /* y_j < 2^-2885 */
      if (y_exact) y_exact[j] = 0.0;
      if (y_rn) y_rn[j] = 0.0f;
      continue;
    }
    int inexact = mpfr_div(w->y, es->e[j], es->s, MPFR_RNDN) != 0;
    mpfr_set(w->err, w->rel_s, MPFR_RNDU);
    if (inexact) mpfr_add(w->err, w->err, es->two_u, MPFR_RNDU);
    if (es->e_kind[j] == RF_MPFR_E_INEXACT) mpfr_add(w->err, w->err, es->two_u, MPFR_RNDU);
    mpfr_mul(w->err, w->err, w->y, MPFR_RNDU);
    mpfr_mul_2ui(w->err, w->err, 1, MPFR_RNDU);      /* second-order terms */
    if (!force && !rounding_is_certain(w, w->y, w->err)) return 0;
    if (y_exact) y_exact[j] = rf_round_to_f64(w->y);
    if (y_rn) y_rn[j] = rf_round_to_f32(w->y);
  }
  if (exp_sum) *exp_sum = rf_round_to_f64(es->s);
  return 1;
}

/* Policy (softmax_special.h): a NaN or +inf in the row, or a row of only -inf (0/0), gives
 * NaN everywhere. */
static void row(workspace *w, const float *x, double *y_exact, float *y_rn, double *exp_sum) {
  uint32_t cols = w->es.cols;
  int poisoned = 0;
  float m = -INFINITY;
  for (uint32_t j = 0; j < cols; j++) {
    if (rf_smr_poisons(x[j])) poisoned = 1;
    else if (x[j] > m) m = x[j];
  }
  if (rf_smr_row_is_nan(poisoned, m)) {
    for (uint32_t j = 0; j < cols; j++) {
      if (y_exact) y_exact[j] = NAN;
      if (y_rn) y_rn[j] = NAN;
    }
    if (exp_sum) *exp_sum = NAN;
    return;
  }
  mpfr_prec_t p = RF_MPFR_START_PREC;
  ws_set_prec(w, p);
  while (!row_at_prec(w, x, m, y_exact, y_rn, exp_sum, p >= MAX_PREC)) ws_set_prec(w, p *= 2);
}

void rf_oracle_softmax_row(const float *x, uint32_t cols, double *y_exact, float *y_rn,
                           double *exp_sum) {
  if (cols == 0) return;
  workspace w;
  ws_init(&w, cols);
  row(&w, x, y_exact, y_rn, exp_sum);
  ws_clear(&w);
}

typedef struct {
  const float *x;
  uint32_t cols;
  double *y_exact;
  float *y_rn;
  double *exp_sum;
} job;

_Static_assert(sizeof(workspace) <= RF_MPFR_ROWS_WS_MAX, "a workspace on a thread's stack");
static void row_of_job(void *w, uint32_t r, void *ctx) {
  const job *jb = ctx;
  size_t off = (size_t)r * jb->cols;
  row(w, jb->x + off, jb->y_exact ? jb->y_exact + off : NULL, jb->y_rn ? jb->y_rn + off : NULL,
      jb->exp_sum ? jb->exp_sum + r : NULL);
}

void rf_oracle_softmax(const float *x, uint32_t rows, uint32_t cols, double *y_exact,
                       float *y_rn, double *exp_sum, int threads) {
  if (rows == 0 || cols == 0) return;
  if (threads <= 0) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    threads = cores > 0 ? (int)cores : 1;
  }
  job jb = {.x = x, .cols = cols, .y_exact = y_exact, .y_rn = y_rn, .exp_sum = exp_sum};
  rf_mpfr_rows rr = {.rows = rows, .cols = cols, .ws_size = sizeof(workspace),
                     .ws_init = ws_init, .ws_clear = ws_clear, .row = row_of_job,
                     .ctx = &jb};
  rf_mpfr_rows_run(&rr, threads);
}

/* Logsumexp / log-softmax oracle from MPFR (oracle/logsumexp.h). Per row, at working precision
 * p (128 bits first), u = 2^-p, m = max_j x_j (a float, exact): d_j, e_j, S = RN_p(Σ e_j) >= 1
 * and err_S >= |S - S_true| from the shared MPFR exp-sum (mpfr_expsum.h, as the softmax
 * oracle; terms below d_j = -2000 dropped), then
 *   L   = RN_p(log S)        the true L = log S_true;
 *   lse = RN_p(m + L),  y_j = RN_p(d_j - L).
 * Error bounds, rounded up: |log S - log S_true| <= err_S / (S - err_S)
 * (the mean value theorem: log' <= 1 / min(S, S_true)), plus 2u |L| if the log rounded:
 * err_L. Then err(lse) = err_L + 2u |lse| [rounded], err(y_j) = err_L + 2u |y_j| [rounded].
 * An output is written only when its rounding to binary64 is certain (the same test as the
 * softmax oracle, softmax_oracle.c); else the row is redone at twice the precision.
 * Termination: lse and y_j are never exactly a rounding boundary unless they are computed
 * exactly. By Lindemann-Weierstrass, Σ_j exp(d_j) over rationals d_j is transcendental unless
 * every finite d_j is 0, so L = log S is rational only when S = 1 (one maximum, every other
 * entry -inf), and then every value is exact (zero error: certain at once). */
#include <math.h>
#include <stdlib.h>
#include "oracle/logsumexp.h"
#include "oracle/exact.h"
#include "oracle/log_special.h"
#include "oracle/ieee_round.h"
#include "oracle/mpfr_expsum.h"
#include "oracle/mpfr_interval.h"
#include "oracle/mpfr_rows.h"

#define MAX_PREC 16384      /* a safety stop, as in softmax_oracle.c */

typedef struct {
  rf_mpfr_expsum es;        /* d_j, e_j, S, err_S (mpfr_expsum.h) */
  mpfr_t L, v, lo, hi;      /* at es.prec */
  mpfr_t err_l, err;        /* RF_MPFR_ERR_BITS */
} workspace;

/* ws_init, ws_clear: also the row threads' (mpfr_rows.h), hence void *. */
static void ws_init(void *wv, uint32_t cols) {
  workspace *w = wv;
  rf_mpfr_expsum_init(&w->es, cols);
  mpfr_inits2(RF_MPFR_START_PREC, w->L, w->v, w->lo, w->hi, (mpfr_ptr)0);
  mpfr_inits2(RF_MPFR_ERR_BITS, w->err_l, w->err, (mpfr_ptr)0);
}

static void ws_clear(void *wv) {
  workspace *w = wv;
  rf_mpfr_expsum_clear(&w->es);
  mpfr_clears(w->L, w->v, w->lo, w->hi, w->err_l, w->err, (mpfr_ptr)0);
}

static void ws_set_prec(workspace *w, mpfr_prec_t p) {
  if (w->es.prec == p) return;
  rf_mpfr_expsum_set_prec(&w->es, p);
  mpfr_set_prec(w->L, p);
  mpfr_set_prec(w->v, p);
  mpfr_set_prec(w->lo, p);
  mpfr_set_prec(w->hi, p);
}

static void add_rounding_error(workspace *w, mpfr_ptr err, mpfr_srcptr v) {
  rf_mpfr_add_rounding_error(err, v, w->es.two_u, w->es.tmp);
}

static int rounding_is_certain(workspace *w, mpfr_srcptr v, mpfr_srcptr err) {
  return rf_mpfr_rounding_is_certain(v, err, w->lo, w->hi, 0);
}

/* S, L and err_L at the current precision. */
static void log_of_sum(workspace *w, const float *x, float m) {
  rf_mpfr_expsum *es = &w->es;
  rf_mpfr_expsum_row(es, x, m);
  /* err_L = err_S / (S - err_S) [+ 2u |L|]; S >= 1 - tiny, err_S <= 2^-100 or so: S - err_S > 0 */
  mpfr_sub(es->tmp, es->s, es->err_s, MPFR_RNDD);
  mpfr_div(w->err_l, es->err_s, es->tmp, MPFR_RNDU);
  if (mpfr_log(w->L, es->s, MPFR_RNDN) != 0) add_rounding_error(w, w->err_l, w->L);
}

/* One attempt; 0 when some output could not be certified (unless force). */
static int row_at_prec(workspace *w, const float *x, float m, rf_lse_row *out, double *y,
                       int force) {
  log_of_sum(w, x, m);
  if (!force && !rounding_is_certain(w, w->L, w->err_l)) return 0;
  /* lse = m + L */
  mpfr_set(w->err, w->err_l, MPFR_RNDU);
  if (mpfr_add(w->v, w->es.m, w->L, MPFR_RNDN) != 0) add_rounding_error(w, w->err, w->v);
  if (!force && !rounding_is_certain(w, w->v, w->err)) return 0;
  double lse = rf_round_to_f64(w->v), log_s = rf_round_to_f64(w->L);
  if (y)
    for (uint32_t j = 0; j < w->es.cols; j++) {
      if (x[j] == -INFINITY) {
        y[j] = -INFINITY;
        continue;
      }
      mpfr_set_flt(w->es.xj, x[j], MPFR_RNDN);
      mpfr_sub(w->es.d, w->es.xj, w->es.m, MPFR_RNDN);   /* exact */
      mpfr_set(w->err, w->err_l, MPFR_RNDU);
      if (mpfr_sub(w->v, w->es.d, w->L, MPFR_RNDN) != 0) add_rounding_error(w, w->err, w->v);
      if (!force && !rounding_is_certain(w, w->v, w->err)) return 0;
      y[j] = rf_round_to_f64(w->v);
    }
  out->lse = lse;
  out->log_s = log_s;
  return 1;
}

/* wd >= Σ_j p_j |d_j|, p_j = e_j / S, computed in double from the MPFR values. Every term is
 * nonnegative and C < 2^32: the conversions, the subtraction, the products, the left-to-right
 * sum (γ_{C-1}, Higham 2002 §4.2), the division and the MPFR values' own error (< 2^-126)
 * stay below (C + 5) 2^-53 (1.01) < 2^-20 relative, so the factor 1 + 2^-19 covers them; an
 * e_j that underflows in double is off by < 2^-1074 with |d_j| < 2^129: C of them, < 2^-913,
 * inside the 2^-900 added. So wd lies in [W (1 + 2^-21), W (1 + 2^-18) + 2^-899]
 * (RF_LSE_WD_*, logsumexp.h): the double oracle's judge relies on that range. */
static double weighted_spread(workspace *w, const float *x, float m) {
  double num = 0;
  for (uint32_t j = 0; j < w->es.cols; j++) {
    if (x[j] == -INFINITY) continue;
    num += mpfr_get_d(w->es.e[j], MPFR_RNDN) * ((double)m - (double)x[j]);
  }
  return rf_lse_wd_of(num, mpfr_get_d(w->es.s, MPFR_RNDN));
}

/* The special rows (logsumexp.h) are decided here, without MPFR, by log_special.h's rules
 * (the device oracle's too): 1 when x is one of them (out and y written); else 0 with
 * *m = max_j x_j, finite. */
static int special_or_max(const float *x, uint32_t cols, rf_lse_row *out, double *y, float *m) {
  int has_nan = 0, has_pinf = 0;
  *m = -INFINITY;
  for (uint32_t j = 0; j < cols; j++) {
    if (isnan(x[j])) has_nan = 1;
    else if (x[j] == INFINITY) has_pinf = 1;
    else if (x[j] > *m) *m = x[j];
  }
  out->m = has_pinf ? INFINITY : *m;
  if (!rf_smr_row_is_nan(has_nan || has_pinf, *m)) return 0;
  out->lse = rf_lsp_lse(has_nan, has_pinf);
  out->log_s = 0;
  out->wd = 0;
  if (y)
    for (uint32_t j = 0; j < cols; j++) y[j] = rf_lsp_y();
  return 1;
}

/* One row with a workspace of w->es.cols columns (== cols). */
static void lse_row(workspace *w, const float *x, uint32_t cols, rf_lse_row *out, double *y) {
  float m;
  if (special_or_max(x, cols, out, y, &m)) return;
  mpfr_prec_t p = RF_MPFR_START_PREC;
  ws_set_prec(w, p);
  while (!row_at_prec(w, x, m, out, y, p >= MAX_PREC)) ws_set_prec(w, p *= 2);
  out->wd = weighted_spread(w, x, m);
}

void rf_oracle_lse_row(const float *x, uint32_t cols, rf_lse_row *out, double *y) {
  float m;
  if (special_or_max(x, cols, out, y, &m)) return;   /* no workspace of cols values for them */
  workspace w;
  ws_init(&w, cols);
  lse_row(&w, x, cols, out, y);
  ws_clear(&w);
}

typedef struct {
  const float *x;
  uint32_t cols;
  rf_lse_row *out;
  double *y;
} job;

_Static_assert(sizeof(workspace) <= RF_MPFR_ROWS_WS_MAX, "a workspace on a thread's stack");
static void row_of_job(void *w, uint32_t r, void *ctx) {
  const job *jb = ctx;
  size_t off = (size_t)r * jb->cols;
  lse_row(w, jb->x + off, jb->cols, &jb->out[r], jb->y ? jb->y + off : NULL);
}

void rf_oracle_lse(const float *x, uint32_t rows, uint32_t cols, rf_lse_row *out, double *y,
                   int threads) {
  if (threads > 64) threads = 64;   /* logsumexp.h: at most 64 */
  job jb = {.x = x, .cols = cols, .out = out, .y = y};
  rf_mpfr_rows rr = {.rows = rows, .cols = cols, .ws_size = sizeof(workspace),
                     .ws_init = ws_init, .ws_clear = ws_clear, .row = row_of_job,
                     .ctx = &jb};
  rf_mpfr_rows_run(&rr, threads);
}

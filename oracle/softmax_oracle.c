/* Softmax oracle: y_j = exp(x_j - m) / Σ_k exp(x_k - m) from MPFR, each output correctly
 * rounded (to double and to float) from the true value.
 *
 * Per row, at working precision p (128 bits first), u = 2^-p:
 *   d_j = x_j - m            exact (D_BITS holds the difference of any two floats);
 *   e_j = RN_p(exp(d_j))     relative error <= u, or 0 when exact (ternary value 0);
 *                            for d_j < -2000, e_j := 0 with absolute error < 2^-2885;
 *   S   = RN_p(Σ e_j)        mpfr_sum: one rounding of the exact sum of the e_j;
 *   y_j = RN_p(e_j / S).
 * Alongside, rigorous error bounds, rounded up: err_S = Σ 2u e_j over inexact e_j (2u covers
 * u / (1 - u)) + 2^-2885 per dropped term + 2u S if the sum rounded; with rel_S = err_S / S,
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
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>
#include "oracle/exact.h"
#include "oracle/ieee_round.h"
#include "oracle/mpfr_interval.h"
#include "oracle/softmax_special.h"

#define START_PREC 128
#define MAX_PREC 16384      /* a safety stop; reaching it needs a value within 2^-16000 of a tie */
#define D_BITS 288          /* > 278 bits: x_j - m of two floats is exact */
#define ERR_BITS 64         /* error bounds need few bits; they are rounded up */
#define DROP_BELOW (-2000)  /* exp(-2000) < 2^-2885: y_j rounds to +0, S barely moves */
#define DROP_ERR_EXP (-2885)

enum { EXACT = 0, INEXACT = 1, DROPPED = 2 };

typedef struct {
  uint32_t cols;
  mpfr_prec_t prec;
  mpfr_t *e;                /* cols exponentials */
  mpfr_ptr *e_ptr;          /* for mpfr_sum */
  unsigned char *e_kind;    /* EXACT, INEXACT or DROPPED */
  mpfr_t xj, m, d, s, y, lo, hi;
  mpfr_t err_s, rel_s, err, tmp, two_u;
} workspace;

static void ws_init(workspace *w, uint32_t cols) {
  w->cols = cols;
  w->prec = START_PREC;
  w->e = malloc((size_t)cols * sizeof *w->e);
  w->e_ptr = malloc((size_t)cols * sizeof *w->e_ptr);
  w->e_kind = malloc(cols);
  for (uint32_t j = 0; j < cols; j++) {
    mpfr_init2(w->e[j], START_PREC);
    w->e_ptr[j] = w->e[j];
  }
  mpfr_inits2(24, w->xj, w->m, (mpfr_ptr)0);
  mpfr_init2(w->d, D_BITS);
  mpfr_inits2(START_PREC, w->s, w->y, w->lo, w->hi, (mpfr_ptr)0);
  mpfr_inits2(ERR_BITS, w->err_s, w->rel_s, w->err, w->tmp, w->two_u, (mpfr_ptr)0);
}

static void ws_clear(workspace *w) {
  for (uint32_t j = 0; j < w->cols; j++) mpfr_clear(w->e[j]);
  free(w->e);
  free(w->e_ptr);
  free(w->e_kind);
  mpfr_clears(w->xj, w->m, w->d, w->s, w->y, w->lo, w->hi, w->err_s, w->rel_s, w->err, w->tmp,
              w->two_u, (mpfr_ptr)0);
}

static void ws_set_prec(workspace *w, mpfr_prec_t p) {
  if (w->prec == p) return;
  for (uint32_t j = 0; j < w->cols; j++) mpfr_set_prec(w->e[j], p);
  mpfr_set_prec(w->s, p);
  mpfr_set_prec(w->y, p);
  mpfr_set_prec(w->lo, p);
  mpfr_set_prec(w->hi, p);
  w->prec = p;
}

static void add_rounding_error(workspace *w, mpfr_ptr err, mpfr_srcptr v) {
  rf_mpfr_add_rounding_error(err, v, w->two_u, w->tmp);
}

static int rounding_is_certain(workspace *w, mpfr_srcptr v, mpfr_srcptr err) {
  return rf_mpfr_rounding_is_certain(v, err, w->lo, w->hi, 1);
}

/* The exponentials, their sum and its error bound. */
static void exponentials(workspace *w, const float *x, float m) {
  uint64_t dropped = 0;
  mpfr_set_ui_2exp(w->two_u, 1, 1 - w->prec, MPFR_RNDN);
  mpfr_set_flt(w->m, m, MPFR_RNDN);
  mpfr_set_zero(w->err_s, 1);
  for (uint32_t j = 0; j < w->cols; j++) {
    if (x[j] == -INFINITY) {                     /* exp(-inf) = 0 exactly (m is finite) */
      mpfr_set_zero(w->e[j], 1);
      w->e_kind[j] = EXACT;
      continue;
    }
    mpfr_set_flt(w->xj, x[j], MPFR_RNDN);
    mpfr_sub(w->d, w->xj, w->m, MPFR_RNDN);      /* exact */
    if (mpfr_cmp_si(w->d, DROP_BELOW) < 0) {
      mpfr_set_zero(w->e[j], 1);
      w->e_kind[j] = DROPPED;
      dropped++;
    } else if (mpfr_exp(w->e[j], w->d, MPFR_RNDN) != 0) {
      w->e_kind[j] = INEXACT;
      add_rounding_error(w, w->err_s, w->e[j]);
    } else {
      w->e_kind[j] = EXACT;
    }
  }
  if (mpfr_sum(w->s, w->e_ptr, w->cols, MPFR_RNDN) != 0) add_rounding_error(w, w->err_s, w->s);
  if (dropped) {
    mpfr_set_ui_2exp(w->tmp, 1, DROP_ERR_EXP, MPFR_RNDU);
    mpfr_mul_ui(w->tmp, w->tmp, (unsigned long)dropped, MPFR_RNDU);
    mpfr_add(w->err_s, w->err_s, w->tmp, MPFR_RNDU);
  }
}

/* One attempt at precision w->prec; 0 when some output could not be certified (unless
 * force, the last resort, which writes them all). */
static int row_at_prec(workspace *w, const float *x, float m, double *y_exact, float *y_rn,
                       double *exp_sum, int force) {
  exponentials(w, x, m);
  if (!force && !rounding_is_certain(w, w->s, w->err_s)) return 0;
  mpfr_div(w->rel_s, w->err_s, w->s, MPFR_RNDU);   /* S >= 1: the maximum's term is 1 */
  for (uint32_t j = 0; j < w->cols; j++) {
    if (w->e_kind[j] == DROPPED) {                 /* y_j < 2^-2885 */
      if (y_exact) y_exact[j] = 0.0;
      if (y_rn) y_rn[j] = 0.0f;
      continue;
    }
    int inexact = mpfr_div(w->y, w->e[j], w->s, MPFR_RNDN) != 0;
    mpfr_set(w->err, w->rel_s, MPFR_RNDU);
    if (inexact) mpfr_add(w->err, w->err, w->two_u, MPFR_RNDU);
    if (w->e_kind[j] == INEXACT) mpfr_add(w->err, w->err, w->two_u, MPFR_RNDU);
    mpfr_mul(w->err, w->err, w->y, MPFR_RNDU);
    mpfr_mul_2ui(w->err, w->err, 1, MPFR_RNDU);    /* second-order terms */
    if (!force && !rounding_is_certain(w, w->y, w->err)) return 0;
    if (y_exact) y_exact[j] = rf_round_to_f64(w->y);
    if (y_rn) y_rn[j] = rf_round_to_f32(w->y);
  }
  if (exp_sum) *exp_sum = rf_round_to_f64(w->s);
  return 1;
}

/* Policy (softmax_special.h): a NaN or +inf in the row, or a row of only -inf (0/0), gives
 * NaN everywhere. */
static void row(workspace *w, const float *x, double *y_exact, float *y_rn, double *exp_sum) {
  uint32_t cols = w->cols;
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
  mpfr_prec_t p = START_PREC;
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
  uint32_t rows, cols;
  double *y_exact;
  float *y_rn;
  double *exp_sum;
  atomic_uint next_row;     /* rows are handed out one at a time: costs vary with the data */
} job;

static void *worker(void *arg) {
  job *jb = arg;
  workspace w;
  ws_init(&w, jb->cols);
  for (;;) {
    unsigned r = atomic_fetch_add(&jb->next_row, 1u);
    if (r >= jb->rows) break;
    size_t off = (size_t)r * jb->cols;
    row(&w, jb->x + off, jb->y_exact ? jb->y_exact + off : NULL, jb->y_rn ? jb->y_rn + off : NULL,
        jb->exp_sum ? jb->exp_sum + r : NULL);
  }
  ws_clear(&w);
  return NULL;
}

static void *worker_thread(void *arg) {
  worker(arg);
  mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);       /* this thread's constant caches (log 2) */
  return NULL;
}

void rf_oracle_softmax(const float *x, uint32_t rows, uint32_t cols, double *y_exact,
                       float *y_rn, double *exp_sum, int threads) {
  if (rows == 0 || cols == 0) return;
  if (threads <= 0) {
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    threads = cores > 0 ? (int)cores : 1;
  }
  if ((uint32_t)threads > rows) threads = (int)rows;
  if (!mpfr_buildopt_tls_p()) threads = 1;       /* MPFR's state would be shared */
  job jb = {.x = x, .rows = rows, .cols = cols, .y_exact = y_exact, .y_rn = y_rn,
            .exp_sum = exp_sum};
  atomic_init(&jb.next_row, 0u);
  pthread_t *tid = malloc((size_t)threads * sizeof *tid);
  int started = 0;
  for (int t = 1; t < threads; t++)
    if (pthread_create(&tid[started], NULL, worker_thread, &jb) == 0) started++;
  worker(&jb);                                   /* the caller works too */
  for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
  free(tid);
}

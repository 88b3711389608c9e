/* Softmax oracle: y_j = exp(x_j - m) / Σ_k exp(x_k - m) from MPFR, each output correctly
 * rounded (to double and to float) from the true value.
 *
 * Per row, at working precision p (128 bits first): d_j = x_j - m exactly (D_BITS holds the
 * difference of any two floats), e_j = RN_p(exp(d_j)), S = Σ e_j added in order with RN_p,
 * y_j = RN_p(e_j / S). With u = 2^-p and C columns, e_j carries relative error <= u, S
 * <= C u (C positive terms: condition number 1) and the division u, so to first order
 * |y~_j - y_j| <= (C + 3) u y_j < 2^(EXP(y~_j) - p + K) with K = bit length of C + 4 (one
 * spare bit covers the second-order terms). mpfr_can_round with that error and 54 bits,
 * towards zero, certifies that no 54-bit number — hence no binary64 rounding boundary and
 * no binary32 one, subnormal or not, all being 54-bit numbers — lies between y~_j and y_j;
 * only then are the outputs written. Otherwise the row is redone at twice the precision
 * (Ziv's strategy). A y~_j that MPFR computed exactly (every ternary value zero) needs no
 * check; an e_j that underflowed MPFR's own exponent range (d_j < -7e8) is below 2^-10^8
 * and rounds to +0 in both formats. */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>
#include "oracle/exact.h"
#include "oracle/ieee_round.h"

#define START_PREC 128
#define MAX_PREC 8192       /* never reached in practice: each doubling squares the margin */
#define D_BITS 288          /* > 278 bits: x_j - m of two floats is exact */

typedef struct {
  uint32_t cols;
  mpfr_prec_t prec;
  mpfr_t *e;                /* cols exponentials */
  int *e_exact;             /* their ternary value was 0 */
  mpfr_t xj, m, d, s, y;
} workspace;

static void ws_init(workspace *w, uint32_t cols) {
  w->cols = cols;
  w->prec = START_PREC;
  w->e = malloc((size_t)cols * sizeof *w->e);
  w->e_exact = malloc((size_t)cols * sizeof *w->e_exact);
  for (uint32_t j = 0; j < cols; j++) mpfr_init2(w->e[j], START_PREC);
  mpfr_inits2(24, w->xj, w->m, (mpfr_ptr)0);
  mpfr_init2(w->d, D_BITS);
  mpfr_inits2(START_PREC, w->s, w->y, (mpfr_ptr)0);
}

static void ws_clear(workspace *w) {
  for (uint32_t j = 0; j < w->cols; j++) mpfr_clear(w->e[j]);
  free(w->e);
  free(w->e_exact);
  mpfr_clears(w->xj, w->m, w->d, w->s, w->y, (mpfr_ptr)0);
}

static void ws_set_prec(workspace *w, mpfr_prec_t p) {
  if (w->prec == p) return;
  for (uint32_t j = 0; j < w->cols; j++) mpfr_set_prec(w->e[j], p);
  mpfr_set_prec(w->s, p);
  mpfr_set_prec(w->y, p);
  w->prec = p;
}

static int bit_length(uint64_t v) {
  int k = 0;
  while (v) { k++; v >>= 1; }
  return k;
}

/* True when the exact value approximated by v (error < 2^(EXP(v) - err)) rounds to the same
 * binary64 and binary32 values as v itself. */
static int rounding_is_certain(mpfr_srcptr v, int v_exact, mpfr_prec_t err) {
  return v_exact || mpfr_zero_p(v) || mpfr_can_round(v, err, MPFR_RNDN, MPFR_RNDZ, 54);
}

/* One attempt at precision w->prec; 0 when some output could not be certified. */
static int row_at_prec(workspace *w, const float *x, float m, double *y_exact, float *y_rn,
                       double *exp_sum) {
  uint32_t cols = w->cols;
  mpfr_prec_t err = w->prec - bit_length((uint64_t)cols + 4);
  mpfr_set_flt(w->m, m, MPFR_RNDN);
  int s_exact = 1;
  mpfr_set_zero(w->s, 1);
  for (uint32_t j = 0; j < cols; j++) {
    if (x[j] == -INFINITY) {                     /* exp(-inf) = 0 exactly (m is finite) */
      mpfr_set_zero(w->e[j], 1);
      w->e_exact[j] = 1;
    } else {
      mpfr_set_flt(w->xj, x[j], MPFR_RNDN);
      mpfr_sub(w->d, w->xj, w->m, MPFR_RNDN);    /* exact */
      w->e_exact[j] = mpfr_exp(w->e[j], w->d, MPFR_RNDN) == 0;
      /* An underflow to 0 is not exact, but the value rounds to +0 in every output format. */
      if (mpfr_zero_p(w->e[j])) w->e_exact[j] = 1;
    }
    s_exact &= w->e_exact[j] & (mpfr_add(w->s, w->s, w->e[j], MPFR_RNDN) == 0);
  }
  if (!rounding_is_certain(w->s, s_exact, err)) return 0;
  for (uint32_t j = 0; j < cols; j++) {
    int y_ex = mpfr_div(w->y, w->e[j], w->s, MPFR_RNDN) == 0 && w->e_exact[j] && s_exact;
    if (!rounding_is_certain(w->y, y_ex, err)) return 0;
    if (y_exact) y_exact[j] = rf_round_to_f64(w->y);
    if (y_rn) y_rn[j] = rf_round_to_f32(w->y);
  }
  if (exp_sum) *exp_sum = rf_round_to_f64(w->s);
  return 1;
}

/* Policy: a NaN or +inf in the row, or a row of only -inf (0/0), gives NaN everywhere. */
static void row(workspace *w, const float *x, double *y_exact, float *y_rn, double *exp_sum) {
  uint32_t cols = w->cols;
  int poisoned = 0;
  float m = -INFINITY;
  for (uint32_t j = 0; j < cols; j++) {
    if (isnan(x[j]) || x[j] == INFINITY) poisoned = 1;
    else if (x[j] > m) m = x[j];
  }
  if (poisoned || m == -INFINITY) {
    for (uint32_t j = 0; j < cols; j++) {
      if (y_exact) y_exact[j] = NAN;
      if (y_rn) y_rn[j] = NAN;
    }
    if (exp_sum) *exp_sum = NAN;
    return;
  }
  mpfr_prec_t p = START_PREC;
  ws_set_prec(w, p);
  while (!row_at_prec(w, x, m, y_exact, y_rn, exp_sum) && p < MAX_PREC) ws_set_prec(w, p *= 2);
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
  if (!mpfr_buildopt_tls_p()) threads = 1;       /* MPFR's global state is not per thread */
  job jb = {x, rows, cols, y_exact, y_rn, exp_sum, 0};
  pthread_t *tid = malloc((size_t)threads * sizeof *tid);
  int started = 0;
  for (int t = 1; t < threads; t++)
    if (pthread_create(&tid[started], NULL, worker, &jb) == 0) started++;
  worker(&jb);                                   /* the caller works too */
  for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
  free(tid);
}

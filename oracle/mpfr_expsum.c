/* The MPFR row exp-sum (mpfr_expsum.h). */
#include "oracle/mpfr_expsum.h"

#include <math.h>
#include <stdlib.h>

#include "oracle/mpfr_interval.h"

#define DROP_BELOW (-2000)  /* exp(-2000) < 2^-2885: the term barely moves S */
#define DROP_ERR_EXP (-2885)

void rf_mpfr_expsum_init(rf_mpfr_expsum *w, uint32_t cols) {
  w->cols = cols;
  w->prec = RF_MPFR_START_PREC;
  w->e = malloc((size_t)cols * sizeof *w->e);
  w->e_ptr = malloc((size_t)cols * sizeof *w->e_ptr);
  w->e_kind = malloc(cols);
  for (uint32_t j = 0; j < cols; j++) {
    mpfr_init2(w->e[j], RF_MPFR_START_PREC);
    w->e_ptr[j] = w->e[j];
  }
  mpfr_inits2(24, w->xj, w->m, (mpfr_ptr)0);
  mpfr_init2(w->d, RF_MPFR_D_BITS);
  mpfr_init2(w->s, RF_MPFR_START_PREC);
  mpfr_inits2(RF_MPFR_ERR_BITS, w->err_s, w->tmp, w->two_u, (mpfr_ptr)0);
}

void rf_mpfr_expsum_clear(rf_mpfr_expsum *w) {
  for (uint32_t j = 0; j < w->cols; j++) mpfr_clear(w->e[j]);
  free(w->e);
  free(w->e_ptr);
  free(w->e_kind);
  mpfr_clears(w->xj, w->m, w->d, w->s, w->err_s, w->tmp, w->two_u, (mpfr_ptr)0);
}

void rf_mpfr_expsum_set_prec(rf_mpfr_expsum *w, mpfr_prec_t p) {
  if (w->prec == p) return;
  for (uint32_t j = 0; j < w->cols; j++) mpfr_set_prec(w->e[j], p);
  mpfr_set_prec(w->s, p);
  w->prec = p;
}

void rf_mpfr_expsum_row(rf_mpfr_expsum *w, const float *x, float m) {
  uint64_t dropped = 0;
  mpfr_set_ui_2exp(w->two_u, 1, 1 - w->prec, MPFR_RNDN);
  mpfr_set_flt(w->m, m, MPFR_RNDN);
  mpfr_set_zero(w->err_s, 1);
  for (uint32_t j = 0; j < w->cols; j++) {
    if (x[j] == -INFINITY) {                     /* exp(-inf) = 0 exactly (m is finite) */
      mpfr_set_zero(w->e[j], 1);
      w->e_kind[j] = RF_MPFR_E_EXACT;
      continue;
    }
    mpfr_set_flt(w->xj, x[j], MPFR_RNDN);
    mpfr_sub(w->d, w->xj, w->m, MPFR_RNDN);      /* exact */
    if (mpfr_cmp_si(w->d, DROP_BELOW) < 0) {
      mpfr_set_zero(w->e[j], 1);
      w->e_kind[j] = RF_MPFR_E_DROPPED;
      dropped++;
    } else if (mpfr_exp(w->e[j], w->d, MPFR_RNDN) != 0) {
      w->e_kind[j] = RF_MPFR_E_INEXACT;
      rf_mpfr_add_rounding_error(w->err_s, w->e[j], w->two_u, w->tmp);
    } else {
      w->e_kind[j] = RF_MPFR_E_EXACT;
    }
  }
  if (mpfr_sum(w->s, w->e_ptr, w->cols, MPFR_RNDN) != 0)
    rf_mpfr_add_rounding_error(w->err_s, w->s, w->two_u, w->tmp);
  if (dropped) {
    mpfr_set_ui_2exp(w->tmp, 1, DROP_ERR_EXP, MPFR_RNDU);
    mpfr_mul_ui(w->tmp, w->tmp, (unsigned long)dropped, MPFR_RNDU);
    mpfr_add(w->err_s, w->err_s, w->tmp, MPFR_RNDU);
  }
}

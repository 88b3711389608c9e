/* The row exp-sum at precision p that the MPFR row oracles share (softmax_oracle.c,
 * logsumexp_oracle.c). Per row, u = 2^-p, m = max_j x_j (finite):
 *   d_j = x_j - m            exact (RF_MPFR_D_BITS holds the difference of any two floats);
 *   e_j = RN_p(exp(d_j))     relative error <= u, or 0 when exact (ternary value 0);
 *                            exp(-inf) = 0 exactly; for d_j < -2000, e_j := 0 with absolute
 *                            error < 2^-2885 (the term is dropped);
 *   S   = RN_p(Σ e_j)        mpfr_sum: one rounding of the exact sum of the e_j; S >= 1 (the
 *                            maximum's term is exp(0) = 1);
 *   err_S, rounded up        Σ 2u e_j over inexact e_j (2u covers u / (1 - u)) + 2^-2885 per
 *                            dropped term + 2u S if the sum rounded: |S - S_true| <= err_S.
 * Private to oracle/. */
#ifndef RF_MPFR_EXPSUM_H
#define RF_MPFR_EXPSUM_H
#include <stdint.h>
#include <stdio.h>   /* before mpfr.h */
#include <mpfr.h>

#define RF_MPFR_START_PREC 128
#define RF_MPFR_D_BITS 288      /* > 278 bits: x_j - m of two floats is exact */
#define RF_MPFR_ERR_BITS 64     /* error bounds need few bits; they are rounded up */

enum { RF_MPFR_E_EXACT = 0, RF_MPFR_E_INEXACT = 1, RF_MPFR_E_DROPPED = 2 };

typedef struct {
  uint32_t cols;
  mpfr_prec_t prec;          /* of e_j and S (the callers' own values follow it) */
  mpfr_t *e;                 /* cols exponentials */
  mpfr_ptr *e_ptr;           /* for mpfr_sum */
  unsigned char *e_kind;     /* RF_MPFR_E_EXACT, _INEXACT or _DROPPED per term */
  mpfr_t xj, m, d;           /* x_j and m (24 bits), d_j (RF_MPFR_D_BITS) */
  mpfr_t s;                  /* S */
  mpfr_t err_s, tmp, two_u;  /* err_S, scratch, 2u (RF_MPFR_ERR_BITS) */
} rf_mpfr_expsum;

/* For rows of `cols` columns, at RF_MPFR_START_PREC. */
void rf_mpfr_expsum_init(rf_mpfr_expsum *w, uint32_t cols);
void rf_mpfr_expsum_clear(rf_mpfr_expsum *w);
/* The precision of the e_j and of S. */
void rf_mpfr_expsum_set_prec(rf_mpfr_expsum *w, mpfr_prec_t p);
/* e_j, S and err_S for row x with maximum m, at w->prec; sets two_u = 2^(1-prec). */
void rf_mpfr_expsum_row(rf_mpfr_expsum *w, const float *x, float m);

#endif

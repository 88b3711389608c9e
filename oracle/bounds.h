/* Error bounds derived from a variant's plan and the data (docs/TOLERANCES.md). Every bound is
 * rigorous (rounded up), never a tuned constant. */
#ifndef RF_BOUNDS_H
#define RF_BOUNDS_H
#include <stddef.h>
#include <stdint.h>
#include "plan.h"
#ifdef __cplusplus
extern "C" {
#endif

#define RF_U 0x1p-24   /* unit roundoff of binary32, round to nearest */

/* gamma_h = h*u / (1 - h*u) (Higham 2002, Lemma 3.1), rounded up; +inf when h*u >= 1. */
double rf_gamma(uint64_t h);

/* Facts about the input that the sum bound needs, from one pass over it. */
typedef struct {
  double abs_sum_up;     /* Σ|x_i| rounded up (over the finite x_i) */
  int all_finite;
  int any_nonzero;
  int min_exp;           /* largest e with every nonzero finite x_i a multiple of 2^e (0 if none) */
} rf_sum_facts;
void rf_sum_facts_compute(const float *x, size_t n, rf_sum_facts *f);

typedef struct {
  double bound;          /* |ŝ - s| <= bound is required */
  int exact;             /* 1 when the exactness condition holds (bound is 0) */
  int overflow_possible; /* partial sums may overflow: ±inf results are then accepted */
  double probabilistic;  /* λ·sqrt(h)·u·Σ|x_i| (Higham & Mary 2019), λ = RF_LAMBDA; not a verdict */
} rf_sum_bound;
#define RF_LAMBDA 4.0
/* IEEE arithmetic everywhere (the simulator). */
void rf_bound_sum(const rf_plan *plan, const rf_sum_facts *f, rf_sum_bound *out);
/* The same on a backend whose float atomics flush subnormal inputs and results to zero
 * (NVIDIA; assumed possible on AMD too): each RF_LEVEL_ATOMIC addition adds < 2^-125. */
typedef struct { int atomic_ftz; } rf_sum_model;
extern const rf_sum_model RF_SUM_IEEE, RF_SUM_ATOMIC_FTZ;
void rf_bound_sum_model(const rf_plan *plan, const rf_sum_facts *f, const rf_sum_model *m,
                        rf_sum_bound *out);
/* 1 when abs_err (|ŝ - s| rounded up, e.g. rf_xsum_abs_err_up) is within the bound. */
int rf_sum_within(const rf_sum_bound *b, double abs_err);

/* Softmax: per-element |ŷ_j - y_j| <= rel_j * y_j + abs_floor, y_j = y_exact[j] as given. */
typedef struct {
  double exp_ulps;       /* k_e: max error of the exp against the exact value, in ulps */
  int ftz;               /* results that underflow flush to zero */
} rf_exp_model;
/* Backend models, each with its source in bounds.c. */
extern const rf_exp_model RF_EXP_CUDA_EXPF;   /* CUDA expf: 2 ulp */
extern const rf_exp_model RF_EXP_OCML_EXPF;   /* ROCm ocml expf: 1 ulp */
extern const rf_exp_model RF_EXP_HOST_LIBM;   /* glibc expf (simulator) */

typedef struct {
  double *rel;           /* per element relative bound (cols entries, caller's storage) */
  double abs_floor;      /* absolute floor for results that underflow */
  double row_sum_bound;  /* |Σ_j ŷ_j - 1| <= row_sum_bound */
  int constant_row;      /* every x_j equal: ŷ_j must be exactly RN(1/cols) */
} rf_softmax_bound;
/* y_exact and exp_sum come from the oracle for this row. */
void rf_bound_softmax_row(const rf_plan *plan, const rf_exp_model *em, const float *x,
                          uint32_t cols, const double *y_exact, rf_softmax_bound *out);
/* 1 when |y_hat - y_exact| <= rel[j] * y_exact + abs_floor (the right side rounded up, the
 * left side compared exactly); 0 for non-finite y_hat. */
int rf_softmax_within(const rf_softmax_bound *b, uint32_t j, float y_hat, double y_exact);

#ifdef __cplusplus
}
#endif
#endif

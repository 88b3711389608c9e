/* Error bounds derived from a variant's plan and the data (docs/TOLERANCES.md). Every bound is
 * rigorous (rounded up), never a tuned constant. */
#ifndef RF_BOUNDS_H
#define RF_BOUNDS_H
#include <stddef.h>
#include <stdint.h>
#include "redfuzz/plan.h"
#include "redfuzz/dtype.h"
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
  int all_neg_zero;      /* n > 0 and every x_i is -0: the exact IEEE sum is -0, not +0 */
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

/* A sum accumulated in float32 within b of the exact s, then rounded once to the output type
 * t (f16, bf16): round-to-nearest is monotone, so the output lies in [RN_t(s - B), RN_t(s + B)]
 * (docs/TOLERANCES.md, "Inputs and outputs in 16-bit types"), ±inf included where s ± B reaches t's
 * overflow threshold. s_d is s rounded to double; when b->exact, s_d is s itself (the data
 * make every partial sum exact, so s is a float32) and the range is the one value RN_t(s).
 * bound: the largest |output - s| the range allows, rounded up (+inf when it has an
 * infinity); for reports and ratios, the verdict is the range. */
typedef struct { double lo, hi, bound; } rf_sum_out_range;
void rf_bound_sum_output(const rf_sum_bound *b, double s_d, rf_dtype t, rf_sum_out_range *out);

/* Softmax: per-element |ŷ_j - y_j| <= rel_j * y_j + abs_floor, y_j = y_exact[j] as given. */
typedef struct {
  double exp_ulps;       /* k_e: max error of the exp against the exact value, in ulps */
  int ftz;               /* results that underflow flush to zero */
  /* Native (fast) exps: exp2(RN(x * log2e)) carries the rounding of the product, a relative
   * error of about |x| u: the error is exp_ulps + ulps_per_arg |x| ulps (0 for library exps). */
  double ulps_per_arg;
} rf_exp_model;
/* Backend models, each with its source in bounds.c. */
extern const rf_exp_model RF_EXP_CUDA_EXPF;   /* CUDA expf: 2 ulp */
extern const rf_exp_model RF_EXP_OCML_EXPF;   /* ROCm ocml expf: 1 ulp */
extern const rf_exp_model RF_EXP_HOST_LIBM;   /* glibc expf (simulator) */
extern const rf_exp_model RF_EXP_CUDA_FAST;   /* CUDA __expf: 2 + 1.173 |x| ulp, FTZ */
extern const rf_exp_model RF_EXP_GFX1201_FAST;/* gfx1201 __expf (ocml native exp): 1 + |x| ulp, FTZ */

typedef struct {
  double *rel;           /* per element relative bound (cols entries, caller's storage) */
  double abs_floor;      /* absolute floor for results that underflow */
  double row_sum_bound;  /* |Σ_j ŷ_j - 1| <= row_sum_bound */
  int constant_row;      /* every x_j equal: ŷ_j must be exactly RN(1/cols) */
  /* The kernel's own bound, before the oracle's error is folded in, against the TRUE y_j:
   *     |ŷ_j - y_j| <= rel_kernel[j] * y_j + abs_kernel.
   * rel_kernel is optional (cols entries, caller's storage; NULL: not written, and
   * rf_softmax_check answers RF_SM_UNSURE). Set {.rel = r} to get the old behaviour.
   * Constant rows: the exact error of RN(1/cols) plus 2^-50 (still exact in effect: both
   * neighbours of RN(1/cols) fail), so that an oracle within 2^-52 can decide them. */
  double *rel_kernel;
  double abs_kernel;
  /* What the bound assumed of the given y (filled in by the bound functions):
   *     |y_given_j - y_j| <= y_rel * y_j + y_abs. */
  double y_rel, y_abs;
} rf_softmax_bound;
/* y_exact from the MPFR oracle (rf_oracle_softmax_row): correctly rounded, so this is
 * rf_bound_softmax_row_rel with y_rel = 2^-53, y_abs = 0. */
void rf_bound_softmax_row(const rf_plan *plan, const rf_exp_model *em, const float *x,
                          uint32_t cols, const double *y_exact, rf_softmax_bound *out);
/* The same for any oracle y_approx with |y_approx_j - y_j| <= y_rel y_j + y_abs for the true
 * y_j, e.g. the double oracle (oracle/softmax_double.h: y_rel its return value, y_abs
 * RF_SM_DOUBLE_ABS). rel[j] and abs_floor then bound |ŷ_j - y_approx_j| relative to y_approx
 * (the oracle error folded in); rel_kernel / abs_kernel stay against the true y.
 * 0 <= y_rel <= 1/2 and 0 <= y_abs, else every bound is +inf. */
void rf_bound_softmax_row_rel(const rf_plan *plan, const rf_exp_model *em, const float *x,
                              uint32_t cols, const double *y_approx, double y_rel,
                              double y_abs, rf_softmax_bound *out);
/* A row's bound widened by one more rounding of each output to the 16-bit type t (nothing for
 * f32): rel += u_t (1 + rel), abs += eta_t (half the type's subnormal spacing), the row sum by
 * u_t (1 + its bound) + cols eta_t (docs/TOLERANCES.md, "Softmax output in a 16-bit type"). */
void rf_bound_softmax_output(rf_softmax_bound *b, uint32_t cols, rf_dtype t);
/* u_t = 2^-p and eta_t = 2^(emin - p) of the 16-bit type t, the constants of that widening
 * (0 and 0 for f32: no widening); the one definition for the host judge and the device's
 * (kernels/harness/softmax_device.h). */
void rf_softmax_output_rounding(rf_dtype t, double *ut, double *eta);
/* 1 when |y_hat - y_exact| <= rel[j] * y_exact + abs_floor (the right side rounded up, the
 * left side compared exactly); 0 for non-finite y_hat. This is the folded check: use it with
 * the y the bound was computed from (for the final decision, the MPFR oracle's). */
int rf_softmax_within(const rf_softmax_bound *b, uint32_t j, float y_hat, double y_exact);

/* The plan's and the exp model's part of the softmax bound, as the per-row formulas shared
 * with the device judge take it (oracle/softmax_row_math.h). */
#include "softmax_row_types.h"
rf_smr_params rf_softmax_bound_params(const rf_plan *plan, const rf_exp_model *em);

/* Three-way element check that does NOT fold the oracle's error into the bound. The true
 * y_j is only known to lie in Y = {y >= 0 : |y_approx - y| <= b->y_rel y + b->y_abs}:
 *   RF_SM_PASS   |y_hat - y| <= rel_kernel[j] y + abs_kernel for EVERY y in Y;
 *   RF_SM_FAIL   it fails for every y in Y (so at the true y: the kernel is wrong);
 *   RF_SM_UNSURE otherwise: ask a better oracle (MPFR) and judge with rf_softmax_within.
 * Rigorous: Y is enclosed with directed rounding, |y_hat - y| is computed exactly and the
 * allowed error rounded both ways, so rounding can only turn an answer into RF_SM_UNSURE.
 * RF_SM_UNSURE also when y_approx is not finite (the row needs MPFR's semantics) or
 * b->rel_kernel is NULL; otherwise a non-finite y_hat is RF_SM_FAIL. */
typedef enum { RF_SM_PASS, RF_SM_FAIL, RF_SM_UNSURE } rf_sm_check;
rf_sm_check rf_softmax_check(const rf_softmax_bound *b, uint32_t j, float y_hat,
                             double y_approx);

#ifdef __cplusplus
}
#endif
#endif

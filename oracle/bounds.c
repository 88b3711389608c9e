/* Error bounds derived from a variant's plan and the data (oracle/bounds.h). The derivation,
 * with its sources, is docs/TOLERANCES.md; the comments here name the step each line does.
 *
 * Rounding: every bound is an upper bound on a real number, computed in double with directed
 * rounding emulated by "round to nearest, then one step outward" (next_up / next_down, in
 * dir_round.h). That is rigorous whatever the compiler does with fesetround (GCC does not
 * honour FENV_ACCESS), as long as double operations are IEEE binary64 operations:
 * FLT_EVAL_METHOD 0 or 1 and no fast-math (the build passes -fno-fast-math). The per-element
 * loops of the softmax bound use dir_round.h's cheaper steps under their stated conditions. */
#include "bounds.h"
#include "model/dtype.h"

#include <float.h>
#include <math.h>
#include <string.h>

#include "dir_round.h"
#include "exact.h"
#include "softmax_row_math.h"

/* ---- sum ------------------------------------------------------------------------------------ */
double rf_gamma(uint64_t h) {
  if (h == 0) return 0;
  if (h >= (UINT64_C(1) << 24)) return INFINITY; /* h*u >= 1: Lemma 3.1 says nothing */
  double hu = (double)h * RF_U;                  /* exact: h < 2^24, u a power of two */
  return up_div(hu, 1.0 - hu);                   /* 1 - hu is exact (a multiple of 2^-24) */
}

/* The largest e such that x is an integer multiple of 2^e (x finite and nonzero). Counting
 * trailing zeros without a loop: random data would mispredict a loop's exit every time. */
static int lowest_bit_exp(float x) {
  uint32_t b;
  memcpy(&b, &x, sizeof b);
  uint32_t biased = (b >> 23) & 0xffu, sig = b & 0x7fffffu;
  int e = -149; /* subnormal: x = sig * 2^-149 */
  if (biased) {
    sig |= 0x800000u;
    e = (int)biased - 150;
  }
  return e + __builtin_ctz(sig);   /* sig != 0: x is nonzero */
}

void rf_sum_facts_compute(const float *x, size_t n, rf_sum_facts *f) {
  /* Σ|x_i| exactly (the superaccumulator over the finite |x_i|), rounded up once: the
   * tightest rigorous value, exact whenever the sum is a double (so integer data keep their
   * exactness test), and independent of the order of the elements, so a device oracle that
   * meets them in any order gives the same bits (kernels/harness/oracle_device.h). */
  int min_exp = 0, any = 0, finite = 1, pos_zero = 0;
  for (size_t i = 0; i < n; i++) {
    float v = x[i];
    if (!isfinite(v)) {
      finite = 0;
      continue;
    }
    if (v == 0) {
      pos_zero |= !signbit(v);
      continue;
    }
    int e = lowest_bit_exp(v);
    if (!any || e < min_exp) min_exp = e;
    any = 1;
  }
  rf_xsum a;
  rf_xsum_init(&a);
  rf_xsum_add_abs(&a, x, n);
  a.n_pinf = a.n_ninf = a.n_nan = 0;   /* over the finite x_i only */
  f->abs_sum_up = any ? rf_xsum_round_up_f64(&a) : 0;
  f->all_finite = finite;
  f->any_nonzero = any;
  f->min_exp = any ? min_exp : 0;
  /* IEEE 754-2019 §6.3: x + y of opposite-signed zeros is +0 in round-to-nearest, and -0 + -0
   * is -0; so a sum of zeros in any order is -0 exactly when every term is -0. */
  f->all_neg_zero = n > 0 && finite && !any && !pos_zero;
}

/* Exact results of RN additions overflow from 2^128 (1 - 2^-25) on: the midpoint between
 * FLT_MAX and the next power of two (IEEE 754-2019 §7.4). */
#define RF_F32_OVERFLOW_THRESHOLD (0x1p128 - 0x1p103)

/* An upper bound of (1 + u)^h <= e^(h u): e^y <= 1/(1 - y) for y = h u / 2^j <= 2^-10,
 * then squared j times (each rounded up). */
static double growth_up(uint64_t h) {
  double y = up_mul(up_count(h), RF_U);
  int j = 0;
  while (y > 0x1p-10 && j < 80) {
    y = ldexp(y, -1); /* exact */
    j++;
  }
  double e = up_div(1.0, dn_sub(1.0, y));
  while (j-- > 0) e = up_mul(e, e);
  return e;
}

/* NVIDIA float atomics: PTX ISA, `atom` / `red` with .add.f32: "rounds to nearest even and
 * flushes subnormal inputs and results to sign-preserving zero". Found when correct
 * atomic-merging sum kernels failed on `subnormal` inputs on an H200 (docs/TOLERANCES.md). */
const rf_sum_model RF_SUM_IEEE = {0};
const rf_sum_model RF_SUM_ATOMIC_FTZ = {1};

/* Each flushing atomic addition changes its input and its result by less than 2^-126 each. */
static double atomic_flush_err(const rf_plan *plan, const rf_sum_facts *f,
                               const rf_sum_model *m) {
  /* All inputs multiples of 2^-126: every partial sum is zero or normal, nothing flushes. */
  if (!m->atomic_ftz || !f->any_nonzero || f->min_exp >= -126) return 0;
  uint64_t atomics = 0;
  /* The runner refuses a plan over RF_PLAN_MAX_LEVELS (rf_plan_check); the cap here keeps
   * the array bound even for a caller that did not check. */
  for (uint32_t i = 0; i < plan->n_levels && i < RF_PLAN_MAX_LEVELS; i++)
    if (plan->level[i].kind == RF_LEVEL_ATOMIC) atomics += plan->level[i].adds;
  return atomics ? up_mul(up_count(atomics), 0x1p-125) : 0;
}

void rf_bound_sum(const rf_plan *plan, const rf_sum_facts *f, rf_sum_bound *out) {
  rf_bound_sum_model(plan, f, &RF_SUM_IEEE, out);
}

void rf_bound_sum_model(const rf_plan *plan, const rf_sum_facts *f, const rf_sum_model *m,
                        rf_sum_bound *out) {
  uint64_t h = rf_plan_depth(plan);
  double g = rf_gamma(h);
  /* Every computed partial sum p of a subset J satisfies |p| <= (1 + u)^h Σ_J |x_i|, and so
   * does the exact result of the addition that forms it: below the threshold, no overflow. */
  double peak = up_mul(f->abs_sum_up, growth_up(h));
  memset(out, 0, sizeof *out);
  out->overflow_possible = peak >= RF_F32_OVERFLOW_THRESHOLD;
  if (!f->all_finite) return; /* documented policy: IEEE results are compared directly */
  double flush = atomic_flush_err(plan, f, m);

  /* Exactness: every partial sum is a signed subset sum, a multiple of 2^e no larger than
   * Σ|x_i|; such a value with |value| <= 2^(24+e) and <= FLT_MAX is a float, so every
   * addition is exact in any order (unless an atomic flushes a subnormal). */
  if (flush == 0 && (!f->any_nonzero ||
      (f->abs_sum_up <= ldexp(1.0, 24 + f->min_exp) && f->abs_sum_up <= FLT_MAX))) {
    out->exact = 1;
    out->overflow_possible = 0;
    return;
  }
  /* Higham 2002, §4.2 with Lemma 3.1: |ŝ - s| <= γ_h Σ|x_i| for any tree of depth h.
   * Subnormal partial sums add no term: an addition whose result is subnormal is exact.
   * Flushing atomics perturb the summands by at most `flush` in total: the tree then sums
   * values whose absolute sum is at most Σ|x_i| + flush, and the result moves by `flush`. */
  double scale = flush ? up_add(f->abs_sum_up, flush) : f->abs_sum_up;
  out->bound = isinf(g) ? INFINITY : up_add(up_mul(g, scale), flush);
  double sqrt_h = next_up(sqrt(up_count(h)));
  out->probabilistic = up_mul(up_mul(RF_LAMBDA, sqrt_h), up_mul(RF_U, f->abs_sum_up));
}

int rf_sum_within(const rf_sum_bound *b, double abs_err) { return abs_err <= b->bound; }

/* ---- a sum's output in a 16-bit type ------------------------------------------------------------- */
void rf_bound_sum_output(const rf_sum_bound *b, double s_d, rf_dtype t, rf_sum_out_range *out) {
  if (b->exact || b->bound == 0) {
    out->lo = out->hi = rf_dtype_round(t, s_d);
  } else {
    /* s lies within |s_d| 2^-53 of s_d; each of s_d -+ (B + |s_d| 2^-52) is rounded once, and
     * one step outward encloses it (dir_round.h). */
    const double slack = next_up(b->bound + fabs(s_d) * 0x1p-52);
    out->lo = rf_dtype_round(t, next_down(s_d - slack));
    out->hi = rf_dtype_round(t, next_up(s_d + slack));
  }
  const double a = next_up(out->hi - s_d), c = next_up(s_d - out->lo);
  out->bound = isinf(out->lo) || isinf(out->hi) ? INFINITY : a > c ? a : c;
  if (out->bound < 0) out->bound = 0;
}

/* ---- softmax -------------------------------------------------------------------------------- */
/* Exp models. exp_ulps is the error against the exact value, in ulps of the result.
 * CUDA C++ Programming Guide, "Mathematical Functions" appendix, single-precision table:
 *   expf 2 ulp, measured from the correctly rounded result; +0.5 for that rounding. */
const rf_exp_model RF_EXP_CUDA_EXPF = {2.5, 0, 0};
/* ROCm HIP math API reference ("HIP math API", single precision): expf 1 ulp, measured from
 * the host C++ library's expf; that one (glibc) is itself within 1 ulp (below): 2. */
const rf_exp_model RF_EXP_OCML_EXPF = {2.0, 0, 0};
/* GNU C Library manual, "Errors in Math Functions": expf on x86_64 listed at 1 ulp, measured
 * against the exact value. */
const rf_exp_model RF_EXP_HOST_LIBM = {1.0, 0, 0};
/* CUDA C++ Programming Guide, "Intrinsic Functions", single precision: __expf(x) has a
 * maximum error of 2 + floor(abs(1.173 * x)) ulp; it is ex2.approx.ftz.f32 (PTX ISA) of
 * x * log2e, so subnormal results flush to zero. +0.5 as for expf (the table measures from
 * the correctly rounded result). */
const rf_exp_model RF_EXP_CUDA_FAST = {2.5, 1, 1.173};
/* AMD gfx1201 through ROCm's ocml: __expf is __ocml_native_exp_f32, v_exp_f32(x * log2e)
 * (the RDNA4 ISA: V_EXP_F32, base-2 exponential, 1 ulp; denormal results flushed as the
 * hardware's default mode does). The product's rounding and log2e's float representation
 * (relative 2^-26.2) put exp2's argument off by |x| log2e (u + 2^-26.2), a relative error of
 * |x| (u + 2^-26.2)(1 + small) <= 1.23 |x| u in the result, at most 1.23 |x| ulps (an ulp is
 * at least u times the value): 1 + 1.25 |x|, +0.5 as above. */
const rf_exp_model RF_EXP_GFX1201_FAST = {1.5, 1, 1.25};

/* exp(d) is treated as negligible below d = -110: e^-110 < 2^-158 (158 ln 2 < 109.52);
 * the constants (RF_SMR_DEEP_ARG, RF_SMR_DEEP_TERM_UP >= e^-110 (1 + θ) and >= e^-110(1-u)
 * K_hi, θ <= 1, K_hi <= 2) are in softmax_row_math.h with the per-row formulas. */
#define Y_EXACT_REL 0x1p-53      /* the MPFR oracle's y_exact is y rounded to nearest double */

/* How far the given y may be from the true y: |y_given - y| <= y_rel y + y_abs, so
 * y <= (y_given + y_abs) / (1 - y_rel), with om = 1 - y_rel rounded down. */
typedef struct {
  double y_rel, y_abs, om;
} oracle_err;

/* Step 6: the kernel's bound against the true y (rel_y y + abs) as a bound against the given
 * y: |ŷ - y_given| <= (rel_y + y_rel) y + abs + y_abs
 *                  <= (rel_y + y_rel)/om y_given + abs + y_abs (1 + (rel_y + y_rel)/om),
 * times RF_SMR_SLACK (1 + 2^-50), which lets a plain RN check rel*y + abs >= |ŷ - y| stay
 * rigorous. */
static double fold_rel(const oracle_err *o, double rel_y) {
  return rf_smr_fold_rel(o->y_rel, o->om, rel_y);
}
static double fold_abs(const oracle_err *o, double abs_k, double rel_max) {
  return rf_smr_fold_abs(o->y_abs, abs_k, rel_max);
}

/* An upper bound of Σ_j a_j b_j (n nonnegative terms) from s, its value computed in plain
 * round to nearest (products, then a sum in any order): each product is within 2^-53
 * relative or, if it underflows, 2^-1075 absolute; a sum of n nonnegative terms in any order
 * within γ_{n-1} relative (Higham 2002, §4.2: no term passes through more than n - 1
 * additions; subnormal sums are exact). This is rf_smr_dot_up (softmax_row_math.h). */

/* Every x_j equal and finite: d̂_j = 0, ê_j = exp(0) = 1, every partial sum an integer
 * <= cols <= 2^24 and so exact, Ŝ = cols: ŷ_j = RN(1/cols) exactly (either division kind).
 * The kernel's own bound is rel_true + 2^-50: 1/C is at least 2^-48 (1/C) from a float
 * rounding midpoint (docs/TOLERANCES.md), so it still rejects both neighbours of RN(1/C),
 * and an oracle within 2^-52 of y can then decide (rel_true alone is hit exactly). */
#define CONSTANT_ROW_MARGIN 0x1p-50
static void bound_constant_row(uint32_t cols, const oracle_err *o, rf_softmax_bound *out) {
  float r = 1.0f / (float)cols;
  double rel_true = fabs((double)r * cols - 1.0); /* exact: 48-bit product, Sterbenz */
  double rel = fold_rel(o, rel_true);
  for (uint32_t j = 0; j < cols; j++) out->rel[j] = rel;
  if (out->rel_kernel) {
    double rel_k = up_add(rel_true, CONSTANT_ROW_MARGIN);
    for (uint32_t j = 0; j < cols; j++) out->rel_kernel[j] = rel_k;
  }
  out->abs_floor = o->y_abs > 0 ? fold_abs(o, 0, rel) : 0;
  out->abs_kernel = 0;
  out->row_sum_bound = rel_true; /* Σ ŷ_j = cols * r exactly */
  out->constant_row = 1;
}

static void bound_useless(uint32_t cols, rf_softmax_bound *out) {
  for (uint32_t j = 0; j < cols; j++) out->rel[j] = INFINITY;
  if (out->rel_kernel)
    for (uint32_t j = 0; j < cols; j++) out->rel_kernel[j] = INFINITY;
  out->abs_floor = INFINITY;
  out->abs_kernel = INFINITY;
  out->row_sum_bound = INFINITY;
}

void rf_bound_softmax_row(const rf_plan *plan, const rf_exp_model *em, const float *x,
                          uint32_t cols, const double *y_exact, rf_softmax_bound *out) {
  rf_bound_softmax_row_rel(plan, em, x, cols, y_exact, Y_EXACT_REL, 0, out);
}

void rf_bound_softmax_row_rel(const rf_plan *plan, const rf_exp_model *em, const float *x,
                              uint32_t cols, const double *y_exact, double y_rel,
                              double y_abs, rf_softmax_bound *out) {
  out->abs_floor = 0;
  out->abs_kernel = 0;
  out->row_sum_bound = 0;
  out->constant_row = 0;
  out->y_rel = y_rel;
  out->y_abs = y_abs;
  if (cols == 0) return;
  if (!(y_rel >= 0 && y_rel <= 0.5 && y_abs >= 0 && y_abs < INFINITY)) {
    bound_useless(cols, out);
    return;
  }
  const oracle_err o = {y_rel, y_abs, dn_one_minus(y_rel)};

  float m = -INFINITY;
  int has_nan = 0, all_equal = 1;
  for (uint32_t j = 0; j < cols; j++) {
    if (isnan(x[j])) has_nan = 1;
    else if (x[j] > m) m = x[j];
    if (x[j] != x[0]) all_equal = 0;
  }
  if (has_nan || isinf(m)) {
    /* Documented policy: a row with NaN, +inf, or only -inf has NaN as its exact answer;
     * no error bound applies and the runner compares IEEE classes. */
    for (uint32_t j = 0; j < cols; j++) out->rel[j] = 0;
    if (out->rel_kernel)
      for (uint32_t j = 0; j < cols; j++) out->rel_kernel[j] = 0;
    return;
  }
  if (all_equal && cols <= (UINT32_C(1) << 24)) {
    bound_constant_row(cols, &o, out);
    return;
  }

  /* The per-row constants are oracle/softmax_row_math.h's (shared with the device judge);
   * what follows here is the derivation they implement, and the two passes over the row. */
  const rf_smr_params prm = rf_softmax_bound_params(plan, em);
  /* A fast exp's error grows with its argument: every argument (x_j - m, and the rescales'
   * m_old - m_new) lies in [-(m - min x), 0]; only results that stay normal need the relative
   * model (|arg| < 87.4: below, flushed or subnormal results are in τ), so the argument is
   * capped at 88.
   * exp: |ê - e| <= θ e + τ. A k-ulp error with ulp(t) <= 2^-23 |t| = 2u|t| for normal t,
   * relative to the exact or to the computed value alike: θ = 2ku / (1 - 2ku). Subnormal
   * results: ulp 2^-149, so τ = k 2^-149; flush-to-zero: τ = 2^-126.
   * Underflow of one RN multiplication / division: μ = half the subnormal spacing, or a flush.
   * Flush-to-zero also flushes subnormal inputs and differences: x_j, m and x_j - m each
   * move by < 2^-126, once for the numerator and once per rescale along a path (η).
   * Division: IEEE one rounding, reciprocal-then-multiply two (c_hi, c_lo).
   * Each sum term carries 1 + R exp errors and R multiplication roundings:
   * (1+θ)^(1+R)(1+u)^R <= 1/(1-w) and (1-θ)^(1+R)(1-u)^R >= 1-w, w = (1+R)θ + Ru. */
  rf_smr_facts facts = {.cols = cols};
  if (prm.ulps_per_arg > 0)
    for (uint32_t j = 0; j < cols; j++) {
      double dd = (double)m - (double)x[j];
      if (dd > facts.span) facts.span = dd;
    }

  /* Pass 1: argument errors. |d̂_j - d_j| <= t_j = u|d_j| + η (one rounding; along an online
   * path the rescale arguments telescope to d_j, so their roundings add up to u|d_j| too).
   * e^{t} - 1 <= E = t/(1-t) <= t E_mul, E_mul = 1/(1 - t_cap), t_cap >= every t_j (dd <= 110).
   * With D_j = RN(dd_j (1 + 2^-52)) >= next_up(dd_j) >= |d_j| (0 when dd_j = 0: then d_j = 0),
   * E_j <= E_mul (u D_j + η), and weighted by y_j (the data's value of the "u ln C" term;
   * Σ y_j = 1):  arg = Σ y_j E_j <= E_mul (u Σ y_j D_j + η).
   * Elements with d_j < -110 are "deep": bounded absolutely, D_j stored as -1.
   * Not deep: D_j <= 110 (1 + 2^-51), which t_cap uses. */
  double yd_p[4] = {0, 0, 0, 0}, D_max = 0; /* four partial sums: any order is within γ_{C-1} */
  uint32_t n_deep = 0;
  for (uint32_t j = 0; j < cols; j++) {
    double D = rf_smr_D(m, x[j]);
    int deep = D < 0;
    out->rel[j] = D;
    n_deep += (uint32_t)deep;
    if (deep) D = 0;
    D_max = D > D_max ? D : D_max;
    yd_p[j & 3] += y_exact[j] * D; /* RN, bounded by dot_up */
  }
  facts.yd_s = (yd_p[0] + yd_p[1]) + (yd_p[2] + yd_p[3]);
  facts.D_max = D_max;
  facts.n_deep = n_deep;
  /* y_j <= (y_given_j + y_abs) / om: Σ y_j D_j <= (Σ y_given_j D_j + y_abs C D_max) / om.
   * Absolute terms, relative to S >= 1 (the maximum contributes exp(0) = 1): τ per exp,
   * the deep terms, and per rescale s·τ + μ with Σ s <= 2RC (each term <= K_hi <= 2 and on
   * at most R rescales), doubled for the (1+u) and K factors. Flushed sums: 2C 2^-126.
   * Ŝ/S in [L, U]: all sum terms are nonnegative, so the tree adds only γ_H.
   *
   * Pass 2: ŷ_j = ê_j/Ŝ (1+δ) + μ, Ŝ >= 1:
   *   ŷ_j - y_j <= y_j [(1+E_j)(1+θ)c_hi / L - 1]         + τ c_hi + μ
   *   y_j - ŷ_j <= y_j [1 - (1+E_j)^-1 (1-θ)c_lo / U]     + τ + μ
   * deep elements: ŷ_j, y_j in [0, (2^-157 + τ) c_hi + μ].
   * Both brackets are at most linear in E_j >= 0, so per-row constants take the divisions:
   *   (1+E) a - 1 = a E + (a - 1),                       a = (1+θ)c_hi / L;
   *   1 - c/(1+E) <= 1 - c(1-E) = c E + (1 - c),          c = (1-θ)c_lo / U  (0 < c <= 1);
   * both <= α E + β (α, β the larger coefficients), and with E_j <= E_mul (u D_j + η):
   *   rel_y,j = κ D_j + β',  κ = α E_mul u,  β' = α E_mul η + β.
   * Step 6: rel_j = (rel_y,j + y_rel) / om · slack = κ_f D_j + β_f, deep ones rel_deep.
   * |Σŷ - 1| <= Σ|ŷ_j - y_j| <= Σ_j (rel_y,j y_j + abs0) <= κ Σ y_j D_j + β' + C abs0
   * (Σ y_j = 1; deep elements have rel_y = 0). */
  rf_smr_consts k;
  if (rf_smr_consts_make(&prm, &facts, o.y_rel, o.y_abs, &k)) {
    bound_useless(cols, out);
    return;
  }
  /* κ, κ_f >= 2^-24 (α >= a_hi >= 1), D_j is 0 or >= 2^-149 and β', β_f >= b_hi > 2^-30:
   * up_mul_add_pos's no-underflow condition holds. */
  double *rel = out->rel, *rel_k = out->rel_kernel;
  if (rel_k)
    for (uint32_t j = 0; j < cols; j++) {
      double D = rel[j];
      rel_k[j] = D >= 0 ? up_mul_add_pos(k.kappa, D, k.beta1) : 0;
      rel[j] = D >= 0 ? up_mul_add_pos(k.kappa_f, D, k.beta_f) : k.rel_deep;
    }
  else
    for (uint32_t j = 0; j < cols; j++) {
      double D = rel[j];
      rel[j] = D >= 0 ? up_mul_add_pos(k.kappa_f, D, k.beta_f) : k.rel_deep;
    }
  out->abs_kernel = k.abs_kernel;
  out->abs_floor = k.abs_floor;
  out->row_sum_bound = k.row_sum_bound;
}

rf_smr_params rf_softmax_bound_params(const rf_plan *plan, const rf_exp_model *em) {
  rf_smr_params p = {.exp_ulps = em->exp_ulps, .ulps_per_arg = em->ulps_per_arg,
                     .ftz = em->ftz, .recip_mul = plan->div == RF_DIV_RECIP_MUL,
                     .depth = rf_plan_depth(plan), .rescales = plan->rescales};
  return p;
}

void rf_softmax_output_rounding(rf_dtype t, double *ut, double *eta) {
  const rf_dtype_info *ti = rf_dtype_get(t);
  *ut = *eta = 0;
  if (!ti || t == RF_DTYPE_F32) return;
  /* |RN_t(v) - v| <= u_t |v| + eta_t (docs/TOLERANCES.md, "Softmax output in a 16-bit type") */
  *ut = ldexp(1, -ti->p);
  *eta = ldexp(1, ti->emin - ti->p);
}

void rf_bound_softmax_output(rf_softmax_bound *b, uint32_t cols, rf_dtype t) {
  double ut, eta;
  rf_softmax_output_rounding(t, &ut, &eta);
  if (ut == 0) return;
  for (uint32_t j = 0; j < cols; j++) {
    b->rel[j] = rf_smr_out_rel(b->rel[j], ut);
    if (b->rel_kernel) b->rel_kernel[j] = rf_smr_out_rel(b->rel_kernel[j], ut);
  }
  b->abs_floor = rf_smr_out_abs(b->abs_floor, ut, eta);
  b->abs_kernel = rf_smr_out_abs(b->abs_kernel, ut, eta);
  b->row_sum_bound = rf_smr_out_row_sum(b->row_sum_bound, ut, eta, cols);
}

int rf_softmax_within(const rf_softmax_bound *b, uint32_t j, float y_hat, double y_exact) {
  return rf_smr_within(b->rel[j], b->abs_floor, y_hat, y_exact);
}

rf_sm_check rf_softmax_check(const rf_softmax_bound *b, uint32_t j, float y_hat,
                             double y_approx) {
  if (!b->rel_kernel) return RF_SM_UNSURE;
  const int k = rf_smr_check(b->rel_kernel[j], b->abs_kernel, b->y_rel, b->y_abs, y_hat, y_approx);
  return k == RF_SMR_PASS ? RF_SM_PASS : k == RF_SMR_FAIL ? RF_SM_FAIL : RF_SM_UNSURE;
}

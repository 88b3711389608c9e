/* Error bounds derived from a variant's plan and the data (oracle/bounds.h). The derivation,
 * with its sources, is docs/TOLERANCES.md; the comments here name the step each line does.
 *
 * Rounding: every bound is an upper bound on a real number, computed in double with directed
 * rounding emulated by "round to nearest, then one step outward" (next_up / next_down). That
 * is rigorous whatever the compiler does with fesetround (GCC does not honour FENV_ACCESS), as
 * long as double operations are IEEE binary64 operations: FLT_EVAL_METHOD 0 or 1 and no
 * fast-math (the build passes -fno-fast-math). */
#include "bounds.h"

#include <float.h>
#include <math.h>
#include <string.h>

#if !defined(FLT_EVAL_METHOD) || (FLT_EVAL_METHOD != 0 && FLT_EVAL_METHOD != 1)
#error "bounds.c needs double operations evaluated in binary64 (FLT_EVAL_METHOD 0 or 1)"
#endif

/* ---- directed rounding on top of round-to-nearest ----------------------------------------- */
static double next_up(double x) {
  if (isnan(x) || x == INFINITY) return x;
  if (x == 0) return 0x1p-1074;
  uint64_t b;
  memcpy(&b, &x, sizeof b);
  b = x > 0 ? b + 1 : b - 1;
  memcpy(&x, &b, sizeof b);
  return x;
}
static double next_down(double x) { return -next_up(-x); }
/* RN(a op b) is within one ulp of the exact a op b, so one step outward encloses it. */
static double up_add(double a, double b) { return next_up(a + b); }
static double up_sub(double a, double b) { return next_up(a - b); }
static double up_mul(double a, double b) { return next_up(a * b); }
static double up_div(double a, double b) { return next_up(a / b); }
static double dn_sub(double a, double b) { return next_down(a - b); }
static double dn_mul(double a, double b) { return next_down(a * b); }
static double dn_div(double a, double b) { return next_down(a / b); }
/* An integer count as a double that is not below it. */
static double up_count(uint64_t v) {
  double d = (double)v;
  return v > (UINT64_C(1) << 53) ? next_up(d) : d;
}

/* ---- sum ------------------------------------------------------------------------------------ */
double rf_gamma(uint64_t h) {
  if (h == 0) return 0;
  if (h >= (UINT64_C(1) << 24)) return INFINITY; /* h*u >= 1: Lemma 3.1 says nothing */
  double hu = (double)h * RF_U;                  /* exact: h < 2^24, u a power of two */
  return up_div(hu, 1.0 - hu);                   /* 1 - hu is exact (a multiple of 2^-24) */
}

/* The largest e such that x is an integer multiple of 2^e (x finite and nonzero). */
static int lowest_bit_exp(float x) {
  uint32_t b;
  memcpy(&b, &x, sizeof b);
  uint32_t biased = (b >> 23) & 0xffu, sig = b & 0x7fffffu;
  int e = -149; /* subnormal: x = sig * 2^-149 */
  if (biased) {
    sig |= 0x800000u;
    e = (int)biased - 150;
  }
  while (!(sig & 1u)) {
    sig >>= 1;
    e++;
  }
  return e;
}

void rf_sum_facts_compute(const float *x, size_t n, rf_sum_facts *f) {
  /* Σ|x_i| in double: each RN addition's error is found exactly with TwoSum (Knuth, TAOCP
   * vol. 2, §4.2.2); when none occurred the double sum is exact (so integer data keep their
   * exactness test), otherwise each error is at most 2^-53 times its partial sum, and the
   * partial sums of nonnegative terms never exceed the final one. */
  double s = 0;
  uint64_t inexact = 0;
  int min_exp = 0, any = 0, finite = 1;
  for (size_t i = 0; i < n; i++) {
    float v = x[i];
    if (!isfinite(v)) {
      finite = 0;
      continue;
    }
    if (v == 0) continue;
    int e = lowest_bit_exp(v);
    if (!any || e < min_exp) min_exp = e;
    any = 1;
    double a = fabs((double)v);
    double t = s + a, bp = t - s;
    double err = (s - (t - bp)) + (a - bp);
    inexact += err != 0;
    s = t;
  }
  f->abs_sum_up = inexact ? up_mul(s, up_add(1.0, up_count(inexact) * 0x1p-53)) : s;
  f->all_finite = finite;
  f->any_nonzero = any;
  f->min_exp = any ? min_exp : 0;
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
  for (uint32_t i = 0; i < plan->n_levels; i++)
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

/* ---- softmax -------------------------------------------------------------------------------- */
/* Exp models. exp_ulps is the error against the exact value, in ulps of the result.
 * CUDA C++ Programming Guide, "Mathematical Functions" appendix, single-precision table:
 *   expf 2 ulp, measured from the correctly rounded result; +0.5 for that rounding. */
const rf_exp_model RF_EXP_CUDA_EXPF = {2.5, 0};
/* ROCm HIP math API reference ("HIP math API", single precision): expf 1 ulp, measured from
 * the host C++ library's expf; that one (glibc) is itself within 1 ulp (below): 2. */
const rf_exp_model RF_EXP_OCML_EXPF = {2.0, 0};
/* GNU C Library manual, "Errors in Math Functions": expf on x86_64 listed at 1 ulp, measured
 * against the exact value. */
const rf_exp_model RF_EXP_HOST_LIBM = {1.0, 0};

/* exp(d) is treated as negligible below d = -110: e^-110 < 2^-158 (158 ln 2 < 109.52). */
#define DEEP_ARG 110.0
#define DEEP_TERM_UP 0x1p-157    /* >= e^-110 (1 + θ) and >= e^-110(1-u) K_hi, θ <= 1, K_hi <= 2 */
#define Y_EXACT_REL 0x1p-53      /* y_exact is y rounded to nearest double */
#define RUNNER_SLACK (1 + 0x1p-50) /* lets a plain RN check rel*y + abs >= |ŷ - y| stay rigorous */

/* Every x_j equal and finite: d̂_j = 0, ê_j = exp(0) = 1, every partial sum an integer
 * <= cols <= 2^24 and so exact, Ŝ = cols: ŷ_j = RN(1/cols) exactly (either division kind). */
static void bound_constant_row(uint32_t cols, rf_softmax_bound *out) {
  float r = 1.0f / (float)cols;
  double rel_true = fabs((double)r * cols - 1.0); /* exact: 48-bit product, Sterbenz */
  double rel = up_mul(up_div(up_add(rel_true, Y_EXACT_REL), 1.0 - Y_EXACT_REL), RUNNER_SLACK);
  for (uint32_t j = 0; j < cols; j++) out->rel[j] = rel;
  out->abs_floor = 0;
  out->row_sum_bound = rel_true; /* Σ ŷ_j = cols * r exactly */
  out->constant_row = 1;
}

static void bound_useless(uint32_t cols, rf_softmax_bound *out) {
  for (uint32_t j = 0; j < cols; j++) out->rel[j] = INFINITY;
  out->abs_floor = INFINITY;
  out->row_sum_bound = INFINITY;
}

void rf_bound_softmax_row(const rf_plan *plan, const rf_exp_model *em, const float *x,
                          uint32_t cols, const double *y_exact, rf_softmax_bound *out) {
  out->abs_floor = 0;
  out->row_sum_bound = 0;
  out->constant_row = 0;
  if (cols == 0) return;

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
    return;
  }
  if (all_equal && cols <= (UINT32_C(1) << 24)) {
    bound_constant_row(cols, out);
    return;
  }

  const double u = RF_U, C = cols;
  const double H_gamma = rf_gamma(rf_plan_depth(plan));
  const double R = up_count(plan->rescales);
  const double k = em->exp_ulps;
  /* exp: |ê - e| <= θ e + τ. A k-ulp error with ulp(t) <= 2^-23 |t| = 2u|t| for normal t,
   * relative to the exact or to the computed value alike: θ = 2ku / (1 - 2ku). Subnormal
   * results: ulp 2^-149, so τ = k 2^-149; flush-to-zero: τ = 2^-126. */
  const double two_ku = up_mul(2 * k, u);
  const double th = up_div(two_ku, dn_sub(1.0, two_ku));
  const double tau = em->ftz ? fmax(0x1p-126, up_mul(k, 0x1p-149)) : up_mul(k, 0x1p-149);
  /* Underflow of one RN multiplication / division: half the subnormal spacing, or a flush. */
  const double mu = em->ftz ? 0x1p-126 : 0x1p-150;
  /* Flush-to-zero also flushes subnormal inputs and differences: x_j, m and x_j - m each
   * move by < 2^-126, once for the numerator and once per rescale along a path. */
  const double eta = em->ftz ? up_mul(up_add(R, 1.0), 3 * 0x1p-126) : 0;
  /* Division: IEEE one rounding, reciprocal-then-multiply two. */
  const double c_hi = plan->div == RF_DIV_RECIP_MUL ? up_mul(1 + u, 1 + u) : 1 + u;
  const double c_lo = plan->div == RF_DIV_RECIP_MUL ? dn_mul(1 - u, 1 - u) : 1 - u;
  /* Each sum term carries 1 + R exp errors and R multiplication roundings:
   * (1+θ)^(1+R)(1+u)^R <= 1/(1-w) and (1-θ)^(1+R)(1-u)^R >= 1-w, w = (1+R)θ + Ru. */
  const double w = up_add(up_mul(up_add(R, 1.0), th), up_mul(R, u));
  const double K_hi = up_div(1.0, dn_sub(1.0, w));
  const double K_lo = dn_sub(1.0, w);
  if (!(th <= 1) || !(K_hi <= 2) || isinf(H_gamma)) {
    bound_useless(cols, out);
    return;
  }

  /* Pass 1: argument errors. |d̂_j - d_j| <= t_j = u|d_j| + η (one rounding; along an online
   * path the rescale arguments telescope to d_j, so their roundings add up to u|d_j| too).
   * e^{t} - 1 <= E = t/(1-t); weighted by y_j this is the data's value of the "u ln C" term.
   * Elements with d_j < -110 are "deep": bounded absolutely, E stored as -1. */
  double arg = 0;
  uint64_t n_deep = 0;
  for (uint32_t j = 0; j < cols; j++) {
    double dd = (double)m - (double)x[j]; /* RN; dd > 110 proves the exact d_j < -110 */
    if (!(dd <= DEEP_ARG)) {
      out->rel[j] = -1;
      n_deep++;
      continue;
    }
    double t = dd == 0 ? eta : up_add(up_mul(next_up(dd), u), eta);
    double E = up_div(t, dn_sub(1.0, t));
    out->rel[j] = E;
    arg = up_add(arg, up_mul(y_exact[j], E));
  }
  arg = up_div(arg, 1.0 - Y_EXACT_REL); /* y_j <= y_exact_j / (1 - 2^-53) */

  /* Absolute terms, relative to S >= 1 (the maximum contributes exp(0) = 1): τ per exp,
   * the deep terms, and per rescale s·τ + μ with Σ s <= 2RC (each term <= K_hi <= 2 and on
   * at most R rescales), doubled for the (1+u) and K factors. Flushed sums: 2C 2^-126. */
  double A = up_add(up_mul(C, tau), up_mul(up_count(n_deep), DEEP_TERM_UP));
  if (plan->rescales) A = up_add(A, up_mul(4 * C, up_add(up_mul(R, tau), mu)));
  double F = em->ftz ? up_mul(2 * C, 0x1p-126) : 0;
  /* Ŝ/S in [L, U]: all sum terms are nonnegative, so the tree adds only γ_H. */
  double U = up_mul(up_add(1.0, H_gamma),
                    up_add(up_add(up_mul(K_hi, up_add(1.0, arg)), A), F));
  double L = dn_mul(dn_sub(1.0, H_gamma),
                    dn_sub(dn_sub(dn_mul(K_lo, dn_sub(1.0, arg)), A), F));
  if (!(L > 0) || isinf(U)) {
    bound_useless(cols, out);
    return;
  }

  /* Pass 2: ŷ_j = ê_j/Ŝ (1+δ) + μ, Ŝ >= 1:
   *   ŷ_j - y_j <= y_j [(1+E_j)(1+θ)c_hi / L - 1]         + τ c_hi + μ
   *   y_j - ŷ_j <= y_j [1 - (1+E_j)^-1 (1-θ)c_lo / U]     + τ + μ
   * deep elements: ŷ_j, y_j in [0, (2^-157 + τ) c_hi + μ]. */
  double abs0 = up_add(up_mul(up_add(DEEP_TERM_UP, tau), c_hi), mu);
  double num_hi = up_mul(up_add(1.0, th), c_hi);
  double num_lo = dn_mul(dn_sub(1.0, th), c_lo);
  double row = 0;
  for (uint32_t j = 0; j < cols; j++) {
    double E = out->rel[j], rel_y = 0;
    if (E >= 0) {
      double hi = up_sub(up_div(up_mul(up_add(1.0, E), num_hi), L), 1.0);
      double lo = up_sub(1.0, dn_div(dn_mul(dn_div(1.0, up_add(1.0, E)), num_lo), U));
      rel_y = fmax(hi, lo);
    }
    /* Against y_exact: |ŷ - y_exact| <= (rel_y + 2^-53) y <= (rel_y + 2^-53)/(1-2^-53) y_exact */
    out->rel[j] = up_mul(up_div(up_add(rel_y, Y_EXACT_REL), 1.0 - Y_EXACT_REL), RUNNER_SLACK);
    double y_up = up_div(y_exact[j], 1.0 - Y_EXACT_REL);
    row = up_add(row, up_add(up_mul(rel_y, y_up), abs0)); /* |Σŷ - 1| <= Σ|ŷ_j - y_j| */
  }
  out->abs_floor = up_mul(abs0, RUNNER_SLACK);
  out->row_sum_bound = row;
}

int rf_softmax_within(const rf_softmax_bound *b, uint32_t j, float y_hat, double y_exact) {
  if (!isfinite(y_hat) || !isfinite(y_exact)) return 0;
  double allowed = up_add(up_mul(b->rel[j], y_exact), b->abs_floor);
  /* |ŷ - y_exact| exactly as s + t (TwoSum), compared with allowed without rounding. */
  double a = y_hat, c = -y_exact;
  double s = a + c, bp = s - a;
  double t = (a - (s - bp)) + (c - bp);
  if (s < 0 || (s == 0 && t < 0)) {
    s = -s;
    t = -t;
  }
  return s < allowed || (s == allowed && t <= 0);
}

/* Device-free pieces of `redfuzz study` (study.h). */
#include "study.h"
#include "judge.h"
#include "model/number.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- sizes ------------------------------------------------------------------------------ */
/* One end of a range (name "LO" or "HI"): the text between s and end, a number in
 * 1..2^64-1 through rf_num_parse. 0, or -1 with why. */
static int parse_size(const char *name, const char *s, const char *end, uint64_t *out,
                      char *why, size_t whylen) {
  char buf[64], inner[192];
  const size_t len = (size_t)(end - s);
  if (len == 0) {
    snprintf(why, whylen, "%s is missing", name);
    return -1;
  }
  snprintf(buf, sizeof buf, "%.*s", (int)(len < sizeof buf ? len : sizeof buf - 1), s);
  if (len >= sizeof buf || rf_num_parse(buf, 0, UINT64_MAX, out, inner, sizeof inner)) {
    if (len >= sizeof buf) snprintf(inner, sizeof inner, "'%s...' is not a number", buf);
    char *allowed = strstr(inner, " (allowed");   /* the caller says what a range allows */
    if (allowed) *allowed = '\0';
    /* past 64 bits: no command could clamp it */
    snprintf(why, whylen, "%s %s%s", name, inner,
             strstr(inner, "out of range") ? ": past 2^64-1, the largest number" : "");
    return -1;
  }
  if (*out == 0) {
    snprintf(why, whylen, "%s is 0 (sizes start at 1)", name);
    return -1;
  }
  return 0;
}

int rf_study_parse_range(const char *s, uint64_t *lo, uint64_t *hi, char *why, size_t whylen) {
  char spare[8];
  if (!why) { why = spare; whylen = sizeof spare; }
  const char *dots = strstr(s, "..");
  const char *end = s + strlen(s);
  if (!dots) {
    if (parse_size("LO", s, end, lo, why, whylen)) return -1;
    *hi = *lo;
    return 0;
  }
  if (parse_size("LO", s, dots, lo, why, whylen) || parse_size("HI", dots + 2, end, hi, why, whylen))
    return -1;
  if (*lo > *hi) {
    snprintf(why, whylen, "LO %llu is above HI %llu", (unsigned long long)*lo,
             (unsigned long long)*hi);
    return -1;
  }
  return 0;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

size_t rf_study_sizes(uint64_t lo, uint64_t hi, uint64_t *out, size_t max) {
  /* Collect candidates (at most 2 per binade + the ends), then sort and drop repeats. */
  uint64_t cand[2 * 64 + 2];
  size_t k = 0;
  cand[k++] = lo;
  cand[k++] = hi;
  for (int e = 0; e < 63; e++) {
    uint64_t p = 1ull << e;
    if (p >= lo && p <= hi) cand[k++] = p;
    if (e < 62) {
      uint64_t mid = (uint64_t)ldexp(sqrt(2.0), e) | 1u; /* odd, just above 2^(e+1/2) */
      if (mid >= lo && mid <= hi) cand[k++] = mid;
    }
  }
  qsort(cand, k, sizeof *cand, cmp_u64);
  size_t w = 0;
  for (size_t i = 0; i < k && w < max; i++)
    if (w == 0 || cand[i] != out[w - 1]) out[w++] = cand[i];
  return w;
}

/* ---- host references -------------------------------------------------------------------- */
static const char *const cpu_names[RF_STUDY_CPU_COUNT] = {"cpu/sequential", "cpu/pairwise"};

const char *rf_study_cpu_name(rf_study_cpu which) {
  return (unsigned)which < RF_STUDY_CPU_COUNT ? cpu_names[which] : NULL;
}

int rf_study_cpu_parse(const char *name, rf_study_cpu *out) {
  for (int i = 0; i < RF_STUDY_CPU_COUNT; i++)
    if (strcmp(name, cpu_names[i]) == 0) { *out = (rf_study_cpu)i; return 0; }
  return -1;
}

/* Recursion depth is ceil(log2 n) <= 64: no risk to the stack. */
static float pairwise(const float *x, size_t n) {
  if (n == 1) return x[0];
  size_t left = n - n / 2; /* ceil(n/2): depth(n) = 1 + depth(ceil(n/2)) = ceil(log2 n) */
  return pairwise(x, left) + pairwise(x + left, n / 2);
}

float rf_study_cpu_sum(rf_study_cpu which, const float *x, size_t n, rf_plan *plan) {
  memset(plan, 0, sizeof *plan);
  if (n == 0) return 0.0f;
  if (which == RF_STUDY_CPU_PAIRWISE) {
    rf_plan_add(plan, RF_LEVEL_HOST, rf_ceil_log2(n));
    return pairwise(x, n);
  }
  rf_plan_add(plan, RF_LEVEL_CHAIN, n - 1);
  float s = x[0]; /* binary32 throughout: C11 with FLT_EVAL_METHOD 0, no fast-math */
  for (size_t i = 1; i < n; i++) s += x[i];
  return s;
}

void rf_study_cpu_run(rf_study_cpu which, const float *x, size_t n, const rf_xsum *exact,
                      const rf_sum_facts *facts, rf_result *out) {
  memset(out, 0, sizeof *out);
  rf_plan plan;
  float got = rf_study_cpu_sum(which, x, n, &plan);
  rf_plan_format(&plan, out->plan, sizeof out->plan);
  out->depth = rf_plan_depth(&plan);
  /* Host code adds in IEEE arithmetic: the one judge with the exact-IEEE model. */
  /* Its sums start from the first element: a sum of only -0 is -0, held to the IEEE sign. */
  rf_judge_sum_exact(exact, facts, &plan, &RF_SUM_IEEE, RF_CONTRACT_SIGNED_ZERO, got, out);
}

/* ---- measures --------------------------------------------------------------------------- */
double rf_study_ulp_f32(double v) {
  v = fabs(v);
  if (!(v >= 0x1p-126)) return 0x1p-149; /* subnormal range (and NaN) */
  if (isinf(v)) return INFINITY;
  int e;
  frexp(v, &e); /* v = m 2^e, 0.5 <= m < 1: the binade is [2^(e-1), 2^e) */
  return ldexp(1.0, e - 1 - 23);
}

/* a / b, NaN when b is 0 (the measure does not apply), 0 when a is. */
static double over(double a, double b) {
  if (a == 0) return 0;
  return b > 0 ? a / b : NAN;
}

void rf_study_measure_of(rf_op op, const rf_result *r, rf_study_measure *m) {
  m->err = r->err;
  m->bound = r->bound;
  m->ratio = r->ratio;
  /* An accepted overflow leaves err at 0 while got is not finite: nothing was measured. */
  m->usable = (r->verdict == RF_V_PASS || r->verdict == RF_V_WRONG) && isfinite(r->err) &&
              isfinite(r->got);
  double s = fabs(r->want);
  m->rel_s = over(r->err, s);
  m->ulps = r->err / rf_study_ulp_f32(r->want);
  m->sqrt_h = sqrt((double)r->depth);
  if (op == RF_OP_SUM) {
    m->rel_abs = over(r->err, r->abs_sum);
    m->scale = RF_U * r->abs_sum;
  } else {
    /* Relative to y_j, but never to less than the smallest normal float: below it the bound
     * is an absolute floor, and a relative error of a result that underflows says nothing. */
    m->rel_abs = NAN;
    m->scale = RF_U * (s > 0x1p-126 ? s : 0x1p-126);
    m->sqrt_h = NAN; /* the √h level is a statement about sums, not about softmax */
  }
  m->scaled_err = over(r->err, m->scale);
  m->scaled_bound = m->scale > 0 ? r->bound / m->scale : NAN;
  if (!m->usable) /* nothing was measured: no error to report, not even 0 */
    m->err = m->rel_s = m->rel_abs = m->ulps = m->ratio = m->scaled_err = NAN;
}

/* ---- statistics ------------------------------------------------------------------------- */
static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double rf_study_quantile(double *v, size_t n, double q) {
  if (n == 0) return NAN;
  qsort(v, n, sizeof *v, cmp_double);
  double pos = q * (double)(n - 1);
  size_t i = (size_t)pos;
  if (i + 1 >= n) return v[n - 1];
  double frac = pos - (double)i;
  /* v[i] + frac (v[i+1] - v[i]) would give NaN for inf - inf: take the order statistic. */
  if (frac == 0 || isinf(v[i + 1])) return frac == 0 ? v[i] : v[i + 1];
  return v[i] + frac * (v[i + 1] - v[i]);
}

int rf_study_fit_slope(const double *x, const double *y, size_t n, double *slope) {
  if (n < 2) return -1;
  double mx = 0, my = 0;
  for (size_t i = 0; i < n; i++) { mx += x[i]; my += y[i]; }
  mx /= (double)n;
  my /= (double)n;
  double sxx = 0, sxy = 0;
  for (size_t i = 0; i < n; i++) {
    sxx += (x[i] - mx) * (x[i] - mx);
    sxy += (x[i] - mx) * (y[i] - my);
  }
  if (sxx == 0) return -1;
  *slope = sxy / sxx;
  return 0;
}

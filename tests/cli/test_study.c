/* The device-free parts of `redfuzz study` (fuzz/study.h, fuzz/study_report.h): size ranges
 * and sweeps, the host references (their order of additions, their plans, their judge, which
 * must report a wrong sum), the error measures, quantiles and slope fits, and the summary
 * and fit tables computed from planted runs whose answers are known. */
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rf_test.h"
#include "run/study.h"
#include "run/study_report.h"

static void test_parse_range(void) {
  uint64_t lo = 0, hi = 0;
  CHECK(rf_study_parse_range("2^4..2^26", &lo, &hi, NULL, 0) == 0 && lo == 16 && hi == (1u << 26));
  CHECK(rf_study_parse_range("100..1000", &lo, &hi, NULL, 0) == 0 && lo == 100 && hi == 1000);
  CHECK(rf_study_parse_range("2^10", &lo, &hi, NULL, 0) == 0 && lo == 1024 && hi == 1024);
  CHECK(rf_study_parse_range("2^62..2^62", &lo, &hi, NULL, 0) == 0 && lo == (1ull << 62));
  /* A HI of any size is a range (the commands clamp it to what the backend runs, as they did
   * 2^62 while 2^63 was "not valid") */
  CHECK(rf_study_parse_range("2^4..2^63", &lo, &hi, NULL, 0) == 0 && hi == (1ull << 63));
  CHECK(rf_study_parse_range("1..18446744073709551615", &lo, &hi, NULL, 0) == 0 && hi == UINT64_MAX);
  /* Each refusal says which end and why. */
  static const struct { const char *in, *why; } bad[] = {
    {"", "LO is missing"}, {"5..4", "LO 5 is above HI 4"}, {"a..b", "LO 'a' is not a number"},
    {"2^4..", "HI is missing"}, {"..5", "LO is missing"}, {"2^..8", "LO '2^' is not a number"},
    {"-1..4", "LO '-1' is not a number"}, {"4...8", "HI '.8' is not a number"},
    {"1e3", "LO '1e3' is not a number"}, {"2^4..2^x", "HI '2^x' is not a number"},
    {"0..4", "LO is 0 (sizes start at 1)"},
    {"1..2^64", "HI '2^64' is out of range: past 2^64-1, the largest number"}};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    char why[256] = "";
    CHECK_MSG(rf_study_parse_range(bad[i].in, &lo, &hi, why, sizeof why) == -1, "'%s' accepted",
              bad[i].in);
    CHECK_MSG(strstr(why, bad[i].why) != NULL, "'%s': '%s', want '%s'", bad[i].in, why, bad[i].why);
  }
}

static void test_sizes(void) {
  uint64_t s[200];
  size_t k = rf_study_sizes(16, 64, s, 200);
  const uint64_t want[] = {16, 23, 32, 45, 64};
  CHECK(k == 5);
  for (size_t i = 0; i < k && i < 5; i++) CHECK_MSG(s[i] == want[i], "s[%zu] = %llu", i,
                                                    (unsigned long long)s[i]);
  /* The ends are swept even when they are not powers of two. */
  k = rf_study_sizes(20, 40, s, 200);
  CHECK(k == 4 && s[0] == 20 && s[1] == 23 && s[2] == 32 && s[3] == 40);
  k = rf_study_sizes(1, 4, s, 200);
  CHECK(k == 4 && s[0] == 1 && s[1] == 2 && s[2] == 3 && s[3] == 4);
  k = rf_study_sizes(7, 7, s, 200);
  CHECK(k == 1 && s[0] == 7);
  /* The whole range: ascending, no repeats, every power of two, an odd size between each. */
  k = rf_study_sizes(1, 1ull << 62, s, 200);
  CHECK(k == 63 + 61); /* 2^0..2^62 and the odd sizes after 2^1..2^61 (after 2^0 it is 1) */
  for (size_t i = 1; i < k; i++) CHECK(s[i] > s[i - 1]);
  for (int e = 1; e < 62; e++) {
    size_t i = 0;
    while (i < k && s[i] != (1ull << e)) i++;
    CHECK_MSG(i + 1 < k && (s[i + 1] & 1) && s[i + 1] < (1ull << (e + 1)), "after 2^%d", e);
  }
  CHECK(rf_study_sizes(1, 1ull << 62, s, 10) == 10); /* never past max */
}

static void test_cpu_references(void) {
  /* 2^24 + 1 + 1 + 1 + 1: in order every 1 is lost (ties to even); pairwise adds 1 + 1 first
   * in the right half, so only the left half's single 1 is lost. */
  const float x[5] = {0x1p24f, 1, 1, 1, 1};
  rf_plan p;
  CHECK(rf_study_cpu_sum(RF_STUDY_CPU_SEQUENTIAL, x, 5, &p) == 0x1p24f);
  CHECK(rf_plan_depth(&p) == 4);
  CHECK(rf_study_cpu_sum(RF_STUDY_CPU_PAIRWISE, x, 5, &p) == 0x1p24f + 2);
  CHECK(rf_plan_depth(&p) == 3);
  CHECK(rf_study_cpu_sum(RF_STUDY_CPU_PAIRWISE, x, 1, &p) == 0x1p24f && rf_plan_depth(&p) == 0);
  CHECK(rf_study_cpu_sum(RF_STUDY_CPU_SEQUENTIAL, x, 0, &p) == 0 && rf_plan_depth(&p) == 0);
  float big[1025];
  for (int i = 0; i < 1025; i++) big[i] = 1;
  CHECK(rf_study_cpu_sum(RF_STUDY_CPU_PAIRWISE, big, 1024, &p) == 1024 && rf_plan_depth(&p) == 10);
  CHECK(rf_study_cpu_sum(RF_STUDY_CPU_PAIRWISE, big, 1025, &p) == 1025 && rf_plan_depth(&p) == 11);

  rf_study_cpu c;
  CHECK(rf_study_cpu_parse("cpu/pairwise", &c) == 0 && c == RF_STUDY_CPU_PAIRWISE);
  CHECK(strcmp(rf_study_cpu_name(RF_STUDY_CPU_SEQUENTIAL), "cpu/sequential") == 0);
  CHECK(rf_study_cpu_parse("sum/lds", &c) == -1);
}

static void exact_of(const float *x, size_t n, rf_xsum *xs, rf_sum_facts *f) {
  rf_xsum_init(xs);
  rf_xsum_add(xs, x, n);
  rf_sum_facts_compute(x, n, f);
}

static void test_cpu_judge(void) {
  const float x[5] = {0x1p24f, 1, 1, 1, 1};
  rf_xsum xs;
  rf_sum_facts f;
  rf_result r;
  exact_of(x, 5, &xs, &f);
  /* The sequential error, 4, sits just under γ_4 (2^24 + 4): a pass at err/bound ~ 1. */
  rf_study_cpu_run(RF_STUDY_CPU_SEQUENTIAL, x, 5, &xs, &f, &r);
  CHECK(r.verdict == RF_V_PASS && r.err == 4 && r.depth == 4);
  CHECK(r.ratio > 0.999 && r.ratio <= 1);
  CHECK(r.want == 0x1p24 + 4 && r.got == 0x1p24f && strstr(r.plan, "h=4"));
  CHECK(!r.suspicious); /* 4 < λ·√h·u·Σ|x_i| = 4·2·2^-24·(2^24 + 4), just above 8 */

  /* A planted wrong answer: the oracle saw one more element than the reference summed. On
   * integers the bound is 0 (every partial sum exact), so the missing 1 must be reported. */
  const float ones[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  exact_of(ones, 9, &xs, &f);
  rf_study_cpu_run(RF_STUDY_CPU_PAIRWISE, ones, 8, &xs, &f, &r);
  CHECK(r.verdict == RF_V_WRONG && r.err == 1 && r.bound == 0 && isinf(r.ratio));
  rf_study_cpu_run(RF_STUDY_CPU_PAIRWISE, ones, 9, &xs, &f, &r);
  CHECK(r.verdict == RF_V_PASS && r.err == 0 && r.ratio == 0);

  /* Partial sums that overflow: inf is accepted, but nothing was measured. */
  const float huge[4] = {FLT_MAX, FLT_MAX, -FLT_MAX, -FLT_MAX};
  exact_of(huge, 4, &xs, &f);
  rf_study_cpu_run(RF_STUDY_CPU_SEQUENTIAL, huge, 4, &xs, &f, &r);
  CHECK(r.verdict == RF_V_PASS && isinf(r.got) && strstr(r.detail, "overflow"));
  rf_study_measure m;
  rf_study_measure_of(RF_OP_SUM, &r, &m);
  CHECK(!m.usable && isnan(m.err) && isnan(m.scaled_err) && isnan(m.ratio));
}

static void test_measures(void) {
  CHECK(rf_study_ulp_f32(1.0) == 0x1p-23 && rf_study_ulp_f32(1.5) == 0x1p-23);
  CHECK(rf_study_ulp_f32(-3.0) == 0x1p-22 && rf_study_ulp_f32(0x1p24 + 4) == 2);
  CHECK(rf_study_ulp_f32(0x1p-126) == 0x1p-149 && rf_study_ulp_f32(0x1p-127) == 0x1p-149);
  CHECK(rf_study_ulp_f32(0) == 0x1p-149 && rf_study_ulp_f32(FLT_MAX) == 0x1p104);

  rf_result r;
  memset(&r, 0, sizeof r);
  r.verdict = RF_V_PASS;
  r.err = 4;
  r.want = 0x1p24 + 4;
  r.got = 0x1p24f;
  r.abs_sum = 0x1p24 + 4;
  r.bound = 8;
  r.ratio = 0.5;
  r.depth = 9;
  rf_study_measure m;
  rf_study_measure_of(RF_OP_SUM, &r, &m);
  CHECK(m.usable && m.err == 4 && m.ratio == 0.5);
  CHECK(m.rel_s == 4 / (0x1p24 + 4) && m.rel_abs == m.rel_s);
  CHECK(m.ulps == 2 && m.sqrt_h == 3);
  CHECK(fabs(m.scaled_err - 4 / (RF_U * (0x1p24 + 4))) < 1e-12);
  CHECK(fabs(m.scaled_bound - 8 / (RF_U * (0x1p24 + 4))) < 1e-12);
  r.want = 0; /* relative to an exact zero: does not apply */
  rf_study_measure_of(RF_OP_SUM, &r, &m);
  CHECK(isnan(m.rel_s));
  r.err = 0;
  rf_study_measure_of(RF_OP_SUM, &r, &m);
  CHECK(m.rel_s == 0 && m.scaled_err == 0);
  r.verdict = RF_V_UNSUPPORTED;
  rf_study_measure_of(RF_OP_SUM, &r, &m);
  CHECK(!m.usable);

  /* Softmax: relative to y_j, but to no less than 2^-126 (results that underflow). */
  memset(&r, 0, sizeof r);
  r.verdict = RF_V_WRONG;
  r.err = 0x1p-30;
  r.want = 0.25;
  r.got = 0.25f;
  r.depth = 12;
  rf_study_measure_of(RF_OP_SOFTMAX, &r, &m);
  CHECK(m.usable && m.rel_s == 0x1p-28 && m.scaled_err == 0x1p-4 && isnan(m.sqrt_h));
  CHECK(isnan(m.rel_abs));
  r.err = 0x1p-149;
  r.want = 0x1p-140;
  rf_study_measure_of(RF_OP_SOFTMAX, &r, &m);
  CHECK(m.rel_s == 0x1p-9 && m.scaled_err == 0x1p-149 / (RF_U * 0x1p-126));
}

static void test_statistics(void) {
  double a[] = {3, 1, 2};
  CHECK(rf_study_quantile(a, 3, 0.5) == 2);
  double b[] = {4, 3, 2, 1};
  CHECK(rf_study_quantile(b, 4, 0.5) == 2.5);
  double c[10];
  for (int i = 0; i < 10; i++) c[i] = 10 - i;
  CHECK(fabs(rf_study_quantile(c, 10, 0.9) - 9.1) < 1e-12); /* 1 + 0.9·9 = 9.1th value */
  CHECK(rf_study_quantile(c, 10, 1.0) == 10 && rf_study_quantile(c, 10, 0) == 1);
  CHECK(isnan(rf_study_quantile(c, 0, 0.5)));
  double d[] = {INFINITY, 1};
  CHECK(rf_study_quantile(d, 2, 0.5) == INFINITY); /* not NaN from inf - 1 */

  double x[5], y[5], s = 0;
  for (int i = 0; i < 5; i++) { x[i] = i + 4; y[i] = 0.5 * x[i] + 3; }
  CHECK(rf_study_fit_slope(x, y, 5, &s) == 0 && fabs(s - 0.5) < 1e-12);
  y[4] += 1; /* the last point 1 higher: least squares moves the slope by (8-6)·1/Σ(x-6)² */
  CHECK(rf_study_fit_slope(x, y, 5, &s) == 0 && fabs(s - 0.7) < 1e-12);
  double same[3] = {2, 2, 2};
  CHECK(rf_study_fit_slope(same, y, 3, &s) == -1 && rf_study_fit_slope(x, y, 1, &s) == -1);
}

/* Planted runs: variant 0 with err/(u Σ|x|) = k·√n and h = n (a √n law, seeds k = 1, 2, 3);
 * variant 1 with a constant error and h = ceil(log2 n). */
static size_t plant(rf_study_run *runs, const uint64_t *sizes, size_t ns) {
  size_t k = 0;
  for (unsigned v = 0; v < 2; v++)
    for (size_t i = 0; i < ns; i++)
      for (unsigned seed = 1; seed <= 3; seed++) {
        rf_study_run *r = &runs[k++];
        memset(r, 0, sizeof *r);
        r->variant = v;
        r->n = sizes[i];
        r->seed = seed;
        r->verdict = RF_V_PASS;
        r->depth = v == 0 ? sizes[i] : rf_ceil_log2(sizes[i]);
        r->m.usable = 1;
        r->m.sqrt_h = sqrt((double)r->depth);
        r->m.scaled_err = v == 0 ? seed * sqrt((double)sizes[i]) : 0.25 * seed;
        r->m.scaled_bound = (double)r->depth;
        r->m.ratio = r->m.scaled_err / r->m.scaled_bound;
        r->m.ulps = r->m.rel_s = r->m.scaled_err;
      }
  return k;
}

static char *capture(void (*w)(FILE *, const rf_study_layout *, const rf_study_run *, size_t),
                     const rf_study_layout *L, const rf_study_run *runs, size_t n) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  w(f, L, runs, n);
  fclose(f);
  return buf;
}

static void test_tables(void) {
  const uint64_t sizes[] = {64, 256, 1024, 4096};
  static const char *const names[] = {"cpu/sequential", "cpu/pairwise"};
  const rf_dist dists[] = {RF_DIST_NEGATIVE};
  rf_study_run runs[2 * 4 * 3];
  size_t n = plant(runs, sizes, 4);
  rf_study_layout L = {RF_OP_SUM, names, 2, dists, 1, sizes, 4, 256, UINT64_MAX};

  char *fit = capture(rf_study_write_fit, &L, runs, n);
  /* √n law: slope 0.5, like √h (h = n); the bound's slope 1; c = err/√h = the seed: median
   * 2, max 3. Three sizes >= 256 enter the fit. Then the constant error: slope 0. */
  CHECK_MSG(strstr(fit, "\nsum,cpu/sequential,negative,3,256,4096,0.5,0.5,1,2,3,12,12,0,0,") != NULL,
            "%s", fit);
  CHECK_MSG(strstr(fit, "\nsum,cpu/pairwise,negative,3,256,4096,0,") != NULL, "%s", fit);
  free(fit);

  char *sum = capture(rf_study_write_summary, &L, runs, n);
  /* n = 1024, variant 0: errors 32, 64, 96 -> median 64, p90 89.6, max 96; ratios /1024. */
  CHECK_MSG(strstr(sum, "\nsum,cpu/sequential,negative,1024,0,3,3,0,0,1024,1024,32,64,89.6,96,"
                        "0.0625,0.0875,0.09375,") != NULL, "%s", sum);
  size_t lines = 0;
  for (const char *p = sum; *p; p++) lines += *p == '\n';
  CHECK(lines == 1 + 2 * 4);
  free(sum);

  char *rd = capture(rf_study_write_ratio_dist, &L, runs, n);
  CHECK_MSG(strncmp(rd, "op,vi,variant,di,dist,usable,zero,p10,", 38) == 0 &&
            strstr(rd, "\nsum,1,cpu/pairwise,0,negative,12,0,") != NULL, "%s", rd);
  free(rd);

  /* A window that holds one size cannot give a slope: an empty field, not a number. */
  L.fit_max = 256;
  fit = capture(rf_study_write_fit, &L, runs, n);
  CHECK_MSG(strstr(fit, "\nsum,cpu/sequential,negative,1,256,256,,,,2,3,") != NULL, "%s", fit);
  free(fit);
}

/* Fields of one CSV record per RFC 4180 (quoted fields may hold commas, doubled quotes and
 * line breaks); *p moves past the record. -1 for a malformed quote. */
static int csv_fields(const char **p) {
  const char *s = *p;
  int fields = 1;
  for (;;) {
    if (*s == '"') {
      for (s++;; s++) {
        if (!*s) return -1;
        if (*s == '"' && s[1] == '"') { s++; continue; }
        if (*s == '"') { s++; break; }
      }
      if (*s && *s != ',' && *s != '\n') return -1;   /* text after the closing quote */
    }
    while (*s && *s != ',' && *s != '\n') {
      if (*s == '"') return -1;   /* a quote inside an unquoted field */
      s++;
    }
    if (*s == ',') { fields++; s++; continue; }
    if (*s == '\n') s++;
    *p = s;
    return fields;
  }
}

/* Every record of the table has the header's field count. */
static void check_fields(const char *what, const char *csv) {
  const char *p = csv;
  int header = csv_fields(&p), rows = 0;
  while (*p) {
    int k = csv_fields(&p);
    rows++;
    CHECK_MSG(k == header, "%s row %d: %d fields, the header %d:\n%s", what, rows, k, header, csv);
    if (k < 0) break;
  }
  CHECK_MSG(rows > 0, "%s: no rows", what);
}

/* Names, plans and details with commas, quotes and line breaks (a plugin's variant, the
 * plan of softmax/online) stay one field each: quoted per RFC 4180. */
static void test_csv_quoting(void) {
  const uint64_t sizes[] = {64, 256, 1024, 4096};
  static const char *const names[] = {"sum/a,b", "sum/say \"hi\"\nthere"};
  const rf_dist dists[] = {RF_DIST_NEGATIVE};
  rf_study_run runs[2 * 4 * 3];
  size_t n = plant(runs, sizes, 4);
  rf_study_layout L = {RF_OP_SUM, names, 2, dists, 1, sizes, 4, 256, UINT64_MAX};
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  rf_study_runs_header(f);
  rf_result r;
  memset(&r, 0, sizeof r);
  snprintf(r.plan, sizeof r.plan, "online 2, lds 8 (h=\"3\")");
  snprintf(r.detail, sizeof r.detail, "got 1, want \"2\"\nsecond line");
  for (size_t i = 0; i < n; i++) rf_study_runs_row(f, &L, &runs[i], &r);
  fclose(f);
  check_fields("runs.csv", buf);
  CHECK_MSG(strstr(buf, "\nsum,\"sum/a,b\",negative,") != NULL, "%s", buf);
  CHECK_MSG(strstr(buf, ",\"online 2, lds 8 (h=\"\"3\"\")\",") != NULL, "%s", buf);
  free(buf);
  char *t = capture(rf_study_write_summary, &L, runs, n);
  check_fields("summary.csv", t);
  free(t);
  t = capture(rf_study_write_fit, &L, runs, n);
  check_fields("fit.csv", t);
  free(t);
  t = capture(rf_study_write_ratio_dist, &L, runs, n);
  check_fields("ratio_dist.csv", t);
  free(t);
}

int main(void) {
  test_parse_range();
  test_sizes();
  test_cpu_references();
  test_cpu_judge();
  test_measures();
  test_statistics();
  test_tables();
  test_csv_quoting();
  return rf_test_done();
}

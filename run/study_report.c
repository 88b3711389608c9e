/* The CSV files of `redfuzz study` (study_report.h). Every table is computed from the runs
 * in the layout's order, so the files are byte-identical for the same runs. */
#include "study_report.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* NaN (a measure that does not apply) is an empty field; gnuplot skips it. */
static void num(FILE *f, double v) {
  if (isnan(v)) fputc(',', f);
  else if (isinf(v)) fprintf(f, ",%sinf", v < 0 ? "-" : "");
  else fprintf(f, ",%.6g", v);
}

/* A text field per RFC 4180: in double quotes, inner quotes doubled, when it holds a comma,
 * a quote, CR or LF (plugin names and plans may: "chain 2, lds 8"); as it is otherwise, so
 * the plain names stay plain for gnuplot. Each field is preceded by sep (0: none). */
static void csv_field(FILE *f, char sep, const char *s) {
  if (sep) fputc(sep, f);
  if (!strpbrk(s, ",\"\r\n")) { fputs(s, f); return; }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

/* The free-text detail on one line (line-oriented readers: gnuplot, grep), then quoted as
 * needed. */
static void detail_field(FILE *f, const char *s) {
  char line[sizeof ((rf_result *)0)->detail];
  snprintf(line, sizeof line, "%s", s);
  for (char *p = line; *p; p++)
    if (*p == '\n' || *p == '\r') *p = ' ';
  csv_field(f, ',', line);
}

void rf_study_runs_header(FILE *f) {
  fputs("op,variant,dist,n,rows,seed,verdict,h,got,want,err_abs,err_rel_s,err_rel_abs,"
        "err_ulps,bound,ratio,prob_level,scaled_err,scaled_bound,sqrt_h,suspicious,plan,"
        "detail\n", f);
}

void rf_study_runs_row(FILE *f, const rf_study_layout *L, const rf_study_run *run,
                       const rf_result *r) {
  const rf_study_measure *m = &run->m;
  csv_field(f, 0, rf_op_name(L->op));
  csv_field(f, ',', L->variants[run->variant]);
  csv_field(f, ',', rf_dist_name(L->dists[run->dist]));
  fprintf(f, ",%llu,%u,%llu,%s,%llu,%.9g,%.17g", (unsigned long long)run->n, run->rows, (unsigned long long)run->seed,
          rf_verdict_name(run->verdict), (unsigned long long)run->depth, (double)r->got,
          r->want);
  num(f, m->err);
  num(f, m->rel_s);
  num(f, m->rel_abs);
  num(f, m->ulps);
  num(f, m->bound);
  num(f, m->ratio);
  num(f, L->op == RF_OP_SUM ? r->probabilistic : NAN);
  num(f, m->scaled_err);
  num(f, m->scaled_bound);
  num(f, m->sqrt_h);
  fprintf(f, ",%d", run->suspicious);
  csv_field(f, ',', r->plan);
  detail_field(f, r->detail);
  fputc('\n', f);
}

/* ---- gathering one measure over a group of runs ----------------------------------------- */
typedef enum { F_SCALED_ERR, F_SCALED_BOUND, F_RATIO, F_ULPS, F_REL_S, F_C } field;

static double value_of(const rf_study_run *r, field fl) {
  const rf_study_measure *m = &r->m;
  switch (fl) {
  case F_SCALED_ERR: return m->scaled_err;
  case F_SCALED_BOUND: return m->scaled_bound;
  case F_RATIO: return m->ratio;
  case F_ULPS: return m->ulps;
  case F_REL_S: return m->rel_s;
  case F_C: return m->sqrt_h > 0 ? m->scaled_err / m->sqrt_h : NAN; /* err / (√h·u·Σ|x_i|) */
  }
  return NAN;
}

/* The measure over the usable runs of one variant and distribution with lo <= n <= hi. */
static size_t gather(const rf_study_run *runs, size_t n_runs, unsigned vi, unsigned di,
                     uint64_t lo, uint64_t hi, field fl, double *out) {
  size_t k = 0;
  for (size_t i = 0; i < n_runs; i++) {
    const rf_study_run *r = &runs[i];
    if (r->variant != vi || r->dist != di || !r->m.usable || r->n < lo || r->n > hi) continue;
    double v = value_of(&runs[i], fl);
    if (!isnan(v)) out[k++] = v;
  }
  return k;
}

/* Counts over every run of a group, usable or not. */
typedef struct { size_t runs, usable, failures, suspicious; uint64_t depth; uint32_t rows; } counts;

static counts count_group(const rf_study_run *runs, size_t n_runs, unsigned vi, unsigned di,
                          uint64_t n) {
  counts c = {0};
  for (size_t i = 0; i < n_runs; i++) {
    const rf_study_run *r = &runs[i];
    if (r->variant != vi || r->dist != di || (n && r->n != n)) continue;
    if (c.runs++ == 0) { c.depth = r->depth; c.rows = r->rows; }
    c.usable += r->m.usable;
    c.failures += rf_verdict_is_failure(r->verdict);
    c.suspicious += r->suspicious;
  }
  return c;
}

static double quantile_of(const rf_study_run *runs, size_t n_runs, unsigned vi, unsigned di,
                          uint64_t n, field fl, double q, double *buf) {
  size_t k = gather(runs, n_runs, vi, di, n, n, fl, buf);
  return rf_study_quantile(buf, k, q);
}

/* ---- summary.csv ------------------------------------------------------------------------ */
void rf_study_write_summary(FILE *f, const rf_study_layout *L, const rf_study_run *runs,
                            size_t n_runs) {
  double *buf = malloc((n_runs ? n_runs : 1) * sizeof *buf);
  if (!buf) return;
  fputs("op,variant,dist,n,rows,runs,usable,failures,suspicious,h,scaled_bound,sqrt_h,"
        "err_scaled_median,err_scaled_p90,err_scaled_max,ratio_median,ratio_p90,ratio_max,"
        "rel_s_median,ulps_median,ulps_max\n", f);
  for (unsigned vi = 0; vi < L->n_variants; vi++)
    for (unsigned di = 0; di < L->n_dists; di++)
      for (size_t si = 0; si < L->n_sizes; si++) {
        uint64_t n = L->sizes[si];
        counts c = count_group(runs, n_runs, vi, di, n);
        if (!c.runs) continue;
        csv_field(f, 0, rf_op_name(L->op));
        csv_field(f, ',', L->variants[vi]);
        csv_field(f, ',', rf_dist_name(L->dists[di]));
        fprintf(f, ",%llu,%u,%zu,%zu,%zu,%zu,%llu", (unsigned long long)n, c.rows, c.runs, c.usable,
                c.failures, c.suspicious, (unsigned long long)c.depth);
        num(f, quantile_of(runs, n_runs, vi, di, n, F_SCALED_BOUND, 0.5, buf));
        num(f, L->op == RF_OP_SUM ? sqrt((double)c.depth) : NAN);
        static const field fs[] = {F_SCALED_ERR, F_RATIO};
        for (size_t k = 0; k < 2; k++) {
          num(f, quantile_of(runs, n_runs, vi, di, n, fs[k], 0.5, buf));
          num(f, quantile_of(runs, n_runs, vi, di, n, fs[k], 0.9, buf));
          num(f, quantile_of(runs, n_runs, vi, di, n, fs[k], 1.0, buf));
        }
        num(f, quantile_of(runs, n_runs, vi, di, n, F_REL_S, 0.5, buf));
        num(f, quantile_of(runs, n_runs, vi, di, n, F_ULPS, 0.5, buf));
        num(f, quantile_of(runs, n_runs, vi, di, n, F_ULPS, 1.0, buf));
        fputc('\n', f);
      }
  free(buf);
}

/* ---- fit.csv ---------------------------------------------------------------------------- */
typedef struct {
  size_t points;               /* sizes in the fit window with a positive median error */
  uint64_t n_lo, n_hi;
  double slope_err, slope_sqrt_h, slope_bound;
  double c_median, c_max;      /* err / (√h·u·Σ|x_i|) over the runs in the fit window */
  double ratio_max;
  counts all;
} fit_row;

static double slope_or_nan(const double *x, const double *y, size_t n) {
  double s;
  return rf_study_fit_slope(x, y, n, &s) ? NAN : s;
}

/* log2 of the per-size medians against log2 n, over the sizes where the error median is
 * positive (log of 0 is not a point). */
static void fit_group(const rf_study_layout *L, const rf_study_run *runs, size_t n_runs,
                      unsigned vi, unsigned di, double *buf, fit_row *out) {
  size_t S = L->n_sizes;
  memset(out, 0, sizeof *out);
  out->all = count_group(runs, n_runs, vi, di, 0);
  out->slope_err = out->slope_sqrt_h = out->slope_bound = NAN;
  out->c_median = out->c_max = out->ratio_max = NAN;
  double *lx = calloc(4 * (S ? S : 1), sizeof *lx);
  if (!lx) return;
  double *le = lx + S, *lh = le + S, *lb = lh + S;
  size_t k = 0;
  for (size_t si = 0; si < S; si++) {
    uint64_t n = L->sizes[si];
    if (n < L->fit_min || n > L->fit_max) continue;
    double med = quantile_of(runs, n_runs, vi, di, n, F_SCALED_ERR, 0.5, buf);
    if (!(med > 0) || isinf(med)) continue;
    counts c = count_group(runs, n_runs, vi, di, n);
    lx[k] = log2((double)n);
    le[k] = log2(med);
    lh[k] = 0.5 * log2((double)c.depth);
    lb[k] = log2(quantile_of(runs, n_runs, vi, di, n, F_SCALED_BOUND, 0.5, buf));
    if (k == 0) out->n_lo = n;
    out->n_hi = n;
    k++;
  }
  out->points = k;
  out->slope_err = slope_or_nan(lx, le, k);
  if (L->op == RF_OP_SUM) out->slope_sqrt_h = slope_or_nan(lx, lh, k);
  out->slope_bound = slope_or_nan(lx, lb, k);
  free(lx);
  size_t m = gather(runs, n_runs, vi, di, L->fit_min, L->fit_max, F_C, buf);
  out->c_median = rf_study_quantile(buf, m, 0.5);
  out->c_max = rf_study_quantile(buf, m, 1.0);
  m = gather(runs, n_runs, vi, di, 0, UINT64_MAX, F_RATIO, buf);
  out->ratio_max = rf_study_quantile(buf, m, 1.0);
}

void rf_study_write_fit(FILE *f, const rf_study_layout *L, const rf_study_run *runs,
                        size_t n_runs) {
  double *buf = malloc((n_runs ? n_runs : 1) * sizeof *buf);
  if (!buf) return;
  fprintf(f, "op,variant,dist,points,n_lo,n_hi,slope_err,slope_sqrt_h,slope_bound,"
             "c_median,c_max,runs,usable,failures,suspicious,ratio_max\n");
  for (unsigned vi = 0; vi < L->n_variants; vi++)
    for (unsigned di = 0; di < L->n_dists; di++) {
      fit_row r;
      fit_group(L, runs, n_runs, vi, di, buf, &r);
      if (!r.all.runs) continue;
      csv_field(f, 0, rf_op_name(L->op));
      csv_field(f, ',', L->variants[vi]);
      csv_field(f, ',', rf_dist_name(L->dists[di]));
      fprintf(f, ",%zu,%llu,%llu", r.points,
              (unsigned long long)r.n_lo, (unsigned long long)r.n_hi);
      num(f, r.slope_err);
      num(f, r.slope_sqrt_h);
      num(f, r.slope_bound);
      num(f, r.c_median);
      num(f, r.c_max);
      fprintf(f, ",%zu,%zu,%zu,%zu", r.all.runs, r.all.usable, r.all.failures, r.all.suspicious);
      num(f, r.ratio_max);
      fputc('\n', f);
    }
  free(buf);
}

static void cell(FILE *f, double v) {
  if (isnan(v)) fprintf(f, " %9s", "-");
  else fprintf(f, " %9.3g", v);
}

void rf_study_print_fit(FILE *f, const rf_study_layout *L, const rf_study_run *runs,
                        size_t n_runs) {
  double *buf = malloc((n_runs ? n_runs : 1) * sizeof *buf);
  if (!buf) return;
  char window[64];
  if (L->fit_max == UINT64_MAX) snprintf(window, sizeof window, "n >= %llu",
                                         (unsigned long long)L->fit_min);
  else snprintf(window, sizeof window, "%llu <= n <= %llu", (unsigned long long)L->fit_min,
                (unsigned long long)L->fit_max);
  fprintf(f, "slopes of log2(median err/(u*scale)), log2 sqrt(h) and log2(bound/(u*scale)) "
             "against log2 n, fitted over %s\n(scale: %s; c = err/(sqrt(h)*u*scale) over the "
             "same runs; max e/b over every n):\n", window,
          L->op == RF_OP_SUM ? "sum |x_i|" : "max(y_j, 2^-126)");
  fprintf(f, "%-22s %-12s %6s %9s %9s %9s %9s %9s %9s %6s %5s\n", "variant", "dist", "points",
          "slope", "sqrt(h)", "bound", "c_median", "c_max", "max e/b", "usable", "fail");
  for (unsigned vi = 0; vi < L->n_variants; vi++)
    for (unsigned di = 0; di < L->n_dists; di++) {
      fit_row r;
      fit_group(L, runs, n_runs, vi, di, buf, &r);
      if (!r.all.runs) continue;
      fprintf(f, "%-22s %-12s %6zu", L->variants[vi], rf_dist_name(L->dists[di]), r.points);
      cell(f, r.slope_err);
      cell(f, r.slope_sqrt_h);
      cell(f, r.slope_bound);
      cell(f, r.c_median);
      cell(f, r.c_max);
      cell(f, r.ratio_max);
      fprintf(f, " %6zu %5zu\n", r.all.usable, r.all.failures);
    }
  free(buf);
}

/* ---- ratio_dist.csv --------------------------------------------------------------------- */
void rf_study_write_ratio_dist(FILE *f, const rf_study_layout *L, const rf_study_run *runs,
                               size_t n_runs) {
  double *buf = malloc((n_runs ? n_runs : 1) * sizeof *buf);
  if (!buf) return;
  fputs("op,vi,variant,di,dist,usable,zero,p10,p25,p50,p75,p90,max\n", f);
  for (unsigned vi = 0; vi < L->n_variants; vi++)
    for (unsigned di = 0; di < L->n_dists; di++) {
      size_t k = gather(runs, n_runs, vi, di, 0, UINT64_MAX, F_RATIO, buf);
      if (!count_group(runs, n_runs, vi, di, 0).runs) continue;
      /* Quantiles of the nonzero ratios (a log axis shows them); exact results are counted. */
      size_t zero = 0, w = 0;
      for (size_t i = 0; i < k; i++) {
        if (buf[i] == 0) zero++;
        else buf[w++] = buf[i];
      }
      csv_field(f, 0, rf_op_name(L->op));
      fprintf(f, ",%u", vi);
      csv_field(f, ',', L->variants[vi]);
      fprintf(f, ",%u", di);
      csv_field(f, ',', rf_dist_name(L->dists[di]));
      fprintf(f, ",%zu,%zu", k, zero);
      static const double qs[] = {0.1, 0.25, 0.5, 0.75, 0.9, 1.0};
      for (size_t q = 0; q < sizeof qs / sizeof *qs; q++) num(f, rf_study_quantile(buf, w, qs[q]));
      fputc('\n', f);
    }
  free(buf);
}

/* The CSV files of `redfuzz study`: one row per run, and the summaries computed from the
 * runs kept in memory (docs/STUDY.md describes every column). */
#ifndef RF_STUDY_REPORT_H
#define RF_STUDY_REPORT_H
#include <stdio.h>
#include "study.h"
#ifdef __cplusplus
extern "C" {
#endif

/* What was swept: the names and orders every table follows. */
typedef struct {
  rf_op op;
  const char *const *variants;
  size_t n_variants;
  const rf_dist *dists;
  size_t n_dists;
  const uint64_t *sizes;       /* ascending; n for sum, cols for softmax */
  size_t n_sizes;
  uint64_t fit_min, fit_max;   /* the slope fits use fit_min <= n <= fit_max only */
} rf_study_layout;

/* One run as the summaries need it. */
typedef struct {
  unsigned variant, dist;      /* indices into the layout */
  uint64_t n;                  /* n, or cols for softmax */
  uint32_t rows;               /* softmax rows (0 for sum) */
  uint64_t seed;
  rf_verdict verdict;
  uint64_t depth;              /* h of the plan */
  int suspicious;              /* sum error above the runner's λ√h·u·Σ|x_i| level */
  rf_study_measure m;
} rf_study_run;

/* runs.csv */
void rf_study_runs_header(FILE *f);
void rf_study_runs_row(FILE *f, const rf_study_layout *L, const rf_study_run *run,
                       const rf_result *r);
/* summary.csv: one row per variant, distribution and size (medians over seeds ...). */
void rf_study_write_summary(FILE *f, const rf_study_layout *L, const rf_study_run *runs,
                            size_t n_runs);
/* fit.csv: one row per variant and distribution: growth of the error with n. */
void rf_study_write_fit(FILE *f, const rf_study_layout *L, const rf_study_run *runs,
                        size_t n_runs);
/* ratio_dist.csv: quantiles of err/bound per variant and distribution, over every size. */
void rf_study_write_ratio_dist(FILE *f, const rf_study_layout *L, const rf_study_run *runs,
                               size_t n_runs);
/* The fit as an aligned table for people (stdout of the command). */
void rf_study_print_fit(FILE *f, const rf_study_layout *L, const rf_study_run *runs,
                        size_t n_runs);

#ifdef __cplusplus
}
#endif
#endif

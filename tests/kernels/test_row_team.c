/* The row ops' device oracles and judges give the same results, bit for bit, whichever team
 * works a row (kernels/harness/row_team.h): a block a row or a wave a row. For softmax and the log
 * ops (logsumexp and log-softmax), on short and long rows (the wave threshold, 1024, and one
 * past it; rows that fill a block's 8 waves and rows that do not), every distribution with
 * special rows written in (NaN, +inf, only -inf, one finite entry, -inf entries, constant),
 * three type pairings, under waves of 32 (and 64, a third of the distributions): the oracle's y and row facts, and the records
 * of two variants in one launch (the host oracle's values rounded to the output type, which
 * mostly pass, and the same with one element a row planted off, which mostly fail), are
 * compared with memcmp between the two teams, and with the case launch's (rf_smd_case_launch,
 * rf_lgd_case_launch: the runner's launches for a case of one chunk, with the team
 * RF_ROW_TEAM_AUTO picks). Every device buffer is filled with a byte
 * pattern before a launch, so a team that leaves a record or a y unwritten differs; both
 * verdicts must be seen, or the comparison shows nothing. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include "rf_test.h"
#include "model/case.h"
#include "model/gen.h"
#include "model/dtype.h"
#include "kernels/harness/device.h"
#include "device_io.h"
#include "kernels/harness/softmax_device.h"
#include "kernels/harness/log_device.h"
#include "oracle/softmax_double.h"
#include "oracle/logsumexp_double.h"
#include "oracle/bounds.h"

static const uint32_t shapes[][2] = {{1, 1}, {9, 32}, {64, 33}, {17, 256}, {9, 257},
                                     {3, 1024}, {3, 1025}, {2, 4099}};
static const rf_dtype pairs[][2] = {{RF_DTYPE_F32, RF_DTYPE_F32}, {RF_DTYPE_F16, RF_DTYPE_F16},
                                    {RF_DTYPE_BF16, RF_DTYPE_F32}};
#define N_SHAPES (sizeof shapes / sizeof shapes[0])
#define N_PAIRS (sizeof pairs / sizeof pairs[0])
static size_t seen_pass, seen_wrong, compared;

/* Row i's special content, by i (every sixth row is left as generated). */
static void special(float *xr, uint32_t cols, uint32_t i) {
  switch (i % 6) {
  case 0: xr[cols / 2] = NAN; break;
  case 1: xr[0] = INFINITY; break;
  case 2: for (uint32_t j = 0; j < cols; j++) xr[j] = j == cols / 3 ? 1.5f : -INFINITY; break;
  case 3: for (uint32_t j = 0; j < cols; j += 3) xr[j] = -INFINITY; break;
  case 4: for (uint32_t j = 0; j < cols; j++) xr[j] = 0.75f; break;
  default: break;
  }
}

/* A fresh device buffer of n bytes, every byte 0xa5. */
static void *patterned(size_t n) {
  void *d = dev_alloc(n), *h = malloc(n);
  memset(h, 0xa5, n);
  CHECK(rf_dev_upload(d, h, n) == 0);
  free(h);
  return d;
}

/* The n bytes at device addresses a and b agree; log row facts (log_rows) but for the
 * padding after each rf_lse_row's m, whose bytes no kernel sets. */
static void same_as(const void *a, const void *b, size_t n, const char *what, uint32_t rows,
                    uint32_t cols, int log_rows) {
  void *ha = malloc(n), *hb = malloc(n);
  fetch(ha, a, n);
  fetch(hb, b, n);
  const size_t pad_at = offsetof(rf_lse_row, m) + sizeof(float);
  for (uint32_t i = 0; log_rows && i < rows; i++) {
    memset((char *)&((rf_lgd_row *)ha)[i].row + pad_at, 0, sizeof(rf_lse_row) - pad_at);
    memset((char *)&((rf_lgd_row *)hb)[i].row + pad_at, 0, sizeof(rf_lse_row) - pad_at);
  }
  CHECK_MSG(memcmp(ha, hb, n) == 0, "%ux%u: %s differs from a block a row's", rows, cols, what);
  compared++;
  free(ha);
  free(hb);
}

static void same(const void *a, const void *b, size_t n, const char *what, uint32_t rows,
                 uint32_t cols) {
  same_as(a, b, n, what, rows, cols, 0);
}

/* Tallies the verdicts of n records on the device (a log record is softmax's type). */
static void count(const rf_smd_rec *d, size_t n) {
  rf_smd_rec *h = malloc(n * sizeof *h);
  fetch(h, d, n * sizeof *h);
  for (size_t i = 0; i < n; i++) {
    seen_pass += h[i].verdict == RF_SMD_PASS;
    seen_wrong += h[i].verdict == RF_SMD_WRONG;
  }
  free(h);
}

/* got in type ot from v (floats), and a copy planted: one element a row off. */
static void outputs(rf_dtype ot, const float *v, uint32_t rows, uint32_t n, void *dgot, void *dbad) {
  const size_t e = (size_t)rows * n;
  float *g = malloc(e * sizeof *g);
  void *enc = malloc(e * 4);
  const float off = ot == RF_DTYPE_F32 ? 0x1p-10f : ot == RF_DTYPE_F16 ? 0x1p-7f : 0x1p-4f;
  memcpy(g, v, e * sizeof *g);
  rf_dtype_store(ot, g, e, enc);
  CHECK(rf_dev_upload(dgot, enc, e * rf_dtype_bytes(ot)) == 0);
  for (uint32_t i = 0; i < rows; i++) g[(size_t)i * n + n / 2] *= 1 + off;
  rf_dtype_store(ot, g, e, enc);
  CHECK(rf_dev_upload(dbad, enc, e * rf_dtype_bytes(ot)) == 0);
  free(g);
  free(enc);
}

static void softmax_case(const float *x, const void *dx, rf_dtype xt, rf_dtype ot, uint32_t rows,
                         uint32_t cols) {
  const size_t e = (size_t)rows * cols;
  rf_plan plan;
  memset(&plan, 0, sizeof plan);
  plan.n_levels = 1;
  plan.level[0].kind = RF_LEVEL_CHAIN;
  plan.level[0].adds = cols;
  rf_smd_io io = {(uint32_t)xt, (uint32_t)ot, 0, 0, 0};
  rf_softmax_output_rounding(ot, &io.out_ut, &io.out_eta);
  double *yd[3];
  rf_smd_row *info[3];
  rf_smd_rec *rec[3];
  float *v = malloc(e * sizeof *v);
  double *y = malloc(cols * sizeof *y);
  for (uint32_t i = 0; i < rows; i++) {
    rf_oracle_softmax_row_double(x + (size_t)i * cols, cols, y);
    for (uint32_t j = 0; j < cols; j++) v[(size_t)i * cols + j] = (float)y[j];
  }
  void *dgot = dev_alloc(e * rf_dtype_bytes(ot)), *dbad = dev_alloc(e * rf_dtype_bytes(ot));
  outputs(ot, v, rows, cols, dgot, dbad);
  const rf_smr_params p = rf_softmax_bound_params(&plan, &RF_EXP_HOST_LIBM);
  const rf_smd_variant vs[2] = {{dgot, p, io}, {dbad, p, io}};
  for (int t = 0; t < 3; t++) {   /* a block a row, a wave a row, the case launch */
    const uint32_t team = t ? RF_ROW_TEAM_WAVE : RF_ROW_TEAM_BLOCK;
    yd[t] = patterned(e * 8);
    info[t] = patterned(rows * sizeof **info);
    rec[t] = patterned(2 * rows * sizeof **rec);
    if (t == 2) {
      CHECK(rf_smd_case_launch(dx, (uint32_t)xt, vs, 2, yd[t], info[t], rows, cols, 0, rec[t],
                               NULL) == 0);
      continue;
    }
    CHECK(rf_smd_oracle_launch_team(dx, (uint32_t)xt, rows, cols, yd[t], info[t], team, NULL) == 0);
    CHECK(rf_smd_judge_launch_team(dx, vs, 2, yd[t], info[t], rows, cols, 0, rec[t], team,
                                   NULL) == 0);
  }
  for (int t = 1; t < 3; t++) {
    same(yd[0], yd[t], e * 8, "softmax y", rows, cols);
    same(info[0], info[t], rows * sizeof **info, "softmax row facts", rows, cols);
    same(rec[0], rec[t], 2 * rows * sizeof **rec, "softmax records", rows, cols);
  }
  count(rec[0], 2 * rows);
  for (int t = 0; t < 3; t++) { rf_dev_free(yd[t]); rf_dev_free(info[t]); rf_dev_free(rec[t]); }
  rf_dev_free(dgot); rf_dev_free(dbad);
  free(v); free(y);
}

static void log_case(const float *x, const void *dx, rf_dtype xt, rf_dtype ot, uint32_t rows,
                     uint32_t cols, int is_lse) {
  const uint32_t n = is_lse ? 1 : cols;
  const size_t e = (size_t)rows * n;
  rf_lsr_params p;
  memset(&p, 0, sizeof p);
  p.sm.exp_ulps = RF_EXP_HOST_LIBM.exp_ulps;
  p.sm.ulps_per_arg = RF_EXP_HOST_LIBM.ulps_per_arg;
  p.sm.ftz = RF_EXP_HOST_LIBM.ftz;
  p.sm.depth = cols;
  p.log_ulps = RF_LOG_HOST_LIBM.log_ulps;
  float *v = calloc(e, sizeof *v);
  double *y = malloc(cols * sizeof *y);
  for (uint32_t i = 0; i < rows; i++) {
    rf_lse_row row;
    rf_lse_margin mg;
    if (rf_oracle_lse_row_double(x + (size_t)i * cols, cols, &row, &mg, y) < 0) continue;
    for (uint32_t j = 0; j < n; j++) v[(size_t)i * n + j] = (float)(is_lse ? row.lse : y[j]);
  }
  void *dgot = dev_alloc(e * rf_dtype_bytes(ot)), *dbad = dev_alloc(e * rf_dtype_bytes(ot));
  outputs(ot, v, rows, n, dgot, dbad);
  const rf_lgd_variant vs[2] = {{dgot, (uint32_t)ot, 0, p}, {dbad, (uint32_t)ot, 0, p}};
  rf_lgd_row *info[3];
  rf_lgd_rec *rec[3];
  for (int t = 0; t < 3; t++) {   /* a block a row, a wave a row, the case launch */
    const uint32_t team = t ? RF_ROW_TEAM_WAVE : RF_ROW_TEAM_BLOCK;
    info[t] = patterned(rows * sizeof **info);
    rec[t] = patterned(2 * rows * sizeof **rec);
    if (t == 2) {
      CHECK(rf_lgd_case_launch(dx, (uint32_t)xt, vs, 2, info[t], rows, cols, is_lse, 0, rec[t],
                               NULL) == 0);
      continue;
    }
    CHECK(rf_lgd_oracle_launch_team(dx, (uint32_t)xt, rows, cols, info[t], team, NULL) == 0);
    CHECK(rf_lgd_judge_launch_team(dx, (uint32_t)xt, vs, 2, info[t], rows, cols, is_lse, 0,
                                   rec[t], team, NULL) == 0);
  }
  for (int t = 1; t < 3; t++) {
    same_as(info[0], info[t], rows * sizeof **info, "log row facts", rows, cols, 1);
    same(rec[0], rec[t], 2 * rows * sizeof **rec, is_lse ? "logsumexp records"
                                                         : "log-softmax records", rows, cols);
  }
  count(rec[0], 2 * rows);
  for (int t = 0; t < 3; t++) { rf_dev_free(info[t]); rf_dev_free(rec[t]); }
  rf_dev_free(dgot); rf_dev_free(dbad);
  free(v); free(y);
}

int main(void) {
  char msg[256];
  if (rf_dev_require(msg, sizeof msg)) { fprintf(stderr, "%s\n", msg); return 2; }
  /* RF_ROW_TEAM_TEST_QUICK=1 (the sanitizer builds, tests/CMakeLists.txt): every other
   * distribution, alternating which half by shape and pairing, so every distribution and both
   * parities (special rows or not) are still met. */
  const char *quick_env = getenv("RF_ROW_TEAM_TEST_QUICK");
  const int quick = quick_env && strcmp(quick_env, "1") == 0;
  for (unsigned wave = 32; wave <= 64; wave *= 2) {
    rf_dev_sim_configure(RF_SCHED_IN_ORDER, 0, wave);
    const int step = (wave == 64 ? 3 : 1) * (quick ? 2 : 1);   /* wave64: a third */
    for (size_t s = 0; s < N_SHAPES; s++)
      for (size_t tp = 0; tp < N_PAIRS; tp++)
        for (int d = quick ? (int)((s + tp) % 2) : 0; d < RF_DIST_COUNT; d += step) {
          const uint32_t rows = shapes[s][0], cols = shapes[s][1];
          const rf_dtype xt = pairs[tp][0], ot = pairs[tp][1];
          const size_t e = (size_t)rows * cols;
          float *x = malloc(e * sizeof *x);
          void *enc = malloc(e * 4);
          rf_case c;
          rf_case_default(&c);
          c.op = RF_OP_SOFTMAX;
          c.dtype = xt;
          c.rows = rows;
          c.cols = cols;
          c.dist = (rf_dist)d;
          c.seed = 1 + s + d;
          rf_generate(&c, x);
          if (d % 2)   /* every other distribution with special rows written in */
            for (uint32_t i = 0; i < rows; i++) special(x + (size_t)i * cols, cols, i);
          rf_dtype_store(xt, x, e, enc);
          for (size_t k = 0; k < e; k++) x[k] = rf_dtype_load(xt, enc, k);   /* as the device reads it */
          void *dx = dev_alloc(e * rf_dtype_bytes(xt));
          CHECK(rf_dev_upload(dx, enc, e * rf_dtype_bytes(xt)) == 0);
          softmax_case(x, dx, xt, ot, rows, cols);
          log_case(x, dx, xt, ot, rows, cols, 1);
          log_case(x, dx, xt, ot, rows, cols, 0);
          rf_dev_free(dx);
          free(x);
          free(enc);
        }
  }
  rf_dev_sim_configure(RF_SCHED_IN_ORDER, 0, 32);
  printf("%zu buffers compared; records seen: %zu pass, %zu wrong\n", compared, seen_pass,
         seen_wrong);
  CHECK(seen_pass > 100 && seen_wrong > 100);
  return rf_test_done();
}

/* One judge launch for every variant of a row-op case (kernels/harness/softmax_device.h,
 * kernels/harness/log_device.h; issue 12): a case of several variants, with float32, f16 and bf16
 * outputs and different bound parameters (the plans' depth and the exps' and logs' ulps), one
 * of them a "mutant" whose output is wrong in one row only, is judged in one launch, and
 *  - the launch is one kernel (kernels/harness/launch_count.h), and 51 variants are three (chunks
 *  of RF_SMD_MAX_VARIANTS = RF_LGD_MAX_VARIANTS = 24);
 *  - every variant's records are byte for byte those of a launch that judges it alone (the
 *    kernel as it was before, one variant a launch), in the order of the variants given;
 *  - the mutant's wrong row is WRONG in its records and in no other variant's, and no other
 *    row of any variant is WRONG;
 *  - the comparison can tell the variants apart: variants that differ in type or parameters
 *    get records that differ, so a block that read another variant's output, types or
 *    parameters (a variant-index mix-up) would fail the byte comparison.
 * Softmax (float32 input) and the log ops (logsumexp, log-softmax; f16 input). Runs on the
 * simulator in CI and on a GPU build (`ctest -R row_judge_variants`). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rf_test.h"
#include "model/case.h"
#include "model/gen.h"
#include "model/dtype.h"
#include "kernels/harness/device.h"
#include "device_io.h"
#include "kernels/harness/launch_count.h"
#include "kernels/harness/softmax_device.h"
#include "kernels/harness/log_device.h"
#include "oracle/softmax_double.h"
#include "oracle/bounds.h"
#include "oracle/logsumexp.h"
#include "oracle/log_row_math.h"

#define ROWS 3u
#define COLS 257u
#define MUTANT 4u        /* the variant whose output is wrong in one row */
#define MUTANT_ROW 1u
#define N_KINDS 6u       /* variants of a case; 51 = 2 * 24 + 3 for the chunks */
#define N_MANY 51u

/* The variants' output types and parameters: kind k of N_KINDS. */
static const rf_dtype out_types[N_KINDS] = {RF_DTYPE_F32, RF_DTYPE_F16, RF_DTYPE_BF16,
                                            RF_DTYPE_F32, RF_DTYPE_F32, RF_DTYPE_F32};
static const double exp_ulps[N_KINDS] = {1, 1, 2, 4, 1, 3};
static const uint64_t depths[N_KINDS] = {COLS, COLS, 9, 9, COLS, 17};

/* values (n floats) as a variant of type t leaves them, in a new device buffer; wrong_at:
 * the element planted off first (the mutant's), or (size_t)-1. */
static void *upload_output(rf_dtype t, float *values, size_t n, size_t wrong_at, float off) {
  if (wrong_at != (size_t)-1) values[wrong_at] = values[wrong_at] * (1 + off) + 0x1p-20f;
  void *enc = malloc(n * 4), *d = dev_alloc(n * rf_dtype_bytes(t));
  rf_dtype_store(t, values, n, enc);
  CHECK(rf_dev_upload(d, enc, n * rf_dtype_bytes(t)) == 0);
  free(enc);
  return d;
}

/* The checks shared by both ops on nv variants' records all (judged together) and alone
 * (each judged by its own launch); kind_of(i) = i % N_KINDS. */
/* Every record byte 0xff (none is left from an earlier launch). */
static void scrub(void *drec, size_t bytes) {
  void *h = malloc(bytes);
  memset(h, 0xff, bytes);
  CHECK(rf_dev_upload(drec, h, bytes) == 0);
  free(h);
}

static void check_records(const char *what, const rf_smd_rec *all, const rf_smd_rec *alone,
                          uint32_t nv) {
  for (uint32_t i = 0; i < nv; i++) {
    const uint32_t k = i % N_KINDS;
    CHECK_MSG(memcmp(all + (size_t)i * ROWS, alone + (size_t)i * ROWS, ROWS * sizeof *all) == 0,
              "%s: variant %u of %u: its records differ from its own launch's", what, i, nv);
    for (uint32_t r = 0; r < ROWS; r++) {
      const uint32_t v = all[(size_t)i * ROWS + r].verdict;
      if (k == MUTANT && r == MUTANT_ROW)
        CHECK_MSG(v == RF_SMD_WRONG, "%s: the mutant (variant %u) row %u: verdict %u", what, i,
                  r, v);
      else
        CHECK_MSG(v != RF_SMD_WRONG, "%s: variant %u row %u: wrong (only the mutant's row is)",
                  what, i, r);
    }
  }
  /* Discriminating: kinds of other types or parameters get other records (bound, ratio). */
  for (uint32_t a = 0; a < N_KINDS && nv >= N_KINDS; a++)
    for (uint32_t b = a + 1; b < N_KINDS; b++)
      CHECK_MSG(memcmp(alone + (size_t)a * ROWS, alone + (size_t)b * ROWS,
                       ROWS * sizeof *alone) != 0,
                "%s: variants %u and %u have the same records: the test could not see a mix-up",
                what, a, b);
}

/* The case's input: ROWS x COLS values of type t (as floats) from rf_generate. */
static void make_input(rf_op op, rf_dtype t, uint64_t seed, float *x) {
  rf_case c;
  rf_case_default(&c);
  c.op = op;
  c.dtype = t;
  c.rows = ROWS;
  c.cols = COLS;
  c.dist = RF_DIST_UNIFORM;
  c.seed = seed;
  rf_generate(&c, x);
}

/* One op's judge launch as the test calls it: nv variants from vs (an array of the op's
 * variant type, vsize bytes each) into out, with the op's input and oracle in ctx. */
typedef struct {
  const char *what;
  size_t vsize;
  int (*launch)(const void *ctx, const void *vs, uint32_t nv, rf_smd_rec *out);
  const void *ctx;
} judge;

/* The N_MANY variants at vs judged each alone, then the first N_KINDS and all N_MANY together
 * (one launch and three), and their records checked. */
static void judge_and_check(const judge *j, const void *vs) {
  const size_t rec_bytes = (size_t)N_MANY * ROWS * sizeof(rf_smd_rec);
  rf_smd_rec *drec = dev_alloc(rec_bytes), *all = malloc(rec_bytes), *alone = malloc(rec_bytes);
  for (uint32_t i = 0; i < N_MANY; i++)
    CHECK(j->launch(j->ctx, (const char *)vs + i * j->vsize, 1, drec + (size_t)i * ROWS) == 0);
  fetch(alone, drec, rec_bytes);
  const uint32_t counts[2] = {N_KINDS, N_MANY}, launches[2] = {1, 3};
  for (int m = 0; m < 2; m++) {
    scrub(drec, rec_bytes);
    const unsigned long long before = rf_launch_count();
    CHECK(j->launch(j->ctx, vs, counts[m], drec) == 0);
    CHECK_MSG(rf_launch_count() - before == launches[m], "%s: %u variants took %llu launches",
              j->what, counts[m], rf_launch_count() - before);
    fetch(all, drec, (size_t)counts[m] * ROWS * sizeof *all);
    check_records(j->what, all, alone, counts[m]);
  }
  rf_dev_free(drec);
  free(all);
  free(alone);
}

typedef struct { const void *x; const double *y; const rf_smd_row *info; } softmax_ctx;

static int softmax_launch(const void *ctx, const void *vs, uint32_t nv, rf_smd_rec *out) {
  const softmax_ctx *c = ctx;
  return rf_smd_judge_launch(c->x, vs, nv, c->y, c->info, ROWS, COLS, 0, out, NULL);
}

static void softmax_case(void) {
  const size_t elems = (size_t)ROWS * COLS;
  float *x = malloc(elems * sizeof *x), *got = malloc(elems * sizeof *got);
  double *y = malloc(elems * sizeof *y);
  make_input(RF_OP_SOFTMAX, RF_DTYPE_F32, 3, x);
  for (uint32_t r = 0; r < ROWS; r++)
    CHECK(rf_oracle_softmax_row_double(x + (size_t)r * COLS, COLS, y + (size_t)r * COLS) > 0);
  void *dx = dev_alloc(elems * 4);
  CHECK(rf_dev_upload(dx, x, elems * 4) == 0);
  double *dy = dev_alloc(elems * 8);
  rf_smd_row *dinfo = dev_alloc(ROWS * sizeof *dinfo);
  CHECK(rf_smd_oracle_launch(dx, 0, ROWS, COLS, dy, dinfo, NULL) == 0);
  rf_plan plan;
  memset(&plan, 0, sizeof plan);
  plan.n_levels = 1;
  plan.level[0].kind = RF_LEVEL_CHAIN;
  plan.level[0].adds = COLS;
  rf_smd_variant vs[N_MANY];
  void *outs[N_KINDS];
  for (uint32_t k = 0; k < N_KINDS; k++) {
    for (size_t e = 0; e < elems; e++) got[e] = (float)y[e];
    const size_t at = k == MUTANT ? (size_t)MUTANT_ROW * COLS + COLS / 2 : (size_t)-1;
    outs[k] = upload_output(out_types[k], got, elems, at, 0x1p-10f);
    rf_smd_variant *v = &vs[k];
    v->got = outs[k];
    v->p = rf_softmax_bound_params(&plan, &RF_EXP_HOST_LIBM);
    v->p.exp_ulps = exp_ulps[k];
    v->p.depth = depths[k];
    v->io = (rf_smd_io){RF_DTYPE_F32, (uint32_t)out_types[k], 0, 0, 0};
    rf_softmax_output_rounding(out_types[k], &v->io.out_ut, &v->io.out_eta);
  }
  for (uint32_t i = N_KINDS; i < N_MANY; i++) vs[i] = vs[i % N_KINDS];
  const softmax_ctx ctx = {dx, dy, dinfo};
  const judge j = {"softmax", sizeof vs[0], softmax_launch, &ctx};
  judge_and_check(&j, vs);
  for (uint32_t k = 0; k < N_KINDS; k++) rf_dev_free(outs[k]);
  rf_dev_free(dx); rf_dev_free(dy); rf_dev_free(dinfo);
  free(x); free(got); free(y);
}

typedef struct { const void *x; const rf_lgd_row *info; int is_lse; } log_ctx;

static int log_launch(const void *ctx, const void *vs, uint32_t nv, rf_smd_rec *out) {
  const log_ctx *c = ctx;
  return rf_lgd_judge_launch(c->x, RF_DTYPE_F16, vs, nv, c->info, ROWS, COLS, c->is_lse, 0, out,
                             NULL);
}

/* Logsumexp (is_lse) or log-softmax on an f16 input. */
static void log_case(int is_lse) {
  const size_t elems = (size_t)ROWS * COLS, n_out = is_lse ? ROWS : elems;
  float *x = malloc(elems * sizeof *x), *got = malloc(elems * sizeof *got);
  double *y = malloc(elems * sizeof *y);
  uint16_t *enc = malloc(elems * 2);
  rf_lse_row mrow[ROWS];
  make_input(is_lse ? RF_OP_LOGSUMEXP : RF_OP_LOGSOFTMAX, RF_DTYPE_F16, 5, x);
  for (uint32_t r = 0; r < ROWS; r++)
    rf_oracle_lse_row(x + (size_t)r * COLS, COLS, &mrow[r], y + (size_t)r * COLS);
  rf_dtype_store(RF_DTYPE_F16, x, elems, enc);
  void *dx = dev_alloc(elems * 2);
  CHECK(rf_dev_upload(dx, enc, elems * 2) == 0);
  rf_lgd_row *dinfo = dev_alloc(ROWS * sizeof *dinfo);
  CHECK(rf_lgd_oracle_launch(dx, RF_DTYPE_F16, ROWS, COLS, dinfo, NULL) == 0);
  rf_lgd_variant vs[N_MANY];
  void *outs[N_KINDS];
  for (uint32_t k = 0; k < N_KINDS; k++) {
    for (size_t e = 0; e < n_out; e++) got[e] = (float)(is_lse ? mrow[e].lse : y[e]);
    const size_t at = is_lse ? MUTANT_ROW : (size_t)MUTANT_ROW * COLS + COLS / 2;
    outs[k] = upload_output(out_types[k], got, n_out, k == MUTANT ? at : (size_t)-1, 0x1p-10f);
    rf_lgd_variant *v = &vs[k];
    memset(v, 0, sizeof *v);
    v->got = outs[k];
    v->out_dtype = (uint32_t)out_types[k];
    v->p.sm.exp_ulps = exp_ulps[k];
    v->p.sm.ulps_per_arg = RF_EXP_HOST_LIBM.ulps_per_arg;
    v->p.sm.depth = depths[k];
    v->p.log_ulps = RF_LOG_HOST_LIBM.log_ulps * (1 + (k & 1));
  }
  for (uint32_t i = N_KINDS; i < N_MANY; i++) vs[i] = vs[i % N_KINDS];
  const log_ctx ctx = {dx, dinfo, is_lse};
  const judge j = {is_lse ? "logsumexp" : "logsoftmax", sizeof vs[0], log_launch, &ctx};
  judge_and_check(&j, vs);
  for (uint32_t k = 0; k < N_KINDS; k++) rf_dev_free(outs[k]);
  rf_dev_free(dx); rf_dev_free(dinfo);
  free(x); free(got); free(y); free(enc);
}

int main(void) {
  char msg[256];
  if (rf_dev_require(msg, sizeof msg)) { fprintf(stderr, "%s\n", msg); return 2; }
  softmax_case();
  log_case(1);
  log_case(0);
  return rf_test_done();
}

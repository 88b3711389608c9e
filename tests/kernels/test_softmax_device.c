/* The softmax oracle and judge on the device (kernels/harness/softmax_device.h) against the host's
 * (oracle/softmax_double.h, oracle/bounds.h), row by row, on the softmax boundary shapes over
 * every distribution:
 *  - the oracle: the same NaN rows (oracle/softmax_special.h: a NaN or +inf, or only -inf)
 *    and constant rows, the same row bound (it depends on max |d| only), and y within both
 *    oracles' bounds of each other (rows with -inf elements included: those elements get 0);
 *  - the judge, on an output that is the host oracle's y rounded to float (it must pass where
 *    the host passes) and on the same output with one element of each row planted 2^-10
 *    relative off (it must fail where the host fails): the device never says pass where the
 *    host says fail, nor fail where the host says pass (either may leave a row undecided);
 *  - special rows decided on the device: a NaN row passes when every output is NaN and fails
 *    with one number planted in it; a row with -inf elements fails when the output of one of
 *    them is planted 2^-20 instead of 0 (plant 2); both outcomes must be seen.
 * All of it for float32 inputs and outputs, and for f16 and bf16 inputs (the encodings on the
 * device, their exact floats on the host) with outputs in the input's type (the device reads
 * the encodings; the host judges their floats with the bound widened by the final rounding,
 * rf_bound_softmax_output) and in float32; each type pairing must see both outcomes.
 * Runs on the simulator in CI and on a GPU build (`ctest -R softmax_device`). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rf_test.h"
#include "model/case.h"
#include "model/gen.h"
#include "kernels/harness/device.h"
#include "device_io.h"
#include "kernels/harness/softmax_device.h"
#include "oracle/softmax_double.h"
#include "oracle/bounds.h"
#include "model/dtype.h"

/* The host's verdict on row i of got: 0 pass, 1 fail, 2 undecided (as run/judge.c decides it,
 * without the row-sum step, which the device leaves to the host unless surely within). */
static int host_row(const rf_plan *plan, const float *x, const double *y, double rel,
                    uint32_t cols, rf_dtype ot, const float *got) {
  double *rb = malloc(cols * sizeof(double)), *rk = malloc(cols * sizeof(double));
  rf_softmax_bound b = {.rel = rb, .rel_kernel = rel <= 0x1p-53 ? NULL : rk};
  int v = 0;
  if (rel <= 0x1p-53) rf_bound_softmax_row(plan, &RF_EXP_HOST_LIBM, x, cols, y, &b);
  else rf_bound_softmax_row_rel(plan, &RF_EXP_HOST_LIBM, x, cols, y, rel, RF_SM_DOUBLE_ABS, &b);
  rf_bound_softmax_output(&b, cols, ot);
  for (uint32_t j = 0; j < cols && v != 2; j++) {
    if (rel <= 0x1p-53) {
      if (!rf_softmax_within(&b, j, got[j], y[j])) v = 1;
    } else {
      rf_sm_check k = rf_softmax_check(&b, j, got[j], y[j]);
      if (k == RF_SM_UNSURE) v = 2;
      else if (k == RF_SM_FAIL) v = 1;
    }
  }
  free(rb);
  free(rk);
  return v;
}

/* The type pairings: input, output (kernels/half/softmax_half.hip writes both 16-bit ones). */
static const rf_dtype pairs[][2] = {{RF_DTYPE_F32, RF_DTYPE_F32}, {RF_DTYPE_F16, RF_DTYPE_F16},
                                    {RF_DTYPE_F16, RF_DTYPE_F32}, {RF_DTYPE_BF16, RF_DTYPE_BF16},
                                    {RF_DTYPE_BF16, RF_DTYPE_F32}};
#define N_PAIRS (sizeof pairs / sizeof pairs[0])

/* v in type t and back (exact for a 16-bit type's own values). */
static float in_type(rf_dtype t, float v) {
  uint16_t h[2];
  if (t == RF_DTYPE_F32) return v;
  rf_dtype_store(t, &v, 1, h);
  return rf_dtype_load(t, h, 0);
}

int main(void) {
  char msg[256];
  if (rf_dev_require(msg, sizeof msg)) { fprintf(stderr, "%s\n", msg); return 2; }
  /* up to 1024 columns a wave a row, 1025 a block a row (kernels/harness/row_team.h) */
  static const uint32_t shapes[][2] = {{1, 1}, {2, 31}, {3, 33}, {4, 1024}, {2, 257}, {3, 1025}};
  rf_plan plan;
  memset(&plan, 0, sizeof plan);
  plan.n_levels = 1;
  plan.level[0].kind = RF_LEVEL_CHAIN;
  size_t rows_seen = 0, mismatches = 0;
  size_t decided_pass[N_PAIRS] = {0}, decided_fail[N_PAIRS] = {0};
  size_t special_pass[N_PAIRS] = {0}, special_caught[N_PAIRS] = {0};   /* NaN rows, -inf elements */
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    const uint32_t rows = shapes[s][0], cols = shapes[s][1];
    const size_t elems = (size_t)rows * cols;
    plan.level[0].adds = cols;
    const rf_smr_params prm = rf_softmax_bound_params(&plan, &RF_EXP_HOST_LIBM);
    float *x = malloc(elems * sizeof *x), *got = malloc(elems * sizeof *got);
    void *enc = malloc(elems * 4);   /* an input or output as the device holds it */
    double *yh = malloc(elems * sizeof *yh), *yd = malloc(elems * sizeof *yd);
    double *relh = malloc(rows * sizeof *relh);
    rf_smd_row *info = malloc(rows * sizeof *info);
    rf_smd_rec *rec = malloc(rows * sizeof *rec);
    double *dy = dev_alloc(elems * 8);
    rf_smd_row *dinfo = dev_alloc(rows * sizeof *dinfo);
    rf_smd_rec *drec = dev_alloc(rows * sizeof *drec);
    for (size_t tp = 0; tp < N_PAIRS; tp++) {
      const rf_dtype xt = pairs[tp][0], ot = pairs[tp][1];
      /* exactly the bytes of each type (the simulator under AddressSanitizer bounds them) */
      void *dx = dev_alloc(elems * rf_dtype_bytes(xt)), *dgot = dev_alloc(elems * rf_dtype_bytes(ot));
      for (int d = 0; d < RF_DIST_COUNT; d++)
      for (uint64_t seed = 1; seed <= 2; seed++) {
        rf_smd_io io = {(uint32_t)xt, (uint32_t)ot, 0, 0, 0};
        rf_softmax_output_rounding(ot, &io.out_ut, &io.out_eta);
        rf_case c;
        rf_case_default(&c);
        c.op = RF_OP_SOFTMAX;
        c.dtype = xt;
        c.rows = rows;
        c.cols = cols;
        c.dist = (rf_dist)d;
        c.seed = seed;
        rf_generate(&c, x);   /* values of type xt */
        for (uint32_t i = 0; i < rows; i++)
          relh[i] = rf_oracle_softmax_row_double(x + (size_t)i * cols, cols, yh + (size_t)i * cols);
        rf_dtype_store(xt, x, elems, enc);
        CHECK(rf_dev_upload(dx, enc, elems * rf_dtype_bytes(xt)) == 0);
        CHECK(rf_smd_oracle_launch(dx, (uint32_t)xt, rows, cols, dy, dinfo, NULL) == 0);
        CHECK(rf_dev_sync() == 0);
        CHECK_MSG(rf_dev_sim_take_status(msg, sizeof msg) == 0, "simulator: %s", msg);
        CHECK(rf_dev_download(yd, dy, elems * 8) == 0 && rf_dev_download(info, dinfo, rows * sizeof *info) == 0);
        for (uint32_t i = 0; i < rows; i++) {
          const double *a = yh + (size_t)i * cols, *b = yd + (size_t)i * cols;
          const int refused = relh[i] < 0, constant = relh[i] == 0x1p-53;
          CHECK_MSG((info[i].kind == RF_SMD_NAN_ROW) == refused &&
                    (info[i].kind == RF_SMD_CONSTANT) == constant,
                    "%s %s %ux%u seed %llu row %u: device kind %u, host rel %g", rf_dtype_name(xt),
                    rf_dist_name(c.dist), rows, cols, (unsigned long long)seed, i, info[i].kind,
                    relh[i]);
          if (refused) continue;
          CHECK_MSG(info[i].rel == relh[i], "row bound: device %g host %g", info[i].rel, relh[i]);
          for (uint32_t j = 0; j < cols; j++) {
            const double tol = 2 * relh[i] * (a[j] > b[j] ? a[j] : b[j]) + 2 * RF_SM_DOUBLE_ABS;
            if (!(fabs(a[j] - b[j]) <= tol)) {
              CHECK_MSG(0, "%s %s %ux%u row %u col %u: device y %.17g host y %.17g (rel %g)",
                        rf_dtype_name(xt), rf_dist_name(c.dist), rows, cols, i, j, b[j], a[j],
                        relh[i]);
              break;
            }
          }
        }
        /* The judge: the host oracle's y as the output (in type ot), then with one element
         * planted off: 2^-10 relative for a float32 output, 2^-7 (f16) and 2^-4 (bf16), eight
         * of the type's own unit roundoffs, for a 16-bit one. */
        const float off = ot == RF_DTYPE_F32 ? 0x1p-10f : ot == RF_DTYPE_F16 ? 0x1p-7f : 0x1p-4f;
        for (int plant = 0; plant < 3; plant++) {
          for (size_t e = 0; e < elems; e++) got[e] = (float)yh[e];
          int neg_inf_planted[4] = {0, 0, 0, 0};   /* rows of the shapes above: at most 4 */
          for (uint32_t i = 0; i < rows && plant; i++) {
            float *gr = got + (size_t)i * cols;
            const float *xr = x + (size_t)i * cols;
            if (relh[i] < 0) { gr[cols / 2] = 0.25f; continue; }   /* a number in a NaN row */
            if (plant == 1) { gr[cols / 2] *= 1 + off; continue; }
            for (uint32_t j = 0; j < cols; j++)
              if (xr[j] == -INFINITY) { gr[j] = 0x1p-20f; neg_inf_planted[i] = 1; break; }
          }
          for (size_t e = 0; e < elems; e++) got[e] = in_type(ot, got[e]);   /* what the host reads */
          rf_dtype_store(ot, got, elems, enc);
          CHECK(rf_dev_upload(dgot, enc, elems * rf_dtype_bytes(ot)) == 0);
          const rf_smd_variant one = {dgot, prm, io};
          CHECK(rf_smd_judge_launch(dx, &one, 1, dy, dinfo, rows, cols, 0, drec, NULL) == 0);
          CHECK(rf_dev_sync() == 0);
          CHECK_MSG(rf_dev_sim_take_status(msg, sizeof msg) == 0, "simulator: %s", msg);
          CHECK(rf_dev_download(rec, drec, rows * sizeof *rec) == 0);
          for (uint32_t i = 0; i < rows; i++) {
            rows_seen++;
            if (relh[i] < 0) {   /* a NaN row: the host's rule (run/judge.c) is exact */
              const uint32_t want = plant ? RF_SMD_WRONG : RF_SMD_PASS;
              CHECK_MSG(rec[i].verdict == want, "%s %ux%u row %u plant %d: NaN row verdict %u",
                        rf_dist_name(c.dist), rows, cols, i, plant, rec[i].verdict);
              if (!plant)
                CHECK(rec[i].col == 0 && rec[i].ratio == 0 && rec[i].err == 0 &&
                      isnan(rec[i].want) && isnan(rec[i].bound) && isnan(rec[i].got));
              special_pass[tp] += !plant && rec[i].verdict == RF_SMD_PASS;
              special_caught[tp] += plant && rec[i].verdict == RF_SMD_WRONG;
              continue;
            }
            const int h = host_row(&plan, x + (size_t)i * cols, yh + (size_t)i * cols, relh[i],
                                   cols, ot, got + (size_t)i * cols);
            const uint32_t v = rec[i].verdict;
            const int bad = (v == RF_SMD_PASS && h == 1) || (v == RF_SMD_WRONG && h == 0);
            mismatches += (size_t)bad;
            if (plant == 2 && neg_inf_planted[i]) {   /* 2^-20 where 0 is due: surely wrong */
              CHECK_MSG(h == 1 && v == RF_SMD_WRONG, "%s %ux%u row %u: planted -inf output: "
                        "device %u, host %d", rf_dist_name(c.dist), rows, cols, i, v, h);
              special_caught[tp] += v == RF_SMD_WRONG;
            }
            if (plant == 0 && v == RF_SMD_PASS)
              for (uint32_t j = 0; j < cols; j++)
                if (x[(size_t)i * cols + j] == -INFINITY) { special_pass[tp]++; break; }
            decided_pass[tp] += v == RF_SMD_PASS;
            decided_fail[tp] += v == RF_SMD_WRONG;
            CHECK_MSG(!bad, "%s->%s %s %ux%u seed %llu row %u plant %d: device %u, host %d",
                      rf_dtype_name(xt), rf_dtype_name(ot), rf_dist_name(c.dist), rows, cols,
                      (unsigned long long)seed, i, plant, v, h);
          }
        }
      }
      rf_dev_free(dx);
      rf_dev_free(dgot);
    }
    free(x); free(got); free(enc); free(yh); free(yd); free(relh); free(info); free(rec);
    rf_dev_free(dy); rf_dev_free(dinfo); rf_dev_free(drec);
  }
  printf("%zu rows judged, %zu disagreements\n", rows_seen, mismatches);
  for (size_t tp = 0; tp < N_PAIRS; tp++) {
    printf("%s -> %s: %zu passed and %zu failed on the device; special rows (NaN, -inf "
           "elements): %zu passed, %zu planted errors caught\n", rf_dtype_name(pairs[tp][0]),
           rf_dtype_name(pairs[tp][1]), decided_pass[tp], decided_fail[tp], special_pass[tp],
           special_caught[tp]);
    /* The comparison must have seen both outcomes in every pairing, or it shows nothing. */
    CHECK(decided_pass[tp] > 100 && decided_fail[tp] > 100);
    CHECK(special_pass[tp] > 10 && special_caught[tp] > 10);
  }
  return rf_test_done();
}

/* The log ops' oracle and judge on the device (kernels/harness/log_device.h) against the host's
 * (oracle/logsumexp_double.h, the MPFR oracle of oracle/logsumexp.h, log_row_math.h's
 * decision as run/judge_log.c applies it), row by row, for logsumexp and log-softmax on the
 * boundary shapes over every distribution, two seeds each, and on special rows written in, in
 * each type pairing the variants have (input, output: f32 f32, f16 f16, f16 f32, bf16 bf16,
 * bf16 f32; 16-bit elements uploaded as their encodings, read exactly on both sides):
 *  - the oracle: the special rows (a NaN, a +inf, only -inf: oracle/log_special.h) marked
 *    special with the host MPFR oracle's row bit for bit (lse the exact want: NaN, +inf or
 *    -inf), the same refused rows as the host's double oracle otherwise, the same exact rows
 *    (one finite entry), and a double row whose lse and log_s are within both oracles'
 *    margins of the host's (err_L each, plus 2^-52 relative);
 *  - the judge, on an output that is the MPFR oracle's value rounded to float (it must pass
 *    where MPFR passes) and on the same output with one output of each row planted off by
 *    2^-10 relative plus 2^-20 (4 u of a 16-bit output's type) and stored in the output's
 *    type (it must fail where MPFR fails; a 16-bit output by the host's range check, rounded
 *    once more, log_row_math.h's rf_lsr_check_out): every verdict the device
 *    decides is the exact one (MPFR's want and the variant's bound from the MPFR row); an
 *    undecided row is allowed only where the host's double path is undecided too or the row
 *    is refused (then the host decides it, MPFR);
 *  - planted NaN and +inf outputs for finite wants must come back NONFINITE, as on the host;
 *  - a special row is decided on the device, never undecided, in both ops and every pairing:
 *    right outputs (NaN, the infinity itself) PASS, planted wrong ones (a number where NaN or
 *    an infinity is required, +inf or -inf where the other is, a NaN where +inf or -inf is,
 *    an infinity where NaN is) WRONG, and the record holds exactly the host judge's figures
 *    (worst column, err, bound, ratio, want and got bit for bit: run/judge_log.c's note over
 *    rf_lsr_judge_exact), so a case is reported from the records as the host reports it.
 * Both outcomes must be seen in each pairing, and for each kind of special row in each op. Runs on the simulator in CI and on a GPU build
 * (`ctest -R log_device`). */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rf_test.h"
#include "model/case.h"
#include "model/gen.h"
#include "model/dtype.h"
#include "kernels/harness/device.h"
#include "device_io.h"
#include "kernels/harness/log_device.h"
#include "oracle/logsumexp.h"
#include "oracle/logsumexp_double.h"
#include "oracle/log_row_math.h"

/* The record the host judge keeps for a row of the MPFR oracle (run/judge_log.c, note: the
 * largest err / allowed, the first output among equals, from a start of -1) and the row's
 * exact verdict (RF_LSR_PASS, WRONG or NONFINITE: NONFINITE over WRONG, as the host's
 * first-failure rule gives); MPFR's wants, the bound from the MPFR row. */
static rf_lgd_rec host_record(const rf_lsr_params *p, int is_lse, rf_dtype ot, const float *x,
                              uint32_t cols, const float *got) {
  double *y = malloc(cols * sizeof *y);
  rf_lse_row row;
  rf_oracle_lse_row(x, cols, &row, y);
  rf_lse_bound b;
  rf_lsr_bound_row(p, rf_lsr_span(x, cols, row.m), cols, &row, &b);
  rf_lgd_rec r;
  memset(&r, 0, sizeof r);
  r.ratio = -1;
  r.verdict = RF_LSR_PASS;
  for (uint32_t j = 0; j < (is_lse ? 1 : cols); j++) {
    double err, allowed;
    const double want = is_lse ? row.lse : y[j];
    const int k = rf_lsr_judge_exact(is_lse, (uint32_t)ot, &b, got[j], want, &err, &allowed);
    if (k == RF_LSR_NONFINITE || (k == RF_LSR_WRONG && r.verdict == RF_LSR_PASS))
      r.verdict = (uint32_t)k;
    const double q = rf_lsr_ratio(err, allowed);
    if (q > r.ratio) {
      r.ratio = q; r.err = err; r.bound = allowed; r.want = want; r.got = got[j]; r.col = j;
    }
  }
  free(y);
  return r;
}

static int exact_verdict(const rf_lsr_params *p, int is_lse, rf_dtype ot, const float *x,
                         uint32_t cols, const float *got) {
  return (int)host_record(p, is_lse, ot, x, cols, got).verdict;
}

/* A row log_special.h calls special, found here by its own scan: a NaN or +inf, or nothing
 * above -inf. */
static int row_is_special(const float *x, uint32_t cols) {
  int above = 0;
  for (uint32_t j = 0; j < cols; j++) {
    if (isnan(x[j]) || x[j] == INFINITY) return 1;
    above |= x[j] > -INFINITY;
  }
  return !above;
}

/* 1 when the host's double path leaves the row undecided or refuses it. */
static int host_undecided(const rf_lsr_params *p, int is_lse, rf_dtype ot, const float *x,
                          uint32_t cols, const float *got) {
  double *y = malloc(cols * sizeof *y);
  rf_lse_row row, lo, hi;
  rf_lse_margin mg;
  const int k = rf_oracle_lse_row_double(x, cols, &row, &mg, y);
  int und = k < 0;
  if (k == 0) {
    const double span = rf_lsr_span(x, cols, row.m);
    rf_lse_bound b_lo, b_hi;
    rf_lse_double_rows(&row, &mg, &lo, &hi);
    rf_lsr_bound_row(p, span, cols, &lo, &b_lo);
    rf_lsr_bound_row(p, span, cols, &hi, &b_hi);
    for (uint32_t j = 0; j < (is_lse ? 1 : cols) && !und; j++) {
      double err, allowed;
      und = rf_lsr_judge_double(is_lse, (uint32_t)ot, &mg, &b_lo, &b_hi, got[j], is_lse ? row.lse : y[j],
                                &err, &allowed) == RF_LSR_UNSURE;
    }
  }
  free(y);
  return und;
}

/* Special rows written over row i (by index): NaN, +inf, only -inf (special); one finite
 * entry (exact); a few -inf entries in a finite row (normal). */
static void special_row(float *xr, uint32_t cols, uint32_t kind) {
  switch (kind % 5) {
  case 0: xr[cols / 2] = NAN; break;
  case 1: xr[0] = INFINITY; break;
  case 2: for (uint32_t j = 0; j < cols; j++) xr[j] = -INFINITY; break;
  case 3: for (uint32_t j = 0; j < cols; j++) if (j != cols / 3) xr[j] = -INFINITY; break;
  default: for (uint32_t j = 0; j < cols; j += 3) xr[j] = -INFINITY; break;
  }
}

/* The type pairings: input, output (kernels/half/ writes both 16-bit ones). */
static const rf_dtype pairs[][2] = {{RF_DTYPE_F32, RF_DTYPE_F32}, {RF_DTYPE_F16, RF_DTYPE_F16},
                                    {RF_DTYPE_F16, RF_DTYPE_F32}, {RF_DTYPE_BF16, RF_DTYPE_BF16},
                                    {RF_DTYPE_BF16, RF_DTYPE_F32}};
#define N_PAIRS (sizeof pairs / sizeof pairs[0])

int main(void) {
  char msg[256];
  if (rf_dev_require(msg, sizeof msg)) { fprintf(stderr, "%s\n", msg); return 2; }
  /* up to 1024 columns a wave a row, 1025 a block a row (kernels/harness/row_team.h) */
  static const uint32_t shapes[][2] = {{1, 1}, {2, 31}, {3, 33}, {5, 1024}, {2, 257}, {2, 1025}};
  /* A chain of cols additions, the host's exp and log: the bound of the simplest plan. */
  rf_lsr_params prm;
  memset(&prm, 0, sizeof prm);
  prm.sm.exp_ulps = RF_EXP_HOST_LIBM.exp_ulps;
  prm.sm.ulps_per_arg = RF_EXP_HOST_LIBM.ulps_per_arg;
  prm.sm.ftz = RF_EXP_HOST_LIBM.ftz;
  prm.log_ulps = RF_LOG_HOST_LIBM.log_ulps;
  size_t rows_seen = 0, pass = 0, fail = 0, nonfinite = 0, undecided = 0, exact_rows = 0;
  size_t tp_pass[N_PAIRS] = {0}, tp_fail[N_PAIRS] = {0};
  /* special rows decided on the device, by pairing, op and want (NaN, +inf, -inf) */
  size_t sp_pass[N_PAIRS][2][3] = {{{0}}}, sp_fail[N_PAIRS][2][3] = {{{0}}}, special_decided = 0;
  for (size_t tp = 0; tp < N_PAIRS; tp++)
  for (int is_lse = 0; is_lse < 2; is_lse++)
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
      const rf_dtype xt = pairs[tp][0], ot = pairs[tp][1];
      /* 2^-10 relative, or 4 u of a 16-bit output's type (2 ulps: u = 2^-11 f16, 2^-8 bf16) */
      const float plant_rel = ot == RF_DTYPE_F16 ? 0x1p-9f : ot == RF_DTYPE_BF16 ? 0x1p-6f : 0x1p-10f;
      const uint32_t rows = shapes[s][0], cols = shapes[s][1];
      const size_t elems = (size_t)rows * cols, outs = is_lse ? rows : elems;
      prm.sm.depth = cols;
      float *x = malloc(elems * sizeof *x), *got = malloc(outs * sizeof *got);
      double *y = malloc(elems * sizeof *y);
      rf_lse_row *mrow = malloc(rows * sizeof *mrow);
      rf_lgd_row *info = malloc(rows * sizeof *info);
      rf_lgd_rec *rec = malloc(rows * sizeof *rec);
      void *enc = malloc(elems * 4);   /* an upload in its type's encoding */
      void *dx = dev_alloc(elems * rf_dtype_bytes(xt)), *dgot = dev_alloc(outs * rf_dtype_bytes(ot));
      rf_lgd_row *dinfo = dev_alloc(rows * sizeof *dinfo);
      rf_lgd_rec *drec = dev_alloc(rows * sizeof *drec);
      for (int d = 0; d <= RF_DIST_COUNT; d++)   /* RF_DIST_COUNT: special rows written in */
        for (uint64_t seed = 1; seed <= 2; seed++) {
          rf_case c;
          rf_case_default(&c);
          c.op = is_lse ? RF_OP_LOGSUMEXP : RF_OP_LOGSOFTMAX;
          c.dtype = xt;
          c.rows = rows;
          c.cols = cols;
          c.dist = (rf_dist)(d < RF_DIST_COUNT ? d : 0);
          c.seed = seed;
          rf_generate(&c, x);
          if (d == RF_DIST_COUNT)
            for (uint32_t i = 0; i < rows; i++) special_row(x + (size_t)i * cols, cols, i + seed);
          rf_dtype_store(xt, x, elems, enc);   /* x: values of type xt (specials included) */
          CHECK(rf_dev_upload(dx, enc, elems * rf_dtype_bytes(xt)) == 0);
          CHECK(rf_lgd_oracle_launch(dx, (uint32_t)xt, rows, cols, dinfo, NULL) == 0);
          fetch(info, dinfo, rows * sizeof *info);
          for (uint32_t i = 0; i < rows; i++) {
            const float *xr = x + (size_t)i * cols;
            rf_lse_row hrow;
            rf_lse_margin hmg;
            const int k = rf_oracle_lse_row_double(xr, cols, &hrow, &hmg, NULL);
            const uint32_t want = row_is_special(xr, cols) ? RF_LGD_SPECIAL
                                : k < 0 ? RF_LGD_REFUSED : k == 1 ? RF_LGD_EXACT : RF_LGD_NORMAL;
            if (want == RF_LGD_SPECIAL) {   /* the MPFR oracle's row, bit for bit */
              CHECK(k < 0);
              rf_oracle_lse_row(xr, cols, &hrow, NULL);
              CHECK_MSG(info[i].kind == want &&
                        memcmp(&info[i].row.lse, &hrow.lse, 3 * sizeof(double)) == 0 &&
                        info[i].row.m == hrow.m,
                        "%s %ux%u row %u: device kind %u lse %g m %g, host lse %g m %g",
                        rf_dist_name(c.dist), rows, cols, i, info[i].kind, info[i].row.lse,
                        (double)info[i].row.m, hrow.lse, (double)hrow.m);
              continue;
            }
            CHECK_MSG(info[i].kind == want, "%s %ux%u seed %llu row %u: device kind %u, host %u",
                      rf_dist_name(c.dist), rows, cols, (unsigned long long)seed, i,
                      info[i].kind, want);
            exact_rows += want == RF_LGD_EXACT;
            if (want == RF_LGD_EXACT)
              CHECK(memcmp(&info[i].row.lse, &hrow.lse, 3 * sizeof(double)) == 0 &&
                    info[i].row.m == hrow.m && info[i].mg.err_L == 0);
            if (want != RF_LGD_NORMAL || info[i].kind != want) continue;
            const double tol = info[i].mg.err_L + hmg.err_L;
            CHECK_MSG(fabs(info[i].row.log_s - hrow.log_s) <= tol + 0x1p-52 * hrow.log_s &&
                      fabs(info[i].row.lse - hrow.lse) <= tol + 0x1p-51 * fabs(hrow.lse) &&
                      info[i].row.m == hrow.m,
                      "%s %ux%u row %u: device lse %.17g log_s %.17g, host %.17g %.17g",
                      rf_dist_name(c.dist), rows, cols, i, info[i].row.lse, info[i].row.log_s,
                      hrow.lse, hrow.log_s);
          }
          /* Outputs: MPFR's values as floats, then one of each row planted off. */
          for (uint32_t i = 0; i < rows; i++)
            rf_oracle_lse_row(x + (size_t)i * cols, cols, &mrow[i], y + (size_t)i * cols);
          for (int plant = 0; plant < 6; plant++) {
            for (uint32_t i = 0; i < rows; i++) {
              float *gr = is_lse ? got + i : got + (size_t)i * cols;
              const uint32_t n = is_lse ? 1 : cols, at = is_lse ? 0 : cols / 2;
              for (uint32_t j = 0; j < n; j++) gr[j] = (float)(is_lse ? mrow[i].lse : y[(size_t)i * cols + j]);
              if (plant == 1) gr[at] = gr[at] * (1 + plant_rel) + 0x1p-20f;
              if (plant == 2) gr[at] = NAN;
              if (plant == 3) gr[at] = INFINITY;
              if (plant == 4) gr[at] = 1.5f;   /* a number: wrong for every special want */
              if (plant == 5) gr[at] = -INFINITY;
            }
            /* The output as a variant of type ot leaves it, and as the judges read it. */
            rf_dtype_store(ot, got, outs, enc);
            for (size_t e = 0; e < outs; e++) got[e] = rf_dtype_load(ot, enc, e);
            CHECK(rf_dev_upload(dgot, enc, outs * rf_dtype_bytes(ot)) == 0);
            const rf_lgd_variant one = {dgot, (uint32_t)ot, 0, prm};
            CHECK(rf_lgd_judge_launch(dx, (uint32_t)xt, &one, 1, dinfo, rows, cols, is_lse, 0,
                                      drec, NULL) == 0);
            fetch(rec, drec, rows * sizeof *rec);
            for (uint32_t i = 0; i < rows; i++) {
              const float *xr = x + (size_t)i * cols;
              const float *gr = is_lse ? got + i : got + (size_t)i * cols;
              const int h = exact_verdict(&prm, is_lse, ot, xr, cols, gr);
              const uint32_t v = rec[i].verdict;
              rows_seen++;
              if (info[i].kind == RF_LGD_SPECIAL) {
                const rf_lgd_rec hr = host_record(&prm, is_lse, ot, xr, cols, gr);
                CHECK_MSG(v == hr.verdict && rec[i].col == hr.col && rec[i].ratio == hr.ratio &&
                          rec[i].err == hr.err && rec[i].bound == hr.bound &&
                          memcmp(&rec[i].want, &hr.want, sizeof hr.want) == 0 &&
                          memcmp(&rec[i].got, &hr.got, sizeof hr.got) == 0,
                          "%s>%s %s special row %u (lse %g) plant %d: device %u col %u err %g "
                          "bound %g want %g got %g; host %u col %u err %g bound %g want %g got %g",
                          rf_dtype_name(xt), rf_dtype_name(ot), is_lse ? "logsumexp" : "logsoftmax",
                          i, info[i].row.lse, plant, v, rec[i].col, rec[i].err, rec[i].bound,
                          rec[i].want, (double)rec[i].got, hr.verdict, hr.col, hr.err, hr.bound,
                          hr.want, (double)hr.got);
                /* the planted wrong outputs the brief names, whatever the host says */
                const double w = info[i].row.lse;
                const int nan_want = !is_lse || isnan(w);
                const int must_fail = plant == 4 || (plant == 2 && !nan_want) ||
                                      (plant == 3 && !(w == INFINITY && !nan_want)) ||
                                      (plant == 5 && !(w == -INFINITY && !nan_want));
                CHECK_MSG(v == (must_fail ? RF_LGD_WRONG : RF_LGD_PASS),
                          "%s special row %u (lse %g) plant %d: device %u",
                          is_lse ? "logsumexp" : "logsoftmax", i, w, plant, v);
                const int sk = isnan(w) ? 0 : w > 0 ? 1 : 2;   /* NaN, +inf, -inf */
                sp_pass[tp][is_lse][sk] += v == RF_LGD_PASS;
                sp_fail[tp][is_lse][sk] += v == RF_LGD_WRONG;
                special_decided++;
                continue;
              }
              if (v == RF_LGD_UNDECIDED) {
                undecided++;
                CHECK_MSG(info[i].kind == RF_LGD_REFUSED || host_undecided(&prm, is_lse, ot, xr, cols, gr),
                          "%s>%s %s %ux%u seed %llu row %u plant %d: undecided on the device only",
                          rf_dtype_name(xt), rf_dtype_name(ot), rf_dist_name(c.dist), rows, cols,
                          (unsigned long long)seed, i, plant);
                continue;
              }
              CHECK_MSG((int)v == h, "%s>%s %s %s %ux%u seed %llu row %u plant %d: device %u, exact %d",
                        rf_dtype_name(xt), rf_dtype_name(ot), is_lse ? "logsumexp" : "logsoftmax",
                        rf_dist_name(c.dist), rows, cols,
                        (unsigned long long)seed, i, plant, v, h);
              /* a finite want and a planted NaN: nonfinite, whatever else */
              if (plant == 2 && isfinite(is_lse ? mrow[i].lse : y[(size_t)i * cols + cols / 2]))
                CHECK(v == RF_LGD_NONFINITE);
              pass += v == RF_LGD_PASS;
              fail += v == RF_LGD_WRONG;
              nonfinite += v == RF_LGD_NONFINITE;
              tp_pass[tp] += v == RF_LGD_PASS;
              tp_fail[tp] += v == RF_LGD_WRONG;
            }
          }
        }
      free(x); free(got); free(y); free(mrow); free(info); free(rec); free(enc);
      rf_dev_free(dx); rf_dev_free(dgot); rf_dev_free(dinfo); rf_dev_free(drec);
    }
  printf("%zu rows judged: %zu passed, %zu wrong, %zu nonfinite on the device, %zu left to the "
         "host; %zu exact rows\n", rows_seen, pass, fail, nonfinite, undecided, exact_rows);
  /* The comparison must have seen every outcome, or it shows nothing. */
  CHECK(pass > 100 && fail > 100 && nonfinite > 100 && exact_rows > 4 && undecided > 0);
  for (size_t tp = 0; tp < N_PAIRS; tp++) {
    printf("%s>%s: %zu passed, %zu wrong\n", rf_dtype_name(pairs[tp][0]),
           rf_dtype_name(pairs[tp][1]), tp_pass[tp], tp_fail[tp]);
    CHECK_MSG(tp_pass[tp] > 20 && tp_fail[tp] > 20, "pairing %zu: both outcomes", tp);
    for (int op = 0; op < 2; op++)
      for (int sk = 0; sk < 3; sk++)
        CHECK_MSG(sp_pass[tp][op][sk] > 0 && sp_fail[tp][op][sk] > 0,
                  "pairing %zu %s special want %d: passed %zu, wrong %zu on the device", tp,
                  op ? "logsumexp" : "logsoftmax", sk, sp_pass[tp][op][sk], sp_fail[tp][op][sk]);
  }
  printf("%zu special rows decided on the device (none left to the host)\n", special_decided);
  return rf_test_done();
}

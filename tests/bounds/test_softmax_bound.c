/* The softmax bound over random rows (cols 1..4096; uniform, shifted by ±1000, deep negative
 * tails with subnormal and vanishing exps, spikes, ties, wide floats) for four float reference
 * pipelines: 3-pass sequential (IEEE division), 3-pass 256-lane tree (reciprocal-multiply),
 * online sequential (a rescale per element), and 3-pass under emulated flush-to-zero. No
 * element exceeds rel_j y_j + abs_floor against MPFR's exact softmax and no row sum exceeds
 * row_sum_bound; one float beyond the bound (either side) is reported; two planted kernel
 * bugs (a dropped sum term, the seed's LDS-reuse race) are caught; constant rows admit
 * exactly RN(1/C). The bound for an oracle of relative error y_rel (the double oracle) and
 * the three-way check rf_softmax_check: PASS and FAIL only where they hold for every true y
 * the oracle's error allows, never PASS where the MPFR-based rf_softmax_within fails. */
#include <float.h>
#include <math.h>
#include <stdio.h>   /* before mpfr.h */
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>
#include "oracle/bounds.h"
#include "oracle/exact.h"
#include "oracle/softmax_double.h"
#include "rf_test.h"

#define CMAX 4096
#define LANES 256
#define WAVE 32
#define ROWS 700
#define N_F(a) (sizeof(a) / sizeof((a)[0]))

static uint64_t next_rand(uint64_t *s) { /* splitmix64 (Steele, Lea, Flood 2014) */
  uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}
static double unit(uint64_t *s) { return (double)(next_rand(s) >> 11) * 0x1p-53; }
static float uniform(uint64_t *s, double lo, double hi) { return (float)(lo + (hi - lo) * unit(s)); }

/* ---- exact softmax (MPFR, 320 bits: x_j - m is exact for any two floats) ------------------ */
static mpfr_t e_mp[CMAX], s_mp, d_mp;
static void exact_init(void) {
  for (int j = 0; j < CMAX; j++) mpfr_init2(e_mp[j], 320);
  mpfr_inits2(320, s_mp, d_mp, (mpfr_ptr)0);
}
static void exact_clear(void) {
  for (int j = 0; j < CMAX; j++) mpfr_clear(e_mp[j]);
  mpfr_clears(s_mp, d_mp, (mpfr_ptr)0);
}
static void exact_softmax(const float *x, uint32_t C, double *y) {
  float m = -INFINITY;
  for (uint32_t j = 0; j < C; j++) m = fmaxf(m, x[j]);
  mpfr_set_ui(s_mp, 0, MPFR_RNDN);
  for (uint32_t j = 0; j < C; j++) {
    mpfr_set_flt(d_mp, x[j], MPFR_RNDN);
    mpfr_sub_d(d_mp, d_mp, (double)m, MPFR_RNDN); /* exact */
    mpfr_exp(e_mp[j], d_mp, MPFR_RNDN);
    mpfr_add(s_mp, s_mp, e_mp[j], MPFR_RNDN);
  }
  for (uint32_t j = 0; j < C; j++) {
    mpfr_div(d_mp, e_mp[j], s_mp, MPFR_RNDN);
    y[j] = mpfr_get_d(d_mp, MPFR_RNDN);
  }
}

/* ---- float pipelines, each with its plan ---------------------------------------------------- */
static int g_ftz; /* emulate flush-to-zero: subnormal operands and results become 0 */
static float fz(float v) { return g_ftz && fabsf(v) < FLT_MIN ? copysignf(0.0f, v) : v; }
static float row_max(const float *x, uint32_t C) {
  float m = -INFINITY;
  for (uint32_t j = 0; j < C; j++) m = fmaxf(m, fz(x[j]));
  return m;
}
static float ex(float xj, float m) { return fz(expf(fz(fz(xj) - m))); }

static void three_pass_seq(const float *x, uint32_t C, float *y, float *e) {
  float m = row_max(x, C), s = 0;
  for (uint32_t j = 0; j < C; j++) e[j] = ex(x[j], m);
  for (uint32_t j = 0; j < C; j++) s = fz(s + e[j]);
  for (uint32_t j = 0; j < C; j++) y[j] = fz(e[j] / s);
}
static float lane_tree_sum(const float *e, uint32_t C) {
  float v[LANES];
  for (unsigned t = 0; t < LANES; t++) {
    float acc = 0;
    for (uint32_t j = t; j < C; j += LANES) acc += e[j];
    v[t] = acc;
  }
  for (unsigned stride = LANES / 2; stride > 0; stride >>= 1)
    for (unsigned t = 0; t < stride; t++) v[t] += v[t + stride];
  return v[0];
}
static void three_pass_tree_recip(const float *x, uint32_t C, float *y, float *e) {
  float m = row_max(x, C);
  for (uint32_t j = 0; j < C; j++) e[j] = ex(x[j], m);
  float r = 1.0f / lane_tree_sum(e, C);
  for (uint32_t j = 0; j < C; j++) y[j] = e[j] * r;
}
static void online_seq(const float *x, uint32_t C, float *y) {
  float m = -INFINITY, s = 0;
  for (uint32_t j = 0; j < C; j++) {
    float mn = fmaxf(m, x[j]);
    s = s * expf(m - mn) + expf(x[j] - mn); /* m = -inf at first: expf(-inf) = 0 */
    m = mn;
  }
  for (uint32_t j = 0; j < C; j++) y[j] = expf(x[j] - m) / s;
}

enum { P_SEQ, P_TREE_RECIP, P_ONLINE, P_SEQ_FTZ, P_COUNT };
static const char *pipe_name[P_COUNT] = {"3-pass seq", "3-pass tree+recip", "online seq",
                                         "3-pass seq ftz"};
static const rf_exp_model EM_HOST_FTZ = {1.0, 1, 0};

static rf_plan plan_for(int p, uint32_t C) {
  rf_plan pl;
  memset(&pl, 0, sizeof pl);
  switch (p) {
  case P_SEQ: case P_SEQ_FTZ: rf_plan_add(&pl, RF_LEVEL_CHAIN, C); break;
  case P_TREE_RECIP:
    rf_plan_add(&pl, RF_LEVEL_CHAIN, rf_div_ceil(C, LANES));
    rf_plan_add(&pl, RF_LEVEL_LDS, 8);
    pl.div = RF_DIV_RECIP_MUL;
    break;
  case P_ONLINE:
    rf_plan_add(&pl, RF_LEVEL_CHAIN, C);
    pl.rescales = C;
    break;
  }
  return pl;
}

static void run_pipe(int p, const float *x, uint32_t C, float *y, float *e) {
  g_ftz = p == P_SEQ_FTZ;
  switch (p) {
  case P_SEQ: case P_SEQ_FTZ: three_pass_seq(x, C, y, e); break;
  case P_TREE_RECIP: three_pass_tree_recip(x, C, y, e); break;
  case P_ONLINE: online_seq(x, C, y); break;
  }
  g_ftz = 0;
}

/* ---- rows ----------------------------------------------------------------------------------- */
enum { D_U100, D_U1, D_SHIFTED, D_DEEP, D_SPIKE, D_TIES, D_WIDE, D_COUNT };
static void make_row(int d, float *x, uint32_t C, uint64_t *s) {
  float shift = (float)((int)(next_rand(s) % 3) - 1) * 1000.0f;
  for (uint32_t j = 0; j < C; j++) {
    switch (d) {
    case D_U100: x[j] = uniform(s, -100, 100); break;
    case D_U1: x[j] = uniform(s, -1, 1); break;
    case D_SHIFTED: x[j] = uniform(s, -10, 10) + shift; break;
    case D_DEEP: x[j] = uniform(s, -130, 0) + shift; break;   /* subnormal and vanishing exps */
    case D_SPIKE: x[j] = next_rand(s) % 97 ? uniform(s, -200, -60) : uniform(s, -1, 1); break;
    case D_TIES: x[j] = (float)(next_rand(s) % 5); break;
    case D_WIDE: { /* any sign, exponent up to 2^127: x_j - m overflows to -inf in float */
      uint32_t b = (uint32_t)(next_rand(s) & 0x807fffffu) | ((uint32_t)(next_rand(s) % 255) << 23);
      memcpy(&x[j], &b, sizeof b);
      break;
    }
    }
  }
}

/* The smallest float above y + allowed and the largest below y - allowed, exactly (MPFR). */
static void floats_beyond(double y, double rel, double abs_floor, float *above, float *below) {
  mpfr_t t, a;
  mpfr_inits2(2200, t, a, (mpfr_ptr)0);
  mpfr_set_d(a, rel, MPFR_RNDN);
  mpfr_mul_d(a, a, y, MPFR_RNDN);       /* exact at 2200 bits */
  mpfr_add_d(a, a, abs_floor, MPFR_RNDN);
  mpfr_add_d(t, a, y, MPFR_RNDN);
  *above = mpfr_get_flt(t, MPFR_RNDU);
  if (mpfr_cmp_d(t, *above) == 0) *above = nextafterf(*above, INFINITY);
  mpfr_d_sub(t, y, a, MPFR_RNDN);
  *below = mpfr_get_flt(t, MPFR_RNDD);
  if (mpfr_cmp_d(t, *below) == 0) *below = nextafterf(*below, -INFINITY);
  mpfr_clears(t, a, (mpfr_ptr)0);
}

static int runner_style_pass(const rf_softmax_bound *b, uint32_t j, float got, double y) {
  return fabs((double)got - y) <= b->rel[j] * y + b->abs_floor; /* plain RN, as fuzz/runner.c */
}

static double row_sum_err(const float *y, uint32_t C) {
  rf_xsum a;
  rf_xsum_init(&a);
  rf_xsum_add(&a, y, C);
  return rf_xsum_abs_err_up(&a, 1.0f);
}

static double rel[CMAX], yex[CMAX];
static float x[CMAX], y[CMAX], e[CMAX];

static void test_random_rows(void) {
  uint64_t rng = 31337;
  int elem_ok = 1, runner_ok = 1, rowsum_ok = 1, above_caught = 1, below_caught = 1;
  double worst[P_COUNT] = {0}, max_rel_u1 = 0;
  long elems = 0;
  for (int r = 0; r < ROWS; r++) {
    int d = r % D_COUNT;
    uint32_t C = (uint32_t)exp(log(CMAX) * unit(&rng));
    if (C < 1) C = 1;
    make_row(d, x, C, &rng);
    exact_softmax(x, C, yex);
    for (int p = 0; p < P_COUNT; p++) {
      rf_plan pl = plan_for(p, C);
      rf_softmax_bound b = {.rel = rel};
      rf_bound_softmax_row(&pl, p == P_SEQ_FTZ ? &EM_HOST_FTZ : &RF_EXP_HOST_LIBM, x, C, yex, &b);
      run_pipe(p, x, C, y, e);
      for (uint32_t j = 0; j < C; j++) {
        int ok = rf_softmax_within(&b, j, y[j], yex[j]);
        if (!ok && elem_ok)
          fprintf(stderr, "row %d (dist %d, C=%u) %s col %u: got %a want %a rel %g abs %g\n", r,
                  d, C, pipe_name[p], j, y[j], yex[j], rel[j], b.abs_floor);
        elem_ok &= ok;
        runner_ok &= runner_style_pass(&b, j, y[j], yex[j]);
        double allowed = rel[j] * yex[j] + b.abs_floor, err = fabs((double)y[j] - yex[j]);
        if (!b.constant_row && allowed > 0 && err / allowed > worst[p]) worst[p] = err / allowed;
        if (d == D_U1 && p == P_TREE_RECIP && rel[j] > max_rel_u1) max_rel_u1 = rel[j];
        elems++;
      }
      double rs = row_sum_err(y, C);
      if (!(rs <= b.row_sum_bound))
        fprintf(stderr, "row %d %s: |sum-1| %g > %g\n", r, pipe_name[p], rs, b.row_sum_bound);
      rowsum_ok &= rs <= b.row_sum_bound;
      /* Planted: one element just beyond its bound, on either side. */
      uint32_t j = (uint32_t)(next_rand(&rng) % C);
      float above, below;
      floats_beyond(yex[j], rel[j], b.abs_floor, &above, &below);
      above_caught &= !rf_softmax_within(&b, j, above, yex[j]) && !runner_style_pass(&b, j, above, yex[j]);
      if (below >= 0)
        below_caught &= !rf_softmax_within(&b, j, below, yex[j]) && !runner_style_pass(&b, j, below, yex[j]);
    }
  }
  CHECK(elem_ok);
  CHECK(runner_ok);
  CHECK(rowsum_ok);
  CHECK(above_caught);
  CHECK(below_caught);
  /* Not vacuous: uniform[-1,1] rows under a 12..24-deep tree stay within 64 u relative. */
  CHECK_MSG(max_rel_u1 <= 64 * 0x1p-24, "max rel %g = %g u", max_rel_u1, max_rel_u1 / 0x1p-24);
  printf("%ld elements; largest err / allowed per pipeline (constant rows aside):\n", elems);
  for (int p = 0; p < P_COUNT; p++) printf("  %-18s %.3g\n", pipe_name[p], worst[p]);
  printf("  largest rel (uniform[-1,1], tree) = %.1f u\n", max_rel_u1 / 0x1p-24);
}

/* Planted kernel bugs with the 256-lane tree plan: (1) the sum skips the last column (checked
 * on uniform[-1,1] rows, where every term weighs >= e^-2/C; on shifted rows it may weigh
 * nothing); (2) the seed's LDS-reuse race: lanes 32..63 read the max slot after lane 0 wrote
 * its partial exp sum there, and use that as their max. Each such row must have an element
 * reported. */
static void test_planted_bugs(void) {
  uint64_t rng = 4242;
  int dropped_caught = 1, race_caught = 1;
  for (int r = 0; r < 120; r++) {
    uint32_t C = 64 + (uint32_t)(next_rand(&rng) % (CMAX - 63));
    make_row(r % 2 ? D_U1 : D_SHIFTED, x, C, &rng); /* D_U1: every weight >= e^-2 / C */
    exact_softmax(x, C, yex);
    rf_plan pl = plan_for(P_TREE_RECIP, C);
    rf_softmax_bound b = {.rel = rel};
    rf_bound_softmax_row(&pl, &RF_EXP_HOST_LIBM, x, C, yex, &b);
    float m = row_max(x, C);

    for (uint32_t j = 0; j < C; j++) e[j] = ex(x[j], m);
    float r1 = 1.0f / lane_tree_sum(e, C - 1);
    int out = 0;
    for (uint32_t j = 0; j < C; j++) out |= !rf_softmax_within(&b, j, e[j] * r1, yex[j]);
    if (r % 2) dropped_caught &= out; /* on shifted rows the last term may be negligible */

    float lane0 = 0;
    for (uint32_t j = 0; j < C; j += LANES) lane0 += expf(x[j] - m);
    for (uint32_t j = 0; j < C; j++) {
      unsigned lane = j % LANES;
      e[j] = expf(x[j] - (lane >= WAVE && lane < 2 * WAVE ? lane0 : m));
    }
    float r2 = 1.0f / lane_tree_sum(e, C);
    out = 0;
    for (uint32_t j = 0; j < C; j++) out |= !rf_softmax_within(&b, j, e[j] * r2, yex[j]);
    race_caught &= out;
  }
  CHECK(dropped_caught);
  CHECK(race_caught);
}

/* Constant rows: RN(1/C) passes, both neighbours fail, for every C up to 4096, both division
 * kinds, any value; the pipelines produce exactly RN(1/C). */
static void test_constant_rows(void) {
  int flagged = 1, exact_pass = 1, neighbours_fail = 1, pipes_exact = 1, rowsum = 1;
  const float values[] = {0.0f, -3.5f, 1e30f, -FLT_MAX, 0x1p-149f};
  for (uint32_t C = 1; C <= CMAX; C++) {
    float v = values[C % 5];
    for (uint32_t j = 0; j < C; j++) x[j] = v;
    for (uint32_t j = 0; j < C; j++) yex[j] = 1.0 / C; /* RN(1/C) in double: the oracle's y */
    float want = 1.0f / (float)C;
    for (int p = 0; p < P_COUNT; p++) {
      rf_plan pl = plan_for(p, C);
      rf_softmax_bound b = {.rel = rel};
      rf_bound_softmax_row(&pl, p == P_SEQ_FTZ ? &EM_HOST_FTZ : &RF_EXP_HOST_LIBM, x, C, yex, &b);
      flagged &= b.constant_row == 1;
      uint32_t j = C / 2;
      exact_pass &= rf_softmax_within(&b, j, want, yex[j]) && runner_style_pass(&b, j, want, yex[j]);
      neighbours_fail &= !rf_softmax_within(&b, j, nextafterf(want, 2.0f), yex[j]) &&
                         !rf_softmax_within(&b, j, nextafterf(want, 0.0f), yex[j]) &&
                         !runner_style_pass(&b, j, nextafterf(want, 2.0f), yex[j]) &&
                         !runner_style_pass(&b, j, nextafterf(want, 0.0f), yex[j]);
      run_pipe(p, x, C, y, e);
      for (uint32_t k = 0; k < C; k++) pipes_exact &= y[k] == want;
      rowsum &= row_sum_err(y, C) <= b.row_sum_bound;
    }
  }
  CHECK(flagged);
  CHECK(exact_pass);
  CHECK(neighbours_fail);
  CHECK(pipes_exact);
  CHECK(rowsum);
}

/* Each term of the derivation is in the bound: changing one plan or model parameter moves rel
 * by at least what that term costs (random data rarely reach a single term's worst case, so
 * this is where a dropped term shows). */
static double rel_for(const rf_plan *pl, const rf_exp_model *em, uint32_t C, uint32_t j) {
  rf_softmax_bound b = {.rel = rel};
  rf_bound_softmax_row(pl, em, x, C, yex, &b);
  return rel[j];
}
static void test_bound_terms(void) {
  uint64_t rng = 77;
  const double u = 0x1p-24;
  const uint32_t C = 1000;
  make_row(D_U1, x, C, &rng);
  exact_softmax(x, C, yex);
  const rf_exp_model k1 = {1.0, 0, 0}, k3 = {3.0, 0, 0};
  rf_plan base = plan_for(P_SEQ, C), deeper = base, recip = base, online = base;
  rf_plan_add(&deeper, RF_LEVEL_HOST, 10);
  recip.div = RF_DIV_RECIP_MUL;
  online.rescales = 100;
  int division = 1, depth = 1, rescale = 1, ulps = 1;
  for (uint32_t j = 0; j < C; j++) {
    double r0 = rel_for(&base, &k1, C, j);
    division &= rel_for(&recip, &k1, C, j) - r0 >= 0.99 * u;         /* one more rounding */
    depth &= rel_for(&deeper, &k1, C, j) - r0 >= 0.99 * 10 * u;       /* γ_H grows by 10u */
    rescale &= rel_for(&online, &k1, C, j) - r0 >= 0.99 * 100 * 3 * u; /* 100 (2u exp + u mul) */
    ulps &= rel_for(&base, &k3, C, j) - r0 >= 0.99 * 2 * 4 * u;      /* numerator and sum exp */
  }
  CHECK(division);
  CHECK(depth);
  CHECK(rescale);
  CHECK(ulps);
  /* The argument term: two elements of one row, d = 0 and |d| = 64: rel differs by >= 64u. */
  float two[3] = {0.0f, -64.0f, -1.0f};
  memcpy(x, two, sizeof two);
  exact_softmax(x, 3, yex);
  rf_plan p3 = plan_for(P_SEQ, 3);
  CHECK(rel_for(&p3, &k1, 3, 1) - rel_for(&p3, &k1, 3, 0) >= 0.99 * 64 * u);
  /* Flush-to-zero lifts the floor to 2^-126 from a few 2^-149. */
  rf_softmax_bound b = {.rel = rel};
  rf_bound_softmax_row(&p3, &EM_HOST_FTZ, x, 3, yex, &b);
  CHECK(b.abs_floor >= 0x1p-126 && b.abs_floor <= 0x1p-124);
  rf_bound_softmax_row(&p3, &k1, x, 3, yex, &b);
  CHECK(b.abs_floor >= 1.5 * 0x1p-149 && b.abs_floor <= 4 * 0x1p-149);
}

/* The runner's path: y_exact from the project oracle (rf_oracle_softmax_row) instead of this
 * file's MPFR; the two agree and the pipelines stay within the bound. */
static void test_with_project_oracle(void) {
  static double yo[CMAX];
  uint64_t rng = 555;
  int agree = 1, within = 1;
  for (int r = 0; r < 60; r++) {
    uint32_t C = 1 + (uint32_t)(next_rand(&rng) % CMAX);
    make_row(r % D_COUNT, x, C, &rng);
    exact_softmax(x, C, yex);
    rf_oracle_softmax_row(x, C, yo, NULL, NULL);
    for (uint32_t j = 0; j < C; j++) agree &= yo[j] == yex[j];
    for (int p = 0; p < P_COUNT; p++) {
      rf_plan pl = plan_for(p, C);
      rf_softmax_bound b = {.rel = rel};
      rf_bound_softmax_row(&pl, p == P_SEQ_FTZ ? &EM_HOST_FTZ : &RF_EXP_HOST_LIBM, x, C, yo, &b);
      run_pipe(p, x, C, y, e);
      for (uint32_t j = 0; j < C; j++) within &= rf_softmax_within(&b, j, y[j], yo[j]);
    }
  }
  CHECK(agree);
  CHECK(within);
}

/* Rows without a finite maximum have no bound (documented policy), and an empty row is a
 * no-op. */
static void test_nonfinite_rows(void) {
  rf_plan pl = plan_for(P_SEQ, 3);
  rf_softmax_bound b = {.rel = rel};
  float nan_row[3] = {1.0f, NAN, 2.0f}, inf_row[3] = {1.0f, INFINITY, 2.0f};
  float ninf_row[3] = {-INFINITY, -INFINITY, -INFINITY}, some_ninf[3] = {-INFINITY, 0.0f, 1.0f};
  double yy[3] = {NAN, NAN, NAN};
  rf_bound_softmax_row(&pl, &RF_EXP_HOST_LIBM, nan_row, 3, yy, &b);
  CHECK(!b.constant_row && b.abs_floor == 0 && rel[0] == 0 && rel[2] == 0);
  rf_bound_softmax_row(&pl, &RF_EXP_HOST_LIBM, inf_row, 3, yy, &b);
  CHECK(!b.constant_row && rel[1] == 0);
  rf_bound_softmax_row(&pl, &RF_EXP_HOST_LIBM, ninf_row, 3, yy, &b);
  CHECK(!b.constant_row && rel[1] == 0);
  /* -inf entries in a finite row: exp is exactly 0 there; the row is bounded as usual. */
  exact_softmax(some_ninf, 3, yex);
  rf_bound_softmax_row(&pl, &RF_EXP_HOST_LIBM, some_ninf, 3, yex, &b);
  three_pass_seq(some_ninf, 3, y, e);
  CHECK(yex[0] == 0 && y[0] == 0);
  for (uint32_t j = 0; j < 3; j++) CHECK(rf_softmax_within(&b, j, y[j], yex[j]));
  CHECK(!rf_softmax_within(&b, 1, NAN, yex[1]) && !rf_softmax_within(&b, 1, INFINITY, yex[1]));
  b.abs_floor = 7;
  rf_bound_softmax_row(&pl, &RF_EXP_HOST_LIBM, x, 0, yex, &b);
  CHECK(b.abs_floor == 0 && b.row_sum_bound == 0 && !b.constant_row);
}

/* ---- oracles of a given error: rf_bound_softmax_row_rel and rf_softmax_check ------------- */
static double relk[CMAX], yd[CMAX], ym[CMAX];

static const rf_exp_model *model_for(int p) {
  return p == P_SEQ_FTZ ? &EM_HOST_FTZ : &RF_EXP_HOST_LIBM;
}

/* The old entry point is the y_rel = 2^-53 case; every pipeline stays within the bound
 * computed from the double oracle's y (its error folded in), and so do the row sums; y_rel
 * and y_abs each move the folded bound by at least what they cost; invalid ones give +inf. */
static void test_bound_with_oracle_error(void) {
  static double rel2[CMAX];
  uint64_t rng = 6060;
  int same = 1, within = 1, rowsum = 1, kernel_never_fails = 1, yrel_costs = 1, yabs_costs = 1;
  for (int r = 0; r < 140; r++) {
    uint32_t C = (uint32_t)exp(log(CMAX) * unit(&rng));
    if (C < 1) C = 1;
    make_row(r % D_COUNT, x, C, &rng);
    exact_softmax(x, C, yex);
    double rel_d = rf_oracle_softmax_row_double(x, C, yd);
    for (int p = 0; p < P_COUNT; p++) {
      rf_plan pl = plan_for(p, C);
      rf_softmax_bound a = {.rel = rel}, b = {.rel = rel2};
      rf_bound_softmax_row(&pl, model_for(p), x, C, yex, &a);
      rf_bound_softmax_row_rel(&pl, model_for(p), x, C, yex, 0x1p-53, 0, &b);
      same &= memcmp(rel, rel2, C * sizeof *rel) == 0 && a.abs_floor == b.abs_floor &&
              a.row_sum_bound == b.row_sum_bound && b.y_rel == 0x1p-53 && b.y_abs == 0;
      /* what y_rel and y_abs cost (rel's fold and the absolute floor) */
      rf_bound_softmax_row_rel(&pl, model_for(p), x, C, yex, 0x1p-30, 0x1p-140, &b);
      for (uint32_t j = 0; j < C; j++) yrel_costs &= rel2[j] - rel[j] >= 0.99 * 0x1p-30;
      yabs_costs &= b.abs_floor - a.abs_floor >= 0x1p-140;

      rf_softmax_bound bd = {.rel = rel, .rel_kernel = relk};
      rf_bound_softmax_row_rel(&pl, model_for(p), x, C, yd, rel_d, RF_SM_DOUBLE_ABS, &bd);
      run_pipe(p, x, C, y, e);
      for (uint32_t j = 0; j < C; j++) {
        int ok = rf_softmax_within(&bd, j, y[j], yd[j]);
        if (!ok && within)
          fprintf(stderr, "row %d C=%u %s col %u: got %a, double oracle %a (rel %g)\n", r, C,
                  pipe_name[p], j, y[j], yd[j], rel_d);
        within &= ok;
        kernel_never_fails &= rf_softmax_check(&bd, j, y[j], yd[j]) != RF_SM_FAIL;
      }
      rowsum &= row_sum_err(y, C) <= bd.row_sum_bound;
    }
  }
  CHECK(same);
  CHECK(within);
  CHECK(rowsum);
  CHECK(kernel_never_fails);
  CHECK(yrel_costs);
  CHECK(yabs_costs);
  rf_plan pl = plan_for(P_SEQ, 3);
  float three[3] = {0.0f, -1.0f, -2.0f};
  rf_softmax_bound b = {.rel = rel, .rel_kernel = relk};
  const double bad_rel[3] = {-0x1p-53, 0.75, NAN};
  for (int k = 0; k < 3; k++) {
    rf_bound_softmax_row_rel(&pl, &RF_EXP_HOST_LIBM, three, 3, yex, bad_rel[k], 0, &b);
    CHECK(isinf(rel[0]) && isinf(relk[0]) && isinf(b.abs_floor));
    CHECK(rf_softmax_check(&b, 0, 0.5f, 0.5) == RF_SM_UNSURE);
  }
}

/* With the true y given exactly (y_rel = 0, y_abs = 0) the three-way check agrees with
 * rf_softmax_within wherever it answers, and answers everywhere (the two differ only in a
 * band of 2^-50 of the allowed error: within's runner slack). */
static void test_check_exact_y(void) {
  uint64_t rng = 8181;
  long answers = 0, unsure = 0, disagree = 0, fails = 0;
  static const double f[] = {0, 0.5, 0.9, 0.999, 1.001, 1.1, 2, 16};
  for (int r = 0; r < 140; r++) {
    uint32_t C = 1 + (uint32_t)(next_rand(&rng) % CMAX);
    make_row(r % D_COUNT, x, C, &rng);
    exact_softmax(x, C, yex);
    int p = r % P_COUNT;
    rf_plan pl = plan_for(p, C);
    rf_softmax_bound b = {.rel = rel, .rel_kernel = relk};
    rf_bound_softmax_row_rel(&pl, model_for(p), x, C, yex, 0, 0, &b);
    run_pipe(p, x, C, y, e);
    for (uint32_t j = 0; j < C; j++) {
      double k_err = relk[j] * yex[j] + b.abs_kernel;
      for (int s = -1; s <= 1; s += 2)
        for (size_t i = 0; i < N_F(f); i++) {
          float yh = i == 0 ? y[j] : (float)(yex[j] + s * f[i] * k_err);
          rf_sm_check c = rf_softmax_check(&b, j, yh, yex[j]);
          int w = rf_softmax_within(&b, j, yh, yex[j]);
          if (c == RF_SM_UNSURE) {
            unsure++;
            continue;
          }
          answers++;
          fails += c == RF_SM_FAIL;
          if ((c == RF_SM_PASS) != w) {
            if (!disagree)
              fprintf(stderr, "row %d col %u: y_hat %a y %a check %d within %d\n", r, j, yh,
                      yex[j], (int)c, w);
            disagree++;
          }
        }
    }
  }
  printf("check with exact y: %ld answers (%ld FAIL), %ld UNSURE, %ld disagreements\n", answers,
         fails, unsure, disagree);
  CHECK(disagree == 0);
  CHECK(unsure == 0);
  CHECK(fails > 1000);
}

/* One float beyond the kernel's bound with a tiny y_rel: FAIL (on either side); the float
 * before it: PASS. With a large y_rel (2^-22) the float nearest the nominal bound is in the
 * band where some true y passes and some fails: UNSURE; y itself PASS (where the kernel's
 * bound is wider than that band), far beyond FAIL.
 * Edge cases: non-finite y_hat FAIL, no rel_kernel or a non-finite y_approx UNSURE. */
static void test_check_planted(void) {
  uint64_t rng = 9292;
  int beyond_fail = 1, inside_pass = 1, band_unsure = 1, centre_pass = 1, far_fail = 1;
  long band_tested = 0, centre_tested = 0;
  for (int r = 0; r < 200; r++) {
    uint32_t C = 2 + (uint32_t)(next_rand(&rng) % (CMAX - 1));
    make_row(r % 2 ? D_U1 : D_SHIFTED, x, C, &rng);
    exact_softmax(x, C, yex);
    int p = r % P_COUNT;
    rf_plan pl = plan_for(p, C);
    rf_softmax_bound b = {.rel = rel, .rel_kernel = relk};
    rf_bound_softmax_row_rel(&pl, model_for(p), x, C, yex, 0x1p-70, 0, &b);
    uint32_t j = (uint32_t)(next_rand(&rng) % C);
    float above, below;
    floats_beyond(yex[j], relk[j], b.abs_kernel, &above, &below);
    beyond_fail &= rf_softmax_check(&b, j, above, yex[j]) == RF_SM_FAIL;
    inside_pass &= rf_softmax_check(&b, j, nextafterf(above, 0.0f), yex[j]) == RF_SM_PASS;
    if (below >= 0) {
      beyond_fail &= rf_softmax_check(&b, j, below, yex[j]) == RF_SM_FAIL;
      inside_pass &= rf_softmax_check(&b, j, nextafterf(below, 1.0f), yex[j]) == RF_SM_PASS;
    }

    const double big = 0x1p-22; /* Y spans 2^-21 y: several float steps */
    rf_bound_softmax_row_rel(&pl, model_for(p), x, C, yex, big, 0, &b);
    double k_err = relk[j] * yex[j] + b.abs_kernel;
    if (yex[j] > 0x1p-100) { /* a band much wider than a float step */
      band_unsure &= rf_softmax_check(&b, j, (float)(yex[j] + k_err), yex[j]) == RF_SM_UNSURE;
      band_unsure &= rf_softmax_check(&b, j, (float)(yex[j] - k_err), yex[j]) == RF_SM_UNSURE;
      band_tested++;
    }
    if (relk[j] >= 4 * big) { /* then every y in Y is within the kernel's bound of y_hat = y */
      centre_pass &= rf_softmax_check(&b, j, (float)yex[j], yex[j]) == RF_SM_PASS;
      centre_tested++;
    }
    far_fail &= rf_softmax_check(&b, j, (float)(yex[j] + 2 * k_err + 8 * big * yex[j]),
                                 yex[j]) == RF_SM_FAIL;
  }
  CHECK(beyond_fail);
  CHECK(inside_pass);
  CHECK(band_unsure);
  CHECK(band_tested > 100);
  CHECK(centre_pass);
  CHECK(centre_tested > 100);
  CHECK(far_fail);

  /* Constant rows from the double oracle (y = RN(1/C), y_rel = 2^-53): RN(1/C) in float
   * passes, both neighbours fail, every C <= 4096 and both division kinds. */
  int const_pass = 1, const_fail = 1;
  for (uint32_t C = 1; C <= CMAX; C++) {
    for (uint32_t j = 0; j < C; j++) x[j] = -2.5f;
    double rel_d = rf_oracle_softmax_row_double(x, C, yd);
    float want = 1.0f / (float)C;
    for (int p = 0; p < 2; p++) {
      rf_plan pl = plan_for(p, C);
      rf_softmax_bound bc = {.rel = rel, .rel_kernel = relk};
      rf_bound_softmax_row_rel(&pl, &RF_EXP_HOST_LIBM, x, C, yd, rel_d, RF_SM_DOUBLE_ABS, &bc);
      uint32_t j = C / 2;
      const_pass &= bc.constant_row && rf_softmax_check(&bc, j, want, yd[j]) == RF_SM_PASS;
      const_fail &= rf_softmax_check(&bc, j, nextafterf(want, 2.0f), yd[j]) == RF_SM_FAIL &&
                    rf_softmax_check(&bc, j, nextafterf(want, 0.0f), yd[j]) == RF_SM_FAIL;
    }
  }
  CHECK(const_pass);
  CHECK(const_fail);

  rf_softmax_bound b = {.rel = rel, .rel_kernel = relk};
  float two[2] = {0.0f, -1.0f};
  exact_softmax(two, 2, yex);
  rf_plan pl = plan_for(P_SEQ, 2);
  rf_bound_softmax_row_rel(&pl, &RF_EXP_HOST_LIBM, two, 2, yex, 0x1p-50, 0, &b);
  CHECK(rf_softmax_check(&b, 0, NAN, yex[0]) == RF_SM_FAIL);
  CHECK(rf_softmax_check(&b, 0, INFINITY, yex[0]) == RF_SM_FAIL);
  CHECK(rf_softmax_check(&b, 0, (float)yex[0], NAN) == RF_SM_UNSURE);
  b.rel_kernel = NULL;
  CHECK(rf_softmax_check(&b, 0, (float)yex[0], yex[0]) == RF_SM_UNSURE);
}

/* Soundness of the check's answers on their own terms, against MPFR at 300 bits: random
 * y_approx, kernel bounds r y + a (r up to 200), oracle errors y_rel (0 and 2^-53 .. 1/2) and
 * y_abs, and y_hat around the edges of the bound, a third of them within a few ulps of it. With Y = [lo, hi], lo = (y_approx - y_abs)/(1+y_rel),
 * hi = (y_approx + y_abs)/(1-y_rel), g(y) = |y_hat - y| - (r y + a) convex: the truth is
 * PASS iff g(lo), g(hi) <= 0, FAIL iff both > 0 and y_hat is not inside (lo, hi). The check
 * must never answer PASS or FAIL against the truth (it may say UNSURE). */
static int mp_excess_sign(mpfr_t t, mpfr_t v, float yh, mpfr_srcptr yv, double r, double a) {
  mpfr_set_flt(t, yh, MPFR_RNDN);
  mpfr_sub(t, t, yv, MPFR_RNDN);
  mpfr_abs(t, t, MPFR_RNDN);
  mpfr_mul_d(v, yv, r, MPFR_RNDN);
  mpfr_add_d(v, v, a, MPFR_RNDN);
  return mpfr_cmp(t, v) > 0 ? 1 : -1;
}
static void test_check_sound(void) {
  uint64_t rng = 5150;
  long n = 0, wrong = 0, needless = 0, truth_unsure = 0;
  mpfr_t lo, hi, t, v;
  mpfr_inits2(300, lo, hi, t, v, (mpfr_ptr)0);
  for (int k = 0; k < 400000; k++) {
    double ya = ldexp(1 + unit(&rng), -(int)(next_rand(&rng) % 150));
    double r = k % 50 == 0 ? 1 + 200 * unit(&rng) : ldexp(1 + unit(&rng), -10 - (int)(next_rand(&rng) % 16));
    double a = next_rand(&rng) % 3 ? ldexp(1 + unit(&rng), -149 + (int)(next_rand(&rng) % 3)) : 0;
    double yrel = next_rand(&rng) % 5 == 0 ? 0 : ldexp(1 + unit(&rng), -2 - (int)(next_rand(&rng) % 52));
    double yabs = next_rand(&rng) % 4 == 0 ? RF_SM_DOUBLE_ABS : next_rand(&rng) % 3 == 0 ? 0x1p-160 : 0;
    if (yrel > 0.5) yrel = 0.5;
    double k_err = r * ya + a;
    double mult = (next_rand(&rng) % 2 ? 1 : -1) * (0.5 + unit(&rng));
    if (k % 3 == 0) mult = (next_rand(&rng) % 2 ? 1 : -1) * (1 + (unit(&rng) - 0.5) * 4 * yrel * (1 + 1 / r));
    float yh = (float)(ya + mult * k_err);
    int edge = k % 3 == 1;
    if (edge) { /* on the edge: r y_approx within a few ulps of |y_hat - y_approx| */
      yh = (float)(ya * (1 + 0x1p-12 * (1 + unit(&rng))));
      double delta = (double)yh - ya;       /* exact: yh and ya are 2^-12 ya apart */
      r = (delta / ya) * (1 + (double)((int)(next_rand(&rng) % 9) - 4) * 0x1p-53);
      a = 0;
      if (k % 2) yrel = 0, yabs = 0;
    }
    double rk = r;
    rf_softmax_bound b = {.rel = rel, .rel_kernel = &rk, .abs_kernel = a, .y_rel = yrel, .y_abs = yabs};
    rf_sm_check c = rf_softmax_check(&b, 0, yh, ya);
    /* the truth */
    mpfr_set_d(lo, ya, MPFR_RNDN);
    mpfr_sub_d(lo, lo, yabs, MPFR_RNDN);
    mpfr_div_d(lo, lo, 1 + yrel, MPFR_RNDN); /* 1 + yrel: exact unless yrel < 2^-52 */
    if (yrel > 0 && yrel < 0x1p-52) { /* redo with the exact 1 + yrel */
      mpfr_set_d(t, yrel, MPFR_RNDN);
      mpfr_add_ui(t, t, 1, MPFR_RNDN);
      mpfr_set_d(lo, ya, MPFR_RNDN);
      mpfr_sub_d(lo, lo, yabs, MPFR_RNDN);
      mpfr_div(lo, lo, t, MPFR_RNDN);
    }
    if (mpfr_sgn(lo) < 0) mpfr_set_zero(lo, 1);
    mpfr_set_d(t, yrel, MPFR_RNDN);
    mpfr_ui_sub(t, 1, t, MPFR_RNDN); /* exact at 300 bits */
    mpfr_set_d(hi, ya, MPFR_RNDN);
    mpfr_add_d(hi, hi, yabs, MPFR_RNDN);
    mpfr_div(hi, hi, t, MPFR_RNDN);
    int s_lo = mp_excess_sign(t, v, yh, lo, r, a), s_hi = mp_excess_sign(t, v, yh, hi, r, a);
    int inside = mpfr_cmp_d(lo, yh) < 0 && mpfr_cmp_d(hi, yh) > 0;
    rf_sm_check truth = s_lo < 0 && s_hi < 0 ? RF_SM_PASS
                        : s_lo > 0 && s_hi > 0 && !inside ? RF_SM_FAIL : RF_SM_UNSURE;
    n++;
    truth_unsure += truth == RF_SM_UNSURE;
    if (c != RF_SM_UNSURE && c != truth) {
      if (!wrong)
        fprintf(stderr, "check %d, truth %d: y_hat %a y %a r %a a %a y_rel %a y_abs %a\n",
                (int)c, (int)truth, yh, ya, r, a, yrel, yabs);
      wrong++;
    }
    needless += !edge && c == RF_SM_UNSURE && truth != RF_SM_UNSURE; /* edge: expected */
  }
  mpfr_clears(lo, hi, t, v, (mpfr_ptr)0);
  printf("check soundness: %ld cases, %ld truly UNSURE, %ld wrong answers, %ld needless UNSURE "
         "(cases off the edge)\n",
         n, truth_unsure, wrong, needless);
  CHECK(wrong == 0);
  CHECK(truth_unsure > 1000);
  CHECK(needless <= n / 1000);
}

/* The runner's path on random rows: double oracle -> bound with its y_rel -> check; UNSURE
 * -> the project's MPFR oracle and rf_softmax_within. For correct and perturbed outputs the
 * check never says PASS where the MPFR-based within fails, and the final verdicts equal the
 * MPFR-only ones. */
static void test_check_against_mpfr_path(void) {
  uint64_t rng = 7373;
  long n = 0, pass = 0, fail = 0, unsure = 0, unsafe_pass = 0, fail_but_within = 0;
  long unsure_rows = 0, rows = 0, kernel_unsure = 0;
  static const double f[] = {0.5, 0.99, 0.9999, 1.0001, 1.01, 2};
  for (int r = 0; r < 120; r++) {
    uint32_t C = (uint32_t)exp(log(CMAX) * unit(&rng));
    if (C < 1) C = 1;
    make_row(r % D_COUNT, x, C, &rng);
    double rel_d = rf_oracle_softmax_row_double(x, C, yd);
    rf_oracle_softmax_row(x, C, ym, NULL, NULL);
    for (int p = 0; p < P_COUNT; p++) {
      rf_plan pl = plan_for(p, C);
      static double rel_m[CMAX];
      rf_softmax_bound bd = {.rel = rel, .rel_kernel = relk}, bm = {.rel = rel_m};
      rf_bound_softmax_row_rel(&pl, model_for(p), x, C, yd, rel_d, RF_SM_DOUBLE_ABS, &bd);
      rf_bound_softmax_row(&pl, model_for(p), x, C, ym, &bm);
      run_pipe(p, x, C, y, e);
      int row_unsure = 0;
      for (uint32_t j = 0; j < C; j++) {
        double k_err = relk[j] * yd[j] + bd.abs_kernel;
        for (int v = 0; v < 1 + 4 * (int)N_F(f); v++) {
          float yh;
          if (v == 0) yh = y[j];
          else if (v <= 2 * (int)N_F(f)) /* around the bound's edge, either side */
            yh = (float)(yd[j] + (v % 2 ? 1 : -1) * f[(v - 1) / 2] * k_err);
          else { /* one and two floats off the kernel's output */
            int s = v - 2 * (int)N_F(f) - 1;
            yh = y[j];
            for (int t = 0; t <= s % 2; t++) yh = nextafterf(yh, s < (int)N_F(f) ? 2.0f : -1.0f);
          }
          rf_sm_check c = rf_softmax_check(&bd, j, yh, yd[j]);
          int w = rf_softmax_within(&bm, j, yh, ym[j]);
          n++;
          if (c == RF_SM_PASS) pass++, unsafe_pass += !w;
          else if (c == RF_SM_FAIL) fail++, fail_but_within += w;
          else unsure++, row_unsure = 1, kernel_unsure += v == 0;
        }
      }
      unsure_rows += row_unsure;
      rows++;
    }
  }
  printf("runner path: %ld checks: %ld PASS, %ld FAIL, %ld UNSURE (%ld of them on the kernels' "
         "own outputs; %ld of %ld rows to MPFR); PASS where MPFR fails %ld, FAIL where MPFR "
         "passes %ld\n", n, pass, fail, unsure, kernel_unsure, unsure_rows, rows, unsafe_pass,
         fail_but_within);
  CHECK(unsafe_pass == 0);
  CHECK(fail_but_within == 0);
  CHECK(kernel_unsure == 0);
  CHECK(pass > 0 && fail > 0);
}

int main(void) {
  exact_init();
  test_random_rows();
  test_planted_bugs();
  test_constant_rows();
  test_bound_terms();
  test_with_project_oracle();
  test_nonfinite_rows();
  test_bound_with_oracle_error();
  test_check_exact_y();
  test_check_planted();
  test_check_sound();
  test_check_against_mpfr_path();
  exact_clear();
  mpfr_free_cache();
  return rf_test_done();
}

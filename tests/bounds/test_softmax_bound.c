/* The softmax bound over random rows (cols 1..4096; uniform, shifted by ±1000, deep negative
 * tails with subnormal and vanishing exps, spikes, ties, wide floats) for four float reference
 * pipelines: 3-pass sequential (IEEE division), 3-pass 256-lane tree (reciprocal-multiply),
 * online sequential (a rescale per element), and 3-pass under emulated flush-to-zero. No
 * element exceeds rel_j y_j + abs_floor against MPFR's exact softmax and no row sum exceeds
 * row_sum_bound; one float beyond the bound (either side) is reported; two planted kernel
 * bugs (a dropped sum term, the seed's LDS-reuse race) are caught; constant rows admit
 * exactly RN(1/C). */
#include <float.h>
#include <math.h>
#include <stdio.h>   /* before mpfr.h */
#include <stdlib.h>
#include <string.h>
#include <mpfr.h>
#include "oracle/bounds.h"
#include "oracle/exact.h"
#include "rf_test.h"

#define CMAX 4096
#define LANES 256
#define WAVE 32
#define ROWS 700

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
static const rf_exp_model EM_HOST_FTZ = {1.0, 1};

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
  const rf_exp_model k1 = {1.0, 0}, k3 = {3.0, 0};
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

int main(void) {
  exact_init();
  test_random_rows();
  test_planted_bugs();
  test_constant_rows();
  test_bound_terms();
  test_with_project_oracle();
  test_nonfinite_rows();
  exact_clear();
  mpfr_free_cache();
  return rf_test_done();
}

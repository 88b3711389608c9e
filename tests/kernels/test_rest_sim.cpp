/* Runs every max, argmax, min, argmin and softmax variant of the registry on the device of this build (the
 * simulator in the default build, at wave 32 and 64 and two schedules) over the boundary
 * lengths and shapes, misaligned inputs, several block/grid requests and several input kinds:
 *   max, argmax: exact against a host reference with the oracle's policy (NaN ignored, only
 *     NaN -> NaN / -1, empty -> -inf / -1, ties -> lowest index, the value's own bits);
 *     min, argmin the same mirrored (empty -> +inf / -1);
 *   softmax: per element |y - y*| <= (h + 3 r + 32) u y* + |x - m| 2u y* + 2^-126 against a
 *     double reference, h the plan's row-sum depth and r its rescales (a loose check; the
 *     runner applies the exact bounds), and exactly RN(1/cols) on constant rows; rows with NaN,
 *     +inf, or only -inf give NaN everywhere.
 * Also: every output is written (NaN poison gone), nothing past the output or the scratch is
 * touched, deterministic variants repeat their bits, the simulator saw no race or divergent
 * barrier, plans have the hand-computed shape, and unsupported requests give a reason. The
 * checkers are shown to reject planted errors first.
 * RF_REST_TEST_BIG=0 skips n = 2^24 and 4096x1024 (slow on the simulator); RF_REST_TEST_QUICK=1
 * keeps two lengths, three shapes and two input kinds (for slow tools such as racecheck). On
 * the simulator, the passes after the first (wave 64, random schedule) run a reduced set. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>
#include <vector>
#include "rf_test.h"
#include "kernels/harness/device.h"
#include "redfuzz/variant.h"
#include "model/case.h"
#include "redfuzz/plan.h"

namespace {

#include "device_buffer.h"
constexpr uint64_t kBigN = 1ull << 24;

float from_bits(uint32_t b) {
  float f;
  memcpy(&f, &b, sizeof f);
  return f;
}
uint32_t bits_of(float f) {
  uint32_t b;
  memcpy(&b, &f, sizeof b);
  return b;
}

/* ---- references and checkers ------------------------------------------------------------- */

/* The first maximum with the oracle's policy; index -1 when there is no non-NaN element. */
int64_t ref_argmax(const float *x, uint64_t n, float *value) {
  int64_t best = -1;
  bool seen_nan = false;
  for (uint64_t i = 0; i < n; i++) {
    if (isnan(x[i])) seen_nan = true;
    else if (best < 0 || x[i] > x[best]) best = (int64_t)i;
  }
  *value = best >= 0 ? x[best] : seen_nan ? NAN : -INFINITY;
  return best;
}

/* The mirror for min and argmin: the lowest index of the smallest non-NaN value. */
int64_t ref_argmin(const float *x, uint64_t n, float *value) {
  int64_t best = -1;
  bool seen_nan = false;
  for (uint64_t i = 0; i < n; i++) {
    if (isnan(x[i])) seen_nan = true;
    else if (best < 0 || x[i] < x[best]) best = (int64_t)i;
  }
  *value = best >= 0 ? x[best] : seen_nan ? NAN : INFINITY;
  return best;
}

bool same_value(float a, float b) { return a == b || (isnan(a) && isnan(b)); }

bool check_max(float got, float want, char *why, size_t len) {
  if (same_value(got, want)) return true;
  snprintf(why, len, "got %a (bits %08x), want %a", got, bits_of(got), want);
  return false;
}

/* Index and value must match; the value must also be the element's own bits (-0 stays -0). */
bool check_argmax(const rf_argmax_out64 &got, int64_t want_index, float want_value,
                  const float *x, char *why, size_t len) {
  bool ok = got.index == want_index && same_value(got.value, want_value);
  if (ok && want_index >= 0) ok = bits_of(got.value) == bits_of(x[want_index]);
  if (!ok)
    snprintf(why, len, "got {%a, %lld}, want {%a, %lld}", got.value, (long long)got.index,
             want_value, (long long)want_index);
  return ok;
}

/* One softmax row against a double reference. `slack_ulps` = h + 3 r + 32. Returns the number
 * of bad elements and describes the first. */
size_t check_softmax_row(const float *x, const float *y, uint32_t cols, double slack_ulps,
                         char *why, size_t len) {
  double m = -INFINITY;
  bool poisoned = false;
  for (uint32_t j = 0; j < cols; j++) {
    if (isnan(x[j]) || x[j] == INFINITY) poisoned = true;
    else if (x[j] > m) m = x[j];
  }
  if (m == -INFINITY) poisoned = true;   /* only -inf: exp(-inf - -inf) is NaN */
  bool constant = !poisoned;
  double s = 0;
  for (uint32_t j = 0; j < cols; j++) {
    if (x[j] != x[0]) constant = false;
    if (!poisoned) s += exp((double)x[j] - m);
  }
  size_t bad = 0;
  for (uint32_t j = 0; j < cols; j++) {
    bool ok;
    double want;
    if (poisoned) {
      want = NAN;
      ok = isnan(y[j]) && bits_of(y[j]) != kPoisonBits;
    } else if (constant) {
      const float rn = 1.0f / (float)cols;   /* IEEE division: RN(1/cols) */
      want = rn;
      ok = bits_of(y[j]) == bits_of(rn);
    } else if (x[j] == -INFINITY) {
      want = 0;   /* exp(-inf) = 0 exactly */
      ok = y[j] == 0.0f;
    } else {
      const double d = (double)x[j] - m;
      want = exp(d) / s;
      const double tol = want * (slack_ulps * 0x1p-24 + fabs(d) * 0x1p-23) + 0x1p-126;
      ok = fabs((double)y[j] - want) <= tol;   /* false for NaN and poison */
    }
    if (!ok && bad++ == 0)
      snprintf(why, len, "col %u: x %a got %a (bits %08x) want %.9g%s", j, x[j], y[j],
               bits_of(y[j]), want, bits_of(y[j]) == kPoisonBits ? " (unwritten)" : "");
  }
  return bad;
}

void test_checkers_catch_planted_errors() {
  char why[256];
  CHECK(check_max(3.0f, 3.0f, why, sizeof why));
  CHECK(!check_max(2.0f, 3.0f, why, sizeof why));
  CHECK(!check_max(from_bits(kPoisonBits), 3.0f, why, sizeof why));   /* unwritten */
  CHECK(!check_max(-INFINITY, NAN, why, sizeof why));   /* all-NaN input padded with -inf */
  CHECK(check_max(NAN, NAN, why, sizeof why));

  const float x[4] = {1.0f, -0.0f, 5.0f, 5.0f};
  float v;
  CHECK(ref_argmax(x, 4, &v) == 2 && v == 5.0f);
  rf_argmax_out64 good = {5.0f, 0, 2}, later_tie = {5.0f, 0, 3}, wrong_value = {4.0f, 0, 2};
  CHECK(check_argmax(good, 2, 5.0f, x, why, sizeof why));
  CHECK(!check_argmax(later_tie, 2, 5.0f, x, why, sizeof why));   /* tie to the higher index */
  CHECK(!check_argmax(wrong_value, 2, 5.0f, x, why, sizeof why));
  const float zeros[2] = {-0.0f, 0.0f};
  CHECK(ref_argmax(zeros, 2, &v) == 0);
  rf_argmax_out64 plus_zero = {0.0f, 0, 0};
  CHECK(!check_argmax(plus_zero, 0, -0.0f, zeros, why, sizeof why));   /* not the element's bits */
  const float nans[2] = {NAN, NAN};
  CHECK(ref_argmax(nans, 2, &v) == -1 && isnan(v));
  CHECK(ref_argmax(nans, 0, &v) == -1 && v == -INFINITY);
  const float pinf[3] = {INFINITY, INFINITY, INFINITY};   /* argmin's edge: all +inf */
  CHECK(ref_argmin(pinf, 3, &v) == 0 && v == INFINITY);
  CHECK(ref_argmin(x, 4, &v) >= 0 && v <= x[0] && v <= x[1] && v <= x[2] && v <= x[3]);
  CHECK(ref_argmin(nans, 0, &v) == -1 && v == INFINITY);

  /* Softmax of [0, 1, 2]: exact outputs pass; one element off by 1e-4 relative does not. */
  const float row[3] = {0.0f, 1.0f, 2.0f};
  const double s = 1 + exp(1.0) + exp(2.0);
  float y[3] = {(float)(1 / s), (float)(exp(1.0) / s), (float)(exp(2.0) / s)};
  CHECK(check_softmax_row(row, y, 3, 40, why, sizeof why) == 0);
  y[1] *= 1.0001f;
  CHECK(check_softmax_row(row, y, 3, 40, why, sizeof why) == 1);
  y[1] = from_bits(kPoisonBits);
  CHECK(check_softmax_row(row, y, 3, 40, why, sizeof why) == 1);
  /* A constant row must be RN(1/3) exactly: one ulp off is caught. */
  const float flat[3] = {7.0f, 7.0f, 7.0f};
  float third[3] = {1.0f / 3, 1.0f / 3, nextafterf(1.0f / 3, 1.0f)};
  CHECK(check_softmax_row(flat, third, 3, 40, why, sizeof why) == 1);
  /* A masked (-inf) element must come out exactly 0. */
  const float masked[3] = {0.0f, -INFINITY, 1.0f};
  float masked_out[3] = {(float)(1 / (1 + exp(1.0))), 0x1p-149f, (float)(exp(1.0) / (1 + exp(1.0)))};
  CHECK(check_softmax_row(masked, masked_out, 3, 40, why, sizeof why) == 1);
  masked_out[1] = 0.0f;
  CHECK(check_softmax_row(masked, masked_out, 3, 40, why, sizeof why) == 0);
  /* A row holding NaN must come out NaN everywhere (and written). */
  const float with_nan[3] = {0.0f, NAN, 1.0f};
  float nan_out[3] = {NAN, NAN, 0.5f};
  CHECK(check_softmax_row(with_nan, nan_out, 3, 40, why, sizeof why) == 1);
  nan_out[2] = from_bits(kPoisonBits);
  CHECK(check_softmax_row(with_nan, nan_out, 3, 40, why, sizeof why) == 1);
}

/* The float32 form's name of a 16-bit log-op variant ("logsumexp/f16-block-f32out" ->
 * "logsumexp/block"): the same templates, so the same plan and launch constraints. Other
 * names are returned as they are. */
std::string algorithm_name(const rf_variant *v) {
  std::string n = v->name;
  if (v->op != RF_OP_LOGSUMEXP && v->op != RF_OP_LOGSOFTMAX) return n;
  const size_t slash = n.find('/');
  for (const char *t : {"f16-", "bf16-"})
    if (n.compare(slash + 1, strlen(t), t) == 0) n.erase(slash + 1, strlen(t));
  const std::string suffix = "-f32out";
  if (n.size() > suffix.size() && n.compare(n.size() - suffix.size(), suffix.size(), suffix) == 0)
    n.erase(n.size() - suffix.size());
  return n;
}

/* Plans of a few configurations, computed by hand from the kernels. */
void test_plans(const rf_variant *v) {
  rf_launch_cfg c;
  memset(&c, 0, sizeof c);
  c.block = 256;
  c.grid = 4;
  c.wave = 32;
  c.num_cus = 4;
  c.n = 10000;        /* ceil(10000 / 1024) = 10 elements for the busiest thread */
  c.rows = 3;
  c.cols = 1000;      /* ceil(1000 / 256) = 4 */
  rf_plan p;
  memset(&p, 0, sizeof p);
  v->plan(&c, &p);
  const uint64_t h = rf_plan_depth(&p);
  const std::string algorithm = algorithm_name(v);
  const char *n = algorithm.c_str();
  /* min and argmin: the max and argmax shapes, mirrored */
  if (!strcmp(n, "max/lds") || !strcmp(n, "min/lds")) CHECK(h == 10 + 8 + 4);
  else if (!strcmp(n, "max/wave") || !strcmp(n, "argmax/wave") || !strcmp(n, "min/wave") ||
           !strcmp(n, "argmin/wave"))
    CHECK(h == 10 + 5 + 3 + 4);
  else if (!strcmp(n, "max/two-stage") || !strcmp(n, "min/two-stage"))
    CHECK(h == 10 + 5 + 3 + 1 + 5 + 3);
  else if (!strcmp(n, "argmax/lds") || !strcmp(n, "argmin/lds")) CHECK(h == 10 + 8 + 1 + 8);
  /* float4: k4 = ceil(2500 / 1024) = 3 quads, + 2 component merges + head + tail = 7; the
   * second kernel of max/vec4 reads the 4 partials as 1 quad (1 + 4), argmax/vec4's scalar
   * (ceil(4 / 256) = 1). */
  else if (!strcmp(n, "max/vec4")) CHECK(h == 7 + 5 + 3 + 5 + 5 + 3);
  else if (!strcmp(n, "argmax/vec4")) CHECK(h == 7 + 5 + 3 + 1 + 5 + 3);
  else if (!strcmp(n, "max/vec4-keyed") || !strcmp(n, "argmax/vec4-keyed"))
    CHECK(h == 7 + 5 + 3 + 4);
  else if (!strcmp(n, "softmax/3kernel")) CHECK(h == 1000 && p.div == RF_DIV_IEEE);
  else if (!strcmp(n, "softmax/block-lds") || !strcmp(n, "softmax/block-wave"))
    CHECK(h == 4 + 8 && p.div == RF_DIV_IEEE && p.rescales == 0);
  else if (!strcmp(n, "softmax/online"))
    CHECK(h == 4 + 8 && p.div == RF_DIV_RECIP_MUL && p.rescales == 3 + 8);
  else if (!strcmp(n, "softmax/row-reg"))   /* ceil(250 / 256) = 1 quad: 2 + 1 + tail 1 */
    CHECK(h == 4 + 8 && p.div == RF_DIV_IEEE && p.rescales == 0);
  else if (!strcmp(n, "logsumexp/3kernel") || !strcmp(n, "logsoftmax/3kernel"))
    CHECK(h == 1000 && p.rescales == 0 && p.exp == RF_EXP_ACCURATE);
  else if (!strcmp(n, "logsumexp/block") || !strcmp(n, "logsoftmax/block"))
    CHECK(h == 4 + 5 + 3 && p.rescales == 0);
  else if (!strcmp(n, "logsumexp/online") || !strcmp(n, "logsoftmax/online"))
    CHECK(h == 4 + 5 + 3 && p.rescales == 3 + 8);
  else CHECK_MSG(false, "no hand-computed plan for %s", n);
  /* Empty input: nothing on any path. */
  c.n = 0;
  c.cols = 0;
  memset(&p, 0, sizeof p);
  v->plan(&c, &p);
  CHECK_MSG(rf_plan_depth(&p) == 0, "%s: plan of an empty input", n);
}

/* Requests every variant must refuse, with a reason. */
void test_refusals(const rf_variant *v) {
  rf_launch_cfg c;
  memset(&c, 0, sizeof c);
  c.n = 100;
  c.rows = 2;
  c.cols = 50;
  c.wave = 32;
  c.num_cus = 4;
  c.block = 2048;
  const char *why = v->configure(&c);
  CHECK_MSG(why && why[0], "%s accepted block 2048", v->name);
  c.block = 64;
  c.grid = 70000;
  why = v->configure(&c);
  CHECK_MSG(why && why[0], "%s accepted grid 70000", v->name);
  c.grid = 0;
  c.block = 48;
  why = v->configure(&c);
  const std::string n = algorithm_name(v);
  if (n != "softmax/3kernel" && n != "logsumexp/3kernel" &&
      n != "logsoftmax/3kernel")   /* one thread per row: any block works */
    CHECK_MSG(why && why[0], "%s accepted block 48", v->name);
  c.block = 64;
  c.wave = 64;
  c.grid = 0;
  CHECK_MSG(v->configure(&c) == NULL, "%s refused block 64 at wave 64", v->name);
}

/* ---- inputs ------------------------------------------------------------------------------ */

uint64_t splitmix64(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}
/* Uniform in [lo, hi) with 24 random bits. */
float uniform(uint64_t *s, float lo, float hi) {
  return lo + (hi - lo) * ldexpf((float)(splitmix64(s) >> 40), -24);
}

enum Dist1 { ONES, ALTERNATING, UNIFORM, NEGATIVE, TIES, ASCENDING, DESCENDING, ALL_NAN,
             SOME_NAN, ZEROS, NEG_INF, INF_AND_NAN, POS_INF, DIST1_COUNT };
const char *dist1_name(int d) {
  static const char *names[] = {"ones", "alternating", "uniform", "negative", "ties",
                                "ascending", "descending", "all-nan", "some-nan", "signed-zeros",
                                "neg-inf", "inf-and-nan", "pos-inf"};
  return names[d];
}

void make_1d(int dist, uint64_t n, uint64_t seed, std::vector<float> *x) {
  x->resize(n);
  for (uint64_t i = 0; i < n; i++) {
    float v = 0;
    switch (dist) {
      case ONES: v = 1.0f; break;
      case ALTERNATING: v = (i % 2 == seed % 2) ? 1.0f : -1.0f; break;
      case UNIFORM: v = uniform(&seed, -1000.0f, 1000.0f); break;
      case NEGATIVE: v = uniform(&seed, -1000.0f, -1.0f); break;
      case TIES: v = (float)(splitmix64(&seed) % 8); break;
      case ASCENDING: v = (float)i; break;
      case DESCENDING: v = -(float)i; break;
      case ALL_NAN: v = NAN; break;
      case SOME_NAN: v = (i % 3 == 0) ? NAN : uniform(&seed, -10.0f, 10.0f); break;
      case ZEROS: v = (splitmix64(&seed) & 1) ? 0.0f : -0.0f; break;
      case NEG_INF: v = -INFINITY; break;
      case INF_AND_NAN: v = (i % 2) ? NAN : (i % 5 == 4 ? INFINITY : -INFINITY); break;
      case POS_INF: v = INFINITY; break;   /* argmin's edge (a FLT_MAX start loses it) */
    }
    (*x)[i] = v;
  }
}

enum Dist2 { CONSTANT, UNIFORM_ROWS, SHIFTED, WIDE, MASKED, SPECIAL, DIST2_COUNT };
const char *dist2_name(int d) {
  static const char *names[] = {"constant", "uniform", "shifted-rows", "wide", "masked",
                                "special-rows"};
  return names[d];
}

/* SHIFTED: rows x, x+1000, x-1000 of one base row (seed 004 §10.4). SPECIAL: rows cycle
 * through {holds NaN, holds +inf, only -inf, plain}. */
void make_2d(int dist, uint32_t rows, uint32_t cols, uint64_t seed, std::vector<float> *x) {
  x->resize((size_t)rows * cols);
  std::vector<float> base(cols);
  for (uint32_t j = 0; j < cols; j++) base[j] = uniform(&seed, -5.0f, 5.0f);
  for (uint32_t r = 0; r < rows; r++)
    for (uint32_t j = 0; j < cols; j++) {
      float v = 0;
      switch (dist) {
        case CONSTANT: v = 3.5f; break;
        case UNIFORM_ROWS: v = uniform(&seed, -10.0f, 10.0f); break;
        case SHIFTED: v = base[j] + (r % 3 == 0 ? 0.0f : r % 3 == 1 ? 1000.0f : -1000.0f); break;
        case WIDE: v = uniform(&seed, -200.0f, 200.0f); break;
        case MASKED: v = (j % 3 == 1) ? -INFINITY : uniform(&seed, -10.0f, 10.0f); break;
        case SPECIAL:
          v = uniform(&seed, -10.0f, 10.0f);
          if (r % 4 == 0 && j == cols / 2) v = NAN;
          if (r % 4 == 1 && j == cols - 1) v = INFINITY;
          if (r % 4 == 2) v = -INFINITY;
          break;
      }
      (*x)[(size_t)r * cols + j] = v;
    }
}

/* ---- running one variant ----------------------------------------------------------------- */

struct Env {
  rf_device_info dev;
  bool sim = false;
  unsigned wave = 32;
  int sched = 0;
  Buffer in, out, scratch;
  std::vector<float> host_out, host_again;
};

struct Tally {
  unsigned runs = 0, passed = 0, unsupported = 0;
};

/* Launches once with poisoned output and scratch; downloads out_floats of output. */
bool launch_once(Env &e, const rf_variant *v, const rf_launch_args &a, size_t out_floats,
                 size_t scratch_floats, std::vector<float> *result, const char *what) {
  result->assign(out_floats, 0.0f);
  const LaunchReport r =
      launch_poisoned(e.out, e.scratch, v, a, out_floats, scratch_floats, result->data());
  CHECK_MSG(r.error() == 0, "%s: launch %d sync %d error %d (%s)", what, r.rc, r.sync, r.last,
            rf_dev_error_string(r.error()));
  CHECK_MSG(r.status == RF_DEV_STATUS_OK, "%s: simulator status %d: %s", what, r.status, r.msg);
  CHECK_MSG(r.out_guard == 0, "%s: %zu floats past the output overwritten", what, r.out_guard);
  CHECK_MSG(r.scratch_guard == 0, "%s: %zu floats past the scratch overwritten", what,
            r.scratch_guard);
  return r.ok();
}

/* What one run is checked against: x (host copy of the input) and the op's reference. */
struct Job {
  const rf_variant *v;
  uint64_t n;
  uint32_t rows, cols;
  size_t offset;
  const std::vector<float> *x;
  const char *dist;
};

bool check_result(const Job &j, const rf_plan &plan, const std::vector<float> &out,
                  const char *what) {
  char why[300] = "";
  const float *x = j.x->data();
  if (j.v->op == RF_OP_MAX || j.v->op == RF_OP_MIN) {
    float want;
    if (j.v->op == RF_OP_MAX) ref_argmax(x, j.n, &want);
    else ref_argmin(x, j.n, &want);
    const bool ok = check_max(out[0], want, why, sizeof why);
    CHECK_MSG(ok, "%s: %s", what, why);
    return ok;
  }
  if (j.v->op == RF_OP_ARGMAX || j.v->op == RF_OP_ARGMIN) {
    float want;
    const int64_t wi = j.v->op == RF_OP_ARGMAX ? ref_argmax(x, j.n, &want)
                                               : ref_argmin(x, j.n, &want);
    /* the variant's layout (index_bits: the 8- or 16-byte pair) as a 64-bit index */
    rf_argmax_out64 got = {0, 0, 0};
    if (j.v->index_bits == 64) {
      memcpy(&got, out.data(), sizeof got);
    } else {
      rf_argmax_out g32;
      memcpy(&g32, out.data(), sizeof g32);
      got.value = g32.value;
      got.index = g32.index;
    }
    const bool ok = check_argmax(got, wi, want, x, why, sizeof why);
    CHECK_MSG(ok, "%s: %s", what, why);
    return ok;
  }
  const double slack = (double)rf_plan_depth(&plan) + 3.0 * (double)plan.rescales + 32;
  size_t bad_rows = 0;
  for (uint32_t r = 0; r < j.rows; r++) {
    const size_t bad = check_softmax_row(x + (size_t)r * j.cols, out.data() + (size_t)r * j.cols,
                                         j.cols, slack, why, sizeof why);
    if (bad && bad_rows++ == 0)
      CHECK_MSG(false, "%s: row %u: %zu bad elements, first %s", what, r, bad, why);
  }
  if (bad_rows > 1) fprintf(stderr, "%s: %zu rows bad in all\n", what, bad_rows);
  return bad_rows == 0;
}

void run_variant(Env &e, const Job &j, uint32_t block, uint32_t grid, Tally *tally) {
  rf_launch_cfg cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.n = j.n;
  cfg.rows = j.rows;
  cfg.cols = j.cols;
  cfg.block = block;
  cfg.grid = grid;
  cfg.wave = e.wave;
  cfg.num_cus = e.dev.num_cus;
  char what[300];
  if (j.v->op == RF_OP_SOFTMAX)
    snprintf(what, sizeof what, "%s %ux%u %s offset=%zu block=%u grid=%u wave=%u sched=%d",
             j.v->name, j.rows, j.cols, j.dist, j.offset, block, grid, e.wave, e.sched);
  else
    snprintf(what, sizeof what, "%s n=%llu %s offset=%zu block=%u grid=%u wave=%u sched=%d",
             j.v->name, (unsigned long long)j.n, j.dist, j.offset, block, grid, e.wave, e.sched);
  tally->runs++;
  const char *why = j.v->configure(&cfg);
  if (why) {
    /* Only these requests may be refused: a block the variant cannot run. */
    const bool expected = (block & (block - 1)) != 0 || block % e.wave != 0 ||
                          /* row-reg holds the row in at most 8 float4 per thread */
                          (!strcmp(j.v->name, "softmax/row-reg") && block * 8u < j.cols / 4);
    CHECK_MSG(expected && why[0], "%s: unexpectedly unsupported: %s", what, why);
    tally->unsupported++;
    return;
  }
  CHECK_MSG(cfg.block >= 1 && cfg.block <= 1024 && cfg.grid >= 1, "%s: resolved block %u grid %u",
            what, cfg.block, cfg.grid);
  rf_plan plan;
  memset(&plan, 0, sizeof plan);
  j.v->plan(&cfg, &plan);
  const size_t scratch_bytes = j.v->scratch_bytes(&cfg);
  const size_t scratch_floats = (scratch_bytes + sizeof(float) - 1) / sizeof(float);
  e.scratch.reserve(scratch_floats + kGuardFloats);
  const size_t out_floats = j.v->op == RF_OP_SOFTMAX ? (size_t)j.rows * j.cols
                            : j.v->op == RF_OP_ARGMAX || j.v->op == RF_OP_ARGMIN
                                ? rf_argmax_out_bytes(j.v->index_bits) / sizeof(float)
                                                      : 1;
  e.out.reserve(out_floats + kGuardFloats);

  rf_launch_args a;
  memset(&a, 0, sizeof a);
  a.x = e.in.p + j.offset;
  a.out = e.out.p;
  a.scratch = scratch_bytes ? e.scratch.p : nullptr;
  a.cfg = cfg;
  bool ok = launch_once(e, j.v, a, out_floats, scratch_floats, &e.host_out, what);
  ok = check_result(j, plan, e.host_out, what) && ok;
  if (j.v->deterministic) {
    ok = launch_once(e, j.v, a, out_floats, scratch_floats, &e.host_again, what) && ok;
    const bool same = out_floats == 0 || memcmp(e.host_out.data(), e.host_again.data(),
                                                out_floats * sizeof(float)) == 0;
    CHECK_MSG(same, "%s: deterministic variant gave different bits on a second launch", what);
    ok = ok && same;
  }
  tally->passed += ok;
}

/* Uploads x at `offset` floats into the input buffer with poison around it: a kernel reading
 * outside its input meets +inf (max, argmax: a wrong maximum) or NaN (softmax: a NaN row). */
void upload_input(Env &e, const std::vector<float> &x, size_t offset, float fence) {
  const size_t floats = x.size() + 4 + kGuardFloats;
  std::vector<float> buf(floats, fence);
  if (!x.empty()) memcpy(&buf[offset], x.data(), x.size() * sizeof(float));
  e.in.reserve(floats);
  CHECK(rf_dev_upload(e.in.p, buf.data(), floats * sizeof(float)) == 0);
}

/* The block and grid requests that matter: defaults, the extremes, a refused one (96), small
 * grids (long per-thread chains) and a grid with many idle blocks. */
void run_requests(Env &e, const Job &j, bool small, Tally *tally) {
  static const uint32_t blocks[] = {0, 1, 32, 64, 96, 1024};
  if (!small) {
    run_variant(e, j, 0, 0, tally);
    return;
  }
  for (uint32_t b : blocks) run_variant(e, j, b, 0, tally);
  for (uint32_t g : {1u, 3u}) run_variant(e, j, 64, g, tally);
  run_variant(e, j, 32, 1000, tally);
}

/* How much of the matrix a pass runs: FULL everything; REDUCED (the simulator's extra wave and
 * schedule passes) the harder input kinds at offset 0; QUICK two lengths, three shapes, two
 * kinds (for slow tools such as racecheck). */
enum Coverage { FULL, REDUCED, QUICK };

bool keeps_1d(Coverage c, uint64_t n, int dist, size_t offset) {
  if (c == FULL) return true;
  if (c == QUICK) return (n == 33 || n == 1027) && (dist == UNIFORM || dist == SOME_NAN);
  return offset == 0 && (dist == UNIFORM || dist == TIES || dist == SOME_NAN || dist == ALL_NAN);
}
bool keeps_2d(Coverage c, uint32_t cols, int dist, size_t offset) {
  if (c == FULL) return true;
  if (c == QUICK)
    return (cols == 33 || cols == 257 || cols == 4097) && (dist == UNIFORM_ROWS || dist == SPECIAL);
  return offset == 0 && (dist == UNIFORM_ROWS || dist == MASKED || dist == SPECIAL);
}

void run_all(Env &e, const std::vector<const rf_variant *> &vars, bool big, Coverage cov,
             std::vector<Tally> *tallies) {
  static const uint64_t lengths[] = {0, 1, 2, 31, 32, 33, 255, 256, 257, 1027, 4099};
  std::vector<float> x;
  for (uint64_t n : lengths)
    for (int dist = 0; dist < DIST1_COUNT; dist++) {
      make_1d(dist, n, 0x5eed + n, &x);
      for (size_t offset = 0; offset < 2; offset++) {
        if (!keeps_1d(cov, n, dist, offset)) continue;
        upload_input(e, x, offset, INFINITY);
        for (size_t vi = 0; vi < vars.size(); vi++)
          if (vars[vi]->op != RF_OP_SOFTMAX)
            run_requests(e, Job{vars[vi], n, 0, 0, offset, &x, dist1_name(dist)}, true,
                         &(*tallies)[vi]);
      }
    }
  static const uint32_t shapes[][2] = {{1, 1},   {2, 31},  {3, 32},  {4, 33}, {2, 255},
                                       {3, 257}, {2, 1025}, {2, 4097}, {5, 1}, {1, 0}, {0, 7}};
  for (const auto &sh : shapes)
    for (int dist = 0; dist < DIST2_COUNT; dist++) {
      make_2d(dist, sh[0], sh[1], 0xface + sh[1], &x);
      for (size_t offset = 0; offset < 2; offset++) {
        if (!keeps_2d(cov, sh[1], dist, offset)) continue;
        upload_input(e, x, offset, NAN);
        for (size_t vi = 0; vi < vars.size(); vi++)
          if (vars[vi]->op == RF_OP_SOFTMAX)
            run_requests(e, Job{vars[vi], 0, sh[0], sh[1], offset, &x, dist2_name(dist)}, true,
                         &(*tallies)[vi]);
      }
    }
  if (!big) return;
  for (int dist : {ONES, UNIFORM, ASCENDING}) {
    make_1d(dist, kBigN, 0x5eed, &x);
    upload_input(e, x, 1, INFINITY);
    for (size_t vi = 0; vi < vars.size(); vi++)
      if (vars[vi]->op != RF_OP_SOFTMAX)
        run_requests(e, Job{vars[vi], kBigN, 0, 0, 1, &x, dist1_name(dist)}, false,
                     &(*tallies)[vi]);
  }
  make_2d(SHIFTED, 4096, 1024, 0xface, &x);
  upload_input(e, x, 0, NAN);
  for (size_t vi = 0; vi < vars.size(); vi++)
    if (vars[vi]->op == RF_OP_SOFTMAX)
      run_requests(e, Job{vars[vi], 0, 4096, 1024, 0, &x, dist2_name(SHIFTED)}, false,
                   &(*tallies)[vi]);
}

}  // namespace

int main() {
  test_checkers_catch_planted_errors();

  Env e;
  CHECK(rf_dev_info(&e.dev) == 0);
  e.sim = e.dev.backend && strcmp(e.dev.backend, "sim") == 0;
  std::vector<const rf_variant *> vars;
  int log_ops = 0;
  for (size_t i = 0; i < rf_variant_count(); i++) {
    const rf_variant *v = rf_variant_at(i);
    /* logsumexp and log-softmax have their own checks (tests/bounds/test_lse_bound.c and the
     * cli sweeps against the MPFR oracle); here only their plans and refusals, the 16-bit
     * forms (every pair of f16 / bf16 input and its own or f32 output) as their float32
     * algorithm's. */
    if (v->is_mutant || (v->op != RF_OP_LOGSUMEXP && v->op != RF_OP_LOGSOFTMAX)) continue;
    test_plans(v);
    test_refusals(v);
    CHECK_MSG(v->deterministic, "%s should be deterministic (no float atomics)", v->name);
    log_ops++;
  }
  CHECK(log_ops == 6 + 24);
  for (size_t i = 0; i < rf_variant_count(); i++) {
    const rf_variant *v = rf_variant_at(i);
    /* float32 inputs: the 16-bit variants are checked by sweeps (tests/cli) */
    const bool op = (v->op != RF_OP_SUM && v->op <= RF_OP_SOFTMAX) || v->op == RF_OP_MIN ||
                    v->op == RF_OP_ARGMIN;
    if (op && !v->is_mutant && v->in_dtype == RF_DTYPE_F32) vars.push_back(v);
  }
  CHECK(vars.size() == 14 + 5);   /* min: lds, wave, two-stage; argmin: lds, wave */
  for (const rf_variant *v : vars) {
    test_plans(v);
    test_refusals(v);
    CHECK_MSG(v->deterministic, "%s should be deterministic (no float atomics)", v->name);
  }
  const char *big_env = getenv("RF_REST_TEST_BIG");
  const bool big = !(big_env && strcmp(big_env, "0") == 0);
  const char *quick_env = getenv("RF_REST_TEST_QUICK");
  const bool quick = quick_env && strcmp(quick_env, "1") == 0;
  const Coverage base = quick ? QUICK : FULL;

  std::vector<Tally> tallies(vars.size());
  if (e.sim) {
    /* Wave 32 (gfx1201, NVIDIA) and 64 (CDNA); in order and a seeded random schedule. The
     * first pass runs everything, the others the harder inputs. */
    const int scheds[] = {RF_SCHED_IN_ORDER, RF_SCHED_RANDOM};
    for (unsigned wave : {32u, 64u})
      for (int sched : scheds) {
        e.wave = wave;
        e.sched = sched;
        rf_dev_sim_configure(sched, 12345, wave);
        const bool first = wave == 32 && sched == RF_SCHED_IN_ORDER;
        run_all(e, vars, big && first, first ? base : quick ? QUICK : REDUCED, &tallies);
      }
  } else {
    e.wave = e.dev.wave;
    run_all(e, vars, big, base, &tallies);
  }
  printf("device %s (%s), wave %u, %u CUs\n", e.dev.name, e.dev.backend, e.dev.wave,
         e.dev.num_cus);
  for (size_t i = 0; i < vars.size(); i++)
    printf("%-20s %5u runs: %5u pass, %4u unsupported, %u failed\n", vars[i]->name,
           tallies[i].runs, tallies[i].passed, tallies[i].unsupported,
           tallies[i].runs - tallies[i].passed - tallies[i].unsupported);
  return rf_test_done();
}

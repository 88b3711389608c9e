/* The runner's checkers each catch the bug they claim to: planted variants, registered at
 * run time, that leave the output unwritten, write past it, give different bits on a second
 * run, fail to launch, or miss the exact answer by one ulp, or write past a large scratch
 * buffer; and a correct planted variant passes -- alone and all in one batch. On the
 * simulator, every variant's repeat (run/launch_checks.h) runs with kernel coverage quiet, and
 * only the repeat. Compiled through kernels/port.h like any kernel. */
#include <math.h>
#include <string.h>
#include "kernels/port.h"
#include "redfuzz/variant.h"
#include "run/runner.h"
#include "rf_test.h"
#if defined(RF_SIM)
#include "sim/engine.h"
#endif

/* One thread sums sequentially (exactly the plan "chain n") and writes out[0..k). */
__global__ void seq_sum(const float *x, unsigned long long n, float *out, int extra_words,
                        float add_ulps, int negate_zero) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  float s = 0.0f;
  for (unsigned long long i = 0; i < n; i++) s += x[i];
  if (add_ulps != 0) s = __int_as_float(__float_as_int(s) + (int)add_ulps);
  if (negate_zero && s == 0.0f) s = -0.0f;
  out[0] = s;
  for (int k = 1; k <= extra_words; k++) out[k] = 0.0f;   /* past the 4-byte output */
}

/* Writes one word past a scratch buffer of RF_BIG_SCRATCH bytes: the arena is then larger
 * than its whole-download size, so scratch guards come back one by one. */
#define RF_BIG_SCRATCH (5u << 20)
__global__ void scratch_overrun(float *scratch) {
  if (threadIdx.x == 0 && blockIdx.x == 0) scratch[RF_BIG_SCRATCH / sizeof(float)] = 1.0f;
}

static const char *cfg_any(rf_launch_cfg *c) { c->block = 1; c->grid = 1; return NULL; }
static size_t no_scratch(const rf_launch_cfg *c) { (void)c; return 0; }
static void chain_plan(const rf_launch_cfg *c, rf_plan *p) { rf_plan_add(p, RF_LEVEL_CHAIN, c->n); }

static int launch_k(const rf_launch_args *a, int extra, float ulps, int negz, unsigned block) {
  hipLaunchKernelGGL(seq_sum, dim3(1), dim3(block), 0, (hipStream_t)a->stream, a->x,
                     (unsigned long long)a->cfg.n, (float *)a->out, extra, ulps, negz);
  return (int)hipGetLastError();
}
static int l_correct(const rf_launch_args *a) { return launch_k(a, 0, 0, 0, 1); }
static int l_unwritten(const rf_launch_args *a) { (void)a; return 0; }
static int l_oob(const rf_launch_args *a) { return launch_k(a, 2, 0, 0, 1); }
static int l_off_by_ulp(const rf_launch_args *a) { return launch_k(a, 0, 1, 0, 1); }
static int l_bad_launch(const rf_launch_args *a) { return launch_k(a, 0, 0, 0, 4096); }
static int flip;
/* +0 on one run, -0 on the next: both exact, different bits. */
static int l_flip_zero(const rf_launch_args *a) { return launch_k(a, 0, 0, (flip ^= 1), 1); }

static size_t big_scratch(const rf_launch_cfg *c) { (void)c; return RF_BIG_SCRATCH; }
/* As a two-kernel sum at grid 2^31 would ask: refused before anything is allocated. */
static size_t huge_scratch(const rf_launch_cfg *c) { (void)c; return (size_t)8 << 30; }
static int l_scratch_oob(const rf_launch_args *a) {
  hipLaunchKernelGGL(scratch_overrun, dim3(1), dim3(1), 0, (hipStream_t)a->stream,
                     (float *)a->scratch);
  return launch_k(a, 0, 0, 0, 1);
}

#if defined(RF_SIM)
/* Records, launch by launch, whether the runner had made kernel coverage quiet
 * (rf_sim_quiet_coverage; the fuzz build's folding is not linked here, so the test stands in
 * for it). */
static int quiet_now, quiet_seen[4], quiet_launches;
static void record_quiet(bool q) { quiet_now = q; }
static int l_quiet_probe(const rf_launch_args *a) {
  if (quiet_launches < 4) quiet_seen[quiet_launches] = quiet_now;
  quiet_launches++;
  return launch_k(a, 0, 0, 0, 1);
}
#endif

#define PLANT_S(var, nm, det, fn, scratch) \
  static const rf_variant var = {nm, RF_OP_SUM, det, 1, "planted", "any", cfg_any, scratch, \
                                 chain_plan, fn, 0}
#define PLANT(var, nm, det, fn) PLANT_S(var, nm, det, fn, no_scratch)
PLANT(v_correct, "sum/test-correct", 1, l_correct);
PLANT(v_unwritten, "sum/test-unwritten", 1, l_unwritten);
PLANT(v_oob, "sum/test-oob", 1, l_oob);
PLANT(v_ulp, "sum/test-off-by-ulp", 1, l_off_by_ulp);
PLANT(v_bad, "sum/test-bad-launch", 1, l_bad_launch);
PLANT(v_flip, "sum/test-flip-zero", 1, l_flip_zero);
PLANT_S(v_scratch_oob, "sum/test-scratch-oob", 1, l_scratch_oob, big_scratch);
PLANT_S(v_huge_scratch, "sum/test-huge-scratch", 1, l_correct, huge_scratch);
#if defined(RF_SIM)
PLANT(v_quiet_probe, "sum/test-quiet-probe", 1, l_quiet_probe);
PLANT(v_quiet_probe_nd, "sum/test-quiet-probe-nd", 0, l_quiet_probe);
#endif

static int only_plants(const rf_variant *v, void *ctx) {
  (void)ctx;
  return strncmp(v->name, "sum/test-", 9) == 0;
}

static rf_verdict run_one(rf_runner *r, const char *variant, uint64_t n, rf_dist dist,
                          rf_result *res) {
  rf_case c;
  rf_case_default(&c);
  c.n = n;
  c.dist = dist;
  snprintf(c.variant, sizeof c.variant, "%s", variant);
  char err[256];
  int k = rf_runner_run(r, &c, res, 1, err, sizeof err);
  CHECK_MSG(k == 1, "%s: %s", variant, err);
  return k == 1 ? res->verdict : RF_V_COUNT;
}

int main(void) {
  const rf_variant *plants[] = {&v_correct, &v_unwritten, &v_oob, &v_ulp, &v_bad, &v_flip,
                                &v_scratch_oob, &v_huge_scratch};
  for (size_t i = 0; i < sizeof plants / sizeof *plants; i++)
    CHECK(rf_variant_register(plants[i]) == 0);
  CHECK(rf_variant_register(&v_correct) == -1);   /* names are unique */
  char err[256];
  rf_runner *r = rf_runner_create(NULL, err, sizeof err);
  CHECK_MSG(r != NULL, "%s", err);
  if (!r) return rf_test_done();
  rf_result res;

  CHECK(run_one(r, "sum/test-correct", 1027, RF_DIST_UNIFORM, &res) == RF_V_PASS);
  CHECK(res.err <= res.bound && res.bound > 0);
  CHECK(run_one(r, "sum/test-correct", 1027, RF_DIST_ONES, &res) == RF_V_PASS);
  CHECK(res.bound == 0 && res.err == 0);
  CHECK(run_one(r, "sum/test-unwritten", 33, RF_DIST_ONES, &res) == RF_V_UNWRITTEN);
  CHECK(run_one(r, "sum/test-oob", 33, RF_DIST_ONES, &res) == RF_V_OOB);
  CHECK(strstr(res.detail, "after the buffer") != NULL);
  /* With ones the bound is exactly 0: one ulp off is wrong. */
  CHECK(run_one(r, "sum/test-off-by-ulp", 33, RF_DIST_ONES, &res) == RF_V_WRONG);
  CHECK(res.bound == 0 && res.err > 0);
  CHECK(run_one(r, "sum/test-bad-launch", 33, RF_DIST_ONES, &res) == RF_V_LAUNCH_ERROR);
  /* alternating with even n sums to exactly 0: +0 then -0 is caught only by the bit check. */
  CHECK(run_one(r, "sum/test-flip-zero", 32, RF_DIST_ALTERNATING, &res) == RF_V_NONDETERMINISTIC);
  CHECK(run_one(r, "sum/test-huge-scratch", 33, RF_DIST_ONES, &res) == RF_V_UNSUPPORTED);
  CHECK_MSG(strstr(res.detail, "more than the runner provides") != NULL, "%s", res.detail);
  CHECK(run_one(r, "sum/test-scratch-oob", 33, RF_DIST_ONES, &res) == RF_V_OOB);
  CHECK_MSG(strstr(res.detail, "scratch") != NULL, "%s", res.detail);

  /* All plants in one batch (one synchronisation, one read-back): each verdict still lands
   * on its own variant. alternating with n = 32 sums to exactly 0 (bound 0). */
  {
    rf_case c;
    rf_case_default(&c);
    c.n = 32;
    c.dist = RF_DIST_ALTERNATING;
    rf_result all[16];
    rf_runner_set_filter(r, only_plants, NULL);
    int k = rf_runner_run(r, &c, all, 16, err, sizeof err);
    rf_runner_set_filter(r, NULL, NULL);
    CHECK_MSG(k == 8, "%d results: %s", k, err);
    static const struct { const char *name; rf_verdict v; } want[] = {
        {"sum/test-correct", RF_V_PASS},          {"sum/test-unwritten", RF_V_UNWRITTEN},
        {"sum/test-oob", RF_V_OOB},               {"sum/test-off-by-ulp", RF_V_WRONG},
        {"sum/test-bad-launch", RF_V_LAUNCH_ERROR}, {"sum/test-flip-zero", RF_V_NONDETERMINISTIC},
        {"sum/test-scratch-oob", RF_V_OOB},       {"sum/test-huge-scratch", RF_V_UNSUPPORTED}};
    for (size_t w = 0; w < sizeof want / sizeof *want; w++)
      for (int i = 0; i < k; i++)
        if (strcmp(all[i].variant->name, want[w].name) == 0)
          CHECK_MSG(all[i].verdict == want[w].v, "batch: %s gave %s, expected %s", want[w].name,
                    rf_verdict_name(all[i].verdict), rf_verdict_name(want[w].v));
  }
#if defined(RF_SIM)
  /* The repeat adds no kernel coverage: run 0 counts, run 1 is quiet, and the runner ends the
   * quiet stretch with it; on the simulator a variant declared nondeterministic is repeated
   * too (state across launches, scratch: run/launch_checks.h), quiet the same way. (These
   * plants take no grid but 1, so no launch of another shape comes before the repeat.) */
  CHECK(rf_variant_register(&v_quiet_probe) == 0 && rf_variant_register(&v_quiet_probe_nd) == 0);
  rf_sim::coverage_quiet = record_quiet;
  CHECK(run_one(r, "sum/test-quiet-probe", 33, RF_DIST_ONES, &res) == RF_V_PASS);
  CHECK_MSG(quiet_launches == 2 && !quiet_seen[0] && quiet_seen[1] && !quiet_now,
            "launches %d, quiet at each: %d %d, after: %d", quiet_launches, quiet_seen[0],
            quiet_seen[1], quiet_now);
  quiet_launches = 0;
  CHECK(run_one(r, "sum/test-quiet-probe-nd", 33, RF_DIST_ONES, &res) == RF_V_PASS);
  CHECK_MSG(quiet_launches == 2 && !quiet_seen[0] && quiet_seen[1] && !quiet_now,
            "nondeterministic: launches %d, quiet at each: %d %d, after: %d", quiet_launches,
            quiet_seen[0], quiet_seen[1], quiet_now);
  rf_sim::coverage_quiet = nullptr;
#endif
  /* n = 0: the correct plant writes 0 and passes. */
  CHECK(run_one(r, "sum/test-correct", 0, RF_DIST_ONES, &res) == RF_V_PASS);
  /* A launch far beyond what the simulator can run is refused, not left to time out. */
  rf_case big;
  rf_case_default(&big);
  big.n = 42;
  big.grid = 16711680;
  snprintf(big.variant, sizeof big.variant, "sum/two-pass");
  CHECK(rf_runner_run(r, &big, &res, 1, err, sizeof err) == 1);
  CHECK_MSG(res.verdict == RF_V_UNSUPPORTED && strstr(res.detail, "simulator"), "%s", res.detail);
  rf_runner_destroy(r);
  return rf_test_done();
}

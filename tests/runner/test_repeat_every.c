/* rf_runner_set_repeat (run/runner.h): each variant's repeat runs on 1 case in N, chosen from
 * the case alone. Checked on the simulator's built-in variants: the share of cases repeated is
 * about 1/N, the same case decides the same way in a fresh runner, 1 repeats every case and 0
 * none; and the repeat is what catches a variant that keeps state across launches
 * (sum/mut-stale-ticket: `nonfinite` with its repeat, `pass` without), so a case the sampling
 * skips really runs less. */
#include <stdio.h>
#include <string.h>
#include "rf_test.h"
#include "run/runner.h"
#include "redfuzz/variant.h"

static const char *only_name;
static int keep_one(const rf_variant *v, void *ctx) {
  (void)ctx;
  return strcmp(v->name, only_name) == 0;
}

/* Runs `count` cases of sum/lds (n = 33, seeds 1..count) with the repeat on 1 case in
 * `every`; the kernel runs beyond one a case are the repeats. Which seeds repeated: marks. */
static unsigned long long repeats_of(uint64_t every, unsigned count, unsigned char *marks) {
  char err[256];
  rf_runner *r = rf_runner_create(NULL, err, sizeof err);
  CHECK_MSG(r != NULL, "runner: %s", err);
  if (!r) return 0;
  only_name = "sum/lds";
  rf_runner_set_filter(r, keep_one, NULL);
  rf_runner_set_repeat(r, every);
  static rf_result res[512];
  unsigned long long before = 0;
  for (unsigned s = 1; s <= count; s++) {
    rf_case c;
    rf_case_default(&c);
    c.op = RF_OP_SUM;
    c.n = 33;
    c.seed = s;
    c.dist = RF_DIST_UNIFORM;
    const int k = rf_runner_run(r, &c, res, sizeof res / sizeof res[0], err, sizeof err);
    CHECK_MSG(k == 1, "seed %u: %d results (%s)", s, k, k < 0 ? err : "");
    if (k == 1) CHECK_MSG(res[0].verdict == RF_V_PASS, "seed %u: sum/lds %s", s, rf_verdict_name(res[0].verdict));
    const unsigned long long now = rf_runner_get_stats(r).kernel_runs;
    if (marks) marks[s] = (unsigned char)(now - before - 1);
    before = now;
  }
  const unsigned long long repeats = rf_runner_get_stats(r).kernel_runs - count;
  rf_runner_destroy(r);
  return repeats;
}

static rf_verdict stale_ticket(uint64_t every) {
  char err[256];
  rf_runner *r = rf_runner_create(NULL, err, sizeof err);
  CHECK_MSG(r != NULL, "runner: %s", err);
  if (!r) return RF_V_PASS;
  only_name = "sum/mut-stale-ticket";
  rf_runner_set_filter(r, keep_one, NULL);
  rf_runner_set_repeat(r, every);
  rf_case c;
  rf_case_default(&c);
  c.op = RF_OP_SUM;
  c.n = 1027;
  c.dist = RF_DIST_ONES;
  snprintf(c.variant, sizeof c.variant, "sum/mut-stale-ticket");
  static rf_result res[8];
  const int k = rf_runner_run(r, &c, res, 8, err, sizeof err);
  CHECK_MSG(k == 1, "stale ticket: %d results (%s)", k, k < 0 ? err : "");
  const rf_verdict v = k == 1 ? res[0].verdict : RF_V_PASS;
  rf_runner_destroy(r);
  return v;
}

int main(void) {
  enum { N = 400 };
  static unsigned char a[N + 1], b[N + 1];
  CHECK(repeats_of(1, 40, NULL) == 40);
  CHECK(repeats_of(0, 40, NULL) == 0);
  const unsigned long long quarter = repeats_of(4, N, a);
  /* Binomial(400, 1/4): mean 100, sd 8.7; 60..140 is more than 4.5 sd either side. */
  CHECK_MSG(quarter >= 60 && quarter <= 140, "1 in 4: %llu of %d cases repeated", quarter, N);
  CHECK(repeats_of(4, N, b) == quarter);
  CHECK_MSG(memcmp(a, b, sizeof a) == 0, "the same cases repeat in a fresh runner");
  printf("1 in 4: %llu of %d cases repeated\n", quarter, N);
  if (rf_variant_find("sum/mut-stale-ticket")) {
    /* Without first: the mutant's stale state is the process's, so a launch made with the
     * repeat would leave the next case's first run failing too. */
    const rf_verdict without = stale_ticket(0);
    const rf_verdict with = stale_ticket(1);
    CHECK_MSG(rf_verdict_is_failure(with), "with its repeat: %s", rf_verdict_name(with));
    CHECK_MSG(without == RF_V_PASS, "without its repeat: %s", rf_verdict_name(without));
  }
  return rf_test_done();
}

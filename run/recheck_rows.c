/* The host re-check of a row-op batch (softmax, logsumexp, log-softmax) judged from device
 * records (dev_verdicts.c, REDFUZZ_VERDICT_RECHECK) on the background thread
 * (recheck_queue.h), in sweeps and fuzzing. The log ops' re-check ran in the batch at first:
 * with default caps on the H200 that was ~80 us of every fuzz execution (docs/RESULTS.md,
 * fifth GPU session), a host input, oracle and judge of a whole case 1 batch in 64.
 *
 * On the caller's thread, at the batch: the outputs are read back, and each variant given from
 * its record gets the host's cheap checks now (launch status, guard zones, poison, the
 * deterministic repeat, rf_runner_collect_run), so a record that hid one of those is a
 * disagreement of this very batch; the outputs are copied into the job. On the thread: the
 * case's input made again, the host oracle (double, MPFR where needed) and the host judge of
 * every copied output (run/judge.c, judge_log.c) with an oracle context of its own (nothing of
 * the caller's stages is touched there); any verdict other than the record's pass is a harness
 * failure, with the message of the synchronous re-check and the case named, taken as
 * recheck_queue.h says. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "recheck_rows.h"
#include "verdict_from.h"
#include "output_checks.h"
#include "model/gen.h"
#include "model/dtype.h"

/* Bigger jobs are re-checked in the batch (the queue's RF_RECHECK_BYTES bounds what all of
 * them hold together). 256 MiB a job holds a fuzz case's biggest softmax (2^22 elements, every
 * correct variant: ~200 MB); at 128 MiB those went back into the batch and the fuzz loop
 * waited for them. */
#define RF_RECHECK_ROWS_MAX_BYTES ((size_t)256 << 20)


typedef struct {
  const rf_variant *v;
  rf_plan plan;
} sm_item;   /* the output's type is v->out_dtype; outs holds it as floats (exact) */

typedef struct {
  unsigned long long *rechecks;   /* the verdict stage's counter, at release (its thread) */
  rf_case c;
  uint64_t elems;
  uint64_t out_n;      /* outputs a variant writes: a value per row for logsumexp */
  size_t k;            /* variants re-checked */
  sm_item *item;
  float *outs;         /* k * out_n */
  int agreed;          /* set by run, read at release */
} sm_job;

static void sm_release(void *ctx) {
  sm_job *j = ctx;
  if (j->agreed) *j->rechecks += j->k;   /* results also judged on the host */
  free(j->item);
  free(j->outs);
  free(j);
}

/* On the thread: the host path's answer and verdicts, with an oracle context of its own. */
static void sm_run(void *ctx, char *why, size_t len) {
  sm_job *j = ctx;
  rf_oracle_ctx oc;   /* double, MPFR where the double cannot; its counters not reported */
  memset(&oc, 0, sizeof oc);
  judge_ctx jc = {.oc = &oc, .may_upgrade = 1};
  float *x = malloc((size_t)(j->elems + 1) * sizeof(float));
  why[0] = '\0';
  if (!x) {
    snprintf(why, len, "out of host memory for the re-check of a device verdict");
    return;
  }
  rf_generate(&j->c, x);
  oracle_answer o;
  memset(&o, 0, sizeof o);
  rf_compute_oracle(&oc, &j->c, x, j->elems, &o);
  batch_case bc = {.c = &j->c, .x = x, .elems = j->elems, .o = &o, .in_slot = -1, .dev_slot = -1};
  for (size_t i = 0; i < j->k && !why[0]; i++) {
    rf_result res;
    memset(&res, 0, sizeof res);
    res.variant = j->item[i].v;
    const float *got = j->outs + i * j->out_n;
    if (j->c.op == RF_OP_SOFTMAX)
      rf_judge_softmax_typed(&jc, &bc, &j->item[i].plan, j->item[i].v->out_dtype, got, &res);
    else
      rf_judge_lse(&jc, &bc, &j->item[i].plan, j->item[i].v->out_dtype, got, &res);
    if (res.verdict == RF_V_PASS) continue;
    snprintf(why, len,
             "harness failure: the device verdict record differs from the host judge (host: %s, "
             "got %.9g, error %.3g; from the record: pass) for %s on op=%s rows=%u cols=%u "
             "dist=%s seed=%llu", rf_verdict_name(res.verdict), (double)res.got, res.err,
             j->item[i].v->name, rf_op_name(j->c.op), j->c.rows, j->c.cols,
             rf_dist_name(j->c.dist), (unsigned long long)j->c.seed);
  }
  j->agreed = !why[0];
  free(x);
  rf_oracle_ctx_free(&oc);
  rf_judge_ctx_free(&jc);
}

/* The host's cheap checks of p's runs (as judge_variant makes them); NULL when clean, else
 * the failure in *res. */
static int cheap_checks_fail(const rf_arena *a, const pending *p, rf_result *res) {
  if (rf_runner_collect_run(a, p, 0, res)) return 1;
  if (p->runs < 2) return 0;
  if (rf_runner_collect_run(a, p, 1, res)) return 1;
  if (memcmp(rf_arena_host(a, p->out_slot[1]), rf_arena_host(a, p->out_slot[0]),
             p->ob) == 0)
    return 0;
  res->verdict = RF_V_NONDETERMINISTIC;
  return 1;
}

int rf_recheck_rows_queue(rf_arena *a, rf_recheck_bg *bg, unsigned long long *rechecks,
                          const pending *ps, size_t n, unsigned char *how, rf_result *dev) {
  const rf_case *c = ps[0].bc->c;
  const uint64_t elems = ps[0].bc->elems;
  const uint64_t out_n = rf_runner_output_elems(c);
  size_t k = 0;
  for (size_t i = 0; i < n; i++) k += how[i] == RF_FROM_RECORD;
  if (!k) return 0;
  if (k * out_n * sizeof(float) > RF_RECHECK_ROWS_MAX_BYTES || rf_arena_fetch(a))
    return -1;
  sm_job *j = calloc(1, sizeof *j);
  if (j) {
    j->item = malloc(k * sizeof *j->item);
    j->outs = malloc(k * out_n * sizeof(float) + 1);
  }
  if (!j || !j->item || !j->outs) {
    if (j) { free(j->item); free(j->outs); free(j); }
    return -1;
  }
  *j = (sm_job){.rechecks = rechecks, .c = *c, .elems = elems, .out_n = out_n, .item = j->item,
                .outs = j->outs};
  for (size_t i = 0; i < n; i++) {
    if (how[i] != RF_FROM_RECORD) continue;
    rf_result host;
    memset(&host, 0, sizeof host);
    if (cheap_checks_fail(a, &ps[i], &host)) {
      how[i] = RF_FROM_DISAGREE;
      snprintf(dev[i].detail, sizeof dev[i].detail,
               "harness failure: the device verdict record differs from the host judge (host: "
               "%s; from the record: pass)", rf_verdict_name(host.verdict));
      dev[i].verdict = RF_V_LAUNCH_ERROR;
      continue;
    }
    j->item[j->k] = (sm_item){ps[i].v, ps[i].plan};
    /* A 16-bit output converted exactly, as judge_variant's got_as_floats does (runner.c). */
    const void *got = rf_arena_host(a, ps[i].out_slot[0]);
    float *o = j->outs + j->k * out_n;
    if (ps[i].v->out_dtype == RF_DTYPE_F32) memcpy(o, got, out_n * sizeof(float));
    else for (uint64_t e = 0; e < out_n; e++) o[e] = rf_dtype_load(ps[i].v->out_dtype, got, e);
    j->k++;
  }
  const char *why = rf_recheck_queue_push_fn(&bg->q, sm_run, sm_release, j,
                                             j->k * out_n * sizeof(float),
                                             rf_recheck_due(bg->batch, elems));
  /* An older job taken to make room: the next batch's harness failure (rf_recheck_bg_take). */
  rf_recheck_bg_carry(bg, why);
  return 0;
}

/* The runner's device fast path, part 1: exact answers of sum, max and argmax made on the
 * device (kernels/oracle_device.h) from the input already uploaded for the variants, read
 * back with the variants' outputs in the batch's one download. The host oracle stays the
 * reference: every REDFUZZ_ORACLE_RECHECK-th case (default 64) is also solved on the host and
 * any difference fails the whole batch as a harness failure, loudly (stderr and every
 * result of the batch).
 *
 * On by default on GPUs; REDFUZZ_DEVICE_ORACLE=0 turns it off, =1 turns it on on the
 * simulator too (where CI compares both paths' verdicts on the boundary sweep).
 * REDFUZZ_ORACLE_RECHECK=N: one case in N re-checked on the host (0: none, 1: every one). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "runner_internal.h"
#include "gen.h"

void rf_runner_device_init(rf_runner *r) {
  const char *d = getenv("REDFUZZ_DEVICE_ORACLE");
  const int gpu = strcmp(r->dev.backend, "sim") != 0;
  r->device_oracle = d && *d ? strcmp(d, "0") != 0 : gpu;
  const char *k = getenv("REDFUZZ_ORACLE_RECHECK");
  r->oracle_recheck = k && *k ? strtoul(k, NULL, 10) : 64;
  /* Test hook: shows that the re-check catches a device answer off by one unit in its last
   * place (2^-149), a difference no verdict would show. */
  const char *p = getenv("REDFUZZ_DEVICE_ORACLE_PLANT");
  r->oracle_plant = p && strcmp(p, "1") == 0;
}

int rf_runner_device_oracle_for(const rf_runner *r, const rf_case *c) {
  return r->device_oracle && (c->op == RF_OP_SUM || c->op == RF_OP_MAX || c->op == RF_OP_ARGMAX);
}

/* One record slot per pending case (read back with the outputs: call it between the output
 * slots and the others) and one scratch slot (the oracles run one after another on the
 * default stream, so they share it). Returns 0, or -1 when out of host memory. */
int rf_runner_device_slots(rf_runner *r, batch_case *bcs, size_t nc) {
  int any = 0, oom = 0;
  for (size_t i = 0; i < nc; i++) {
    bcs[i].dev_slot = -1;
    if (!bcs[i].o->on_device) continue;
    bcs[i].dev_slot = rf_arena_add(&r->arena, sizeof(rf_oracle_dev_out), 1);
    oom |= bcs[i].dev_slot < 0;
    any = 1;
  }
  r->oracle_scratch_slot = any ? rf_arena_add(&r->arena, rf_oracle_dev_scratch_bytes(), 0) : -1;
  return oom || (any && r->oracle_scratch_slot < 0) ? -1 : 0;
}

/* After the commit: enqueues each pending case's oracle on the default stream (ordered
 * after the upload; the variants' streams may overlap it: it only reads the input). The
 * input pointer is the one the variants get (runner.c, launch_desc). NULL or what failed. */
const char *rf_runner_device_launch(rf_runner *r, batch_case *bcs, size_t nc,
                                    const rf_arena *inputs) {
  char msg[256];
  for (size_t i = 0; i < nc; i++) {
    if (bcs[i].dev_slot < 0) continue;
    const float *x = (const float *)((const char *)rf_arena_dev(inputs, bcs[i].in_slot) +
                                     rf_input_misalign(bcs[i].c) * sizeof(float));
    rf_dev_last_error();
    rf_dev_sim_take_status(msg, sizeof msg);
    int e = rf_oracle_dev_launch(x, bcs[i].elems, rf_arena_dev(&r->arena, r->oracle_scratch_slot),
                                 rf_arena_dev(&r->arena, bcs[i].dev_slot), NULL);
    if (!e) e = rf_dev_last_error();
    if (e || rf_dev_sim_take_status(msg, sizeof msg))
      return "harness failure: the device oracle's launch failed";
    r->stats.oracle_device_cases++;
  }
  return NULL;
}

static void answer_from(const rf_oracle_dev_out *d, oracle_answer *o) {
  rf_xsum_from_digits(&o->xs, d->sum_w, d->n_pinf, d->n_ninf, d->n_nan);
  o->facts.abs_sum_up = d->abs_sum_up;
  o->facts.all_finite = d->all_finite;
  o->facts.any_nonzero = d->any_nonzero;
  o->facts.min_exp = d->min_exp;
  o->max_value = d->max_value;
  o->argmax_index = d->argmax_index;
}

/* After the fetch: the records into the answers, the sampled ones checked against the host
 * oracle. NULL, or the harness failure (also printed to stderr) for the whole batch. */
const char *rf_runner_device_collect(rf_runner *r, batch_case *bcs, size_t nc) {
  static char why[512];
  for (size_t i = 0; i < nc; i++) {
    if (bcs[i].dev_slot < 0) continue;
    const rf_oracle_dev_out *d = rf_arena_host(&r->arena, bcs[i].dev_slot);
    rf_oracle_dev_out planted;
    if (r->oracle_plant) {
      planted = *d;
      planted.sum_w[0] ^= 1;
      d = &planted;
    }
    if (rf_arena_check(&r->arena, bcs[i].dev_slot))
      return "harness failure: the device oracle wrote outside its record";
    if (r->oracle_recheck && r->stats.oracle_device_cases % r->oracle_recheck == i % r->oracle_recheck) {
      rf_oracle_dev_out want;
      char msg[256];
      rf_oracle_dev_host(bcs[i].x, bcs[i].elems, &want);
      if (rf_oracle_dev_compare(&want, d, msg, sizeof msg)) {
        const rf_case *c = bcs[i].c;
        snprintf(why, sizeof why,
                 "harness failure: the device oracle disagrees with the host oracle (%s) on "
                 "op=%s n=%llu dist=%s seed=%llu", msg, rf_op_name(c->op),
                 (unsigned long long)c->n, rf_dist_name(c->dist), (unsigned long long)c->seed);
        fprintf(stderr, "redfuzz: %s\n", why);
        return why;
      }
      r->stats.oracle_rechecks++;   /* agreed */
    }
    answer_from(d, bcs[i].o);
    bcs[i].o->on_device = 0;
  }
  return NULL;
}

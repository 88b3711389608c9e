/* The device answers stage (dev_answers.h) of 1-D cases (sum, max, argmax; f32, f16 and bf16
 * inputs): exact answers made on the device (kernels/harness/oracle_device.h) from the input
 * the variants read (dev_inputs.c places it), read back with the variants' outputs in the
 * batch's one download.
 * The host oracle stays the reference: every REDFUZZ_ORACLE_RECHECK-th answer (default 64),
 * and the answer of every case where some variant failed (before anything is reported), is
 * made again on the host; any difference is a harness failure, loudly (stderr and every
 * result concerned).
 *
 * REDFUZZ_DEVICE_ORACLE / REDFUZZ_DEVICE_GEN: 0 off, 1 on for every 1-D case (also on the
 * simulator, where CI compares both paths' verdicts on the boundary sweep); unset: on GPUs,
 * for cases of at least REDFUZZ_DEVICE_MIN_ELEMS (16384) elements.
 * REDFUZZ_ORACLE_RECHECK=N: one answer in N re-checked on the host (0: none, 1: every one). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "dev_answers.h"
#include "harness_check.h"
#include "op_table.h"
#include "model/dtype.h"
#include "model/gen.h"

/* Which cases take this path (the device oracle's and the generator's modes, the threshold)
 * is their route's (route.c). */
void rf_dev_answers_init(rf_dev_answers *da, rf_arena *arena, rf_recheck_bg *bg,
                         const rf_settings *set) {
  da->arena = arena;
  da->bg = bg;
  da->every = (unsigned long)set->oracle_recheck;
  /* Test hook: shows that the re-check catches a device answer off by one unit in its last
   * place (2^-149), a difference no verdict would show. */
  da->plant = set->oracle_plant != 0;
  da->scratch_slot = -1;
}

void rf_dev_answers_free(rf_dev_answers *da) { rf_host_buf_free(&da->x); }

/* One record slot per pending case (read back with the outputs: call it between the output
 * slots and the others) and one scratch slot (the oracles run one after another on the
 * default stream, so they share it). Returns 0, or -1 when out of host memory. */
int rf_dev_answers_slots(rf_dev_answers *da, batch_case *bcs, size_t nc) {
  int any = 0, oom = 0;
  for (size_t i = 0; i < nc; i++) {
    bcs[i].dev_slot = -1;
    if (!bcs[i].o->on_device) continue;
    bcs[i].dev_slot = rf_arena_add(da->arena, sizeof(rf_oracle_dev_out), 1);
    oom |= bcs[i].dev_slot < 0;
    any = 1;
  }
  da->scratch_slot = any ? rf_arena_add(da->arena, rf_oracle_dev_scratch_bytes(), 0) : -1;
  return oom || (any && da->scratch_slot < 0) ? -1 : 0;
}

/* After the inputs: enqueues each pending case's oracle on the default stream (ordered
 * after the upload and the input's generation; the variants' streams may overlap it: it
 * only reads the input, the one the variants get). NULL or what failed. */
const char *rf_dev_answers_launch(rf_dev_answers *da, batch_case *bcs, size_t nc) {
  for (size_t i = 0; i < nc; i++) {
    if (bcs[i].dev_slot < 0) continue;
    rf_harness_check_begin();
    int e = rf_oracle_dev_launch_typed(bcs[i].dev_x, (uint32_t)bcs[i].c->dtype, bcs[i].elems,
                                       rf_arena_dev(da->arena, da->scratch_slot),
                                       rf_arena_dev(da->arena, bcs[i].dev_slot), NULL);
    const char *fail = rf_harness_check_end(e, "harness failure: the device oracle's launch failed",
                                            da->why, sizeof da->why);
    if (fail) return fail;
    da->cases++;
  }
  return NULL;
}

/* The record into the case's answer; the extremum is the op's (op table: dev_minimum). */
static void answer_from(const rf_case *c, const rf_oracle_dev_out *d, oracle_answer *o) {
  rf_xsum_from_digits(&o->xs, d->sum_w, d->n_pinf, d->n_ninf, d->n_nan);
  o->facts.abs_sum_up = d->abs_sum_up;
  o->facts.all_finite = d->all_finite;
  o->facts.any_nonzero = d->any_nonzero;
  o->facts.min_exp = d->min_exp;
  o->facts.all_neg_zero = d->all_neg_zero;
  const int minimum = rf_op_row_of(c->op)->dev_minimum;
  o->max_value = minimum ? d->min_value : d->max_value;
  o->argmax_index = minimum ? d->argmin_index : d->argmax_index;
  o->first_nan = d->first_nan;
}

/* The host oracle's answer for bc, compared with the device's d, now. NULL when equal, else
 * the harness failure (also printed to stderr). */
static const char *recheck(rf_dev_answers *da, batch_case *bc, const rf_oracle_dev_out *d) {
  static char why[512];
  const double t0 = rf_now_ms();
  const float *x = bc->x;
  /* made on the device: made again here, by the host's generator (for a 16-bit case, the
   * floats it makes are the 16-bit values exactly: what the device oracle read, converted) */
  if (bc->dev_gen) {
    float *hx = rf_host_buf_get(&da->x, (bc->elems + 1) * sizeof(float));
    if (!hx) return "out of host memory for the re-check of a device answer";
    rf_generate(bc->c, hx);
    x = hx;
  }
  const int differ = rf_recheck_compare(bc->c, x, bc->elems, d, why, sizeof why);
  bc->o->rechecked = 1;
  da->ms_recheck += rf_now_ms() - t0;
  if (differ) {
    fprintf(stderr, "redfuzz: %s\n", why);
    return why;
  }
  /* agreed; a case the background thread also re-checks is counted once, by it */
  if (!bc->o->queued) da->rechecks++;
  return NULL;
}

/* The sampled case bc: on the background session (its harness failure, if any, comes from an
 * older job taken to make room), or now when there is none. */
static const char *recheck_sampled(rf_dev_answers *da, batch_case *bc,
                                   const rf_oracle_dev_out *d) {
  rf_recheck_bg *bg = da->bg;
  if (!bg->on) {
    rf_runner_host_note(bc, RF_HOST_ORACLE_RECHECK);
    return recheck(da, bc, d);
  }
  int oom = 0;
  const double t0 = rf_now_ms();
  const char *why = rf_recheck_queue_push(&bg->q, bc->c, bc->dev_gen ? NULL : bc->x, bc->elems,
                                         d, rf_recheck_due(bg->batch, bc->elems), &oom);
  bg->ms += rf_now_ms() - t0;
  if (oom) {
    rf_runner_host_note(bc, RF_HOST_ORACLE_RECHECK);
    return recheck(da, bc, d);
  }
  bc->o->queued = 1;
  return why;
}

/* After the fetch: the records into the answers, the sampled ones checked against the host
 * oracle. NULL, or the harness failure (also printed to stderr) for the whole batch. */
const char *rf_dev_answers_collect(rf_dev_answers *da, batch_case *bcs, size_t nc) {
  /* Background re-checks due now: a disagreement is this batch's harness failure (after its
   * own answers are taken, so nothing of it is left half done). */
  const char *late_why = rf_recheck_bg_take(da->bg, 0);
  for (size_t i = 0; i < nc; i++) {
    if (bcs[i].dev_slot < 0) continue;
    const rf_oracle_dev_out *d = rf_arena_host(da->arena, bcs[i].dev_slot);
    bcs[i].o->queued = 0;
    rf_oracle_dev_out planted;
    if (da->plant) {
      planted = *d;
      planted.sum_w[0] ^= 1;
      d = &planted;
    }
    if (rf_arena_check(da->arena, bcs[i].dev_slot))
      return "harness failure: the device oracle wrote outside its record";
    if (da->every && da->cases % da->every == i % da->every) {
      const char *why = recheck_sampled(da, &bcs[i], d);
      if (why && !da->bg->on) return why;
      if (why && !late_why) late_why = why;
    }
    answer_from(bcs[i].c, d, bcs[i].o);
    bcs[i].o->on_device = 0;
    bcs[i].o->dev_answer = *d;
    bcs[i].o->dev_answered = 1;
  }
  return late_why;
}

void rf_dev_answers_confirm(rf_dev_answers *da, batch_case *bc, const rf_result *res) {
  if (!bc->o->dev_answered || bc->o->rechecked || !rf_verdict_is_failure(res->verdict)) return;
  rf_runner_host_note(bc, RF_HOST_CONFIRM);
  bc->harness = recheck(da, bc, &bc->o->dev_answer);
}

void rf_dev_answers_harness(const batch_case *bc, rf_result *res) {
  if (!bc->harness) return;
  res->verdict = RF_V_LAUNCH_ERROR;
  snprintf(res->detail, sizeof res->detail, "%s", bc->harness);
}

/* The runner's device fast path for 1-D cases (sum, max, argmax), f32, f16 and bf16 inputs:
 * - inputs made on the device (rf_gen_launch, kernels/harness/gen_device.h) into a persistent
 *   buffer laid out like an arena input, its guard zones written by a device kernel: nothing
 *   but the case crosses the bus;
 * - exact answers made on the device (kernels/harness/oracle_device.h) from the input the variants
 *   read, read back with the variants' outputs in the batch's one download.
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
#include "runner_internal.h"
#include "model/dtype.h"
#include "model/gen.h"
#include "kernels/harness/gen_device.h"
#include "kernels/harness/verdict_device.h"

/* Which cases take this path (the device oracle's and the generator's modes, the threshold)
 * is their route's (route.c). */
void rf_runner_device_init(rf_runner *r, const rf_settings *set) {
  r->oracle_recheck = (unsigned long)set->oracle_recheck;
  r->recheck_background = set->recheck_background != 0;   /* rf_runner_device_background */
  /* Test hook: shows that the re-check catches a device answer off by one unit in its last
   * place (2^-149), a difference no verdict would show. */
  r->oracle_plant = set->oracle_plant != 0;
}

static void recheck_stop(rf_runner *r);

static size_t round256(size_t v) { return (v + RF_GUARD_BYTES - 1) / RF_GUARD_BYTES * RF_GUARD_BYTES; }

/* After the commit: where each case's input lives on the device (bc->dev_x, what the
 * variants and the oracle read), and for inputs made on the device, their buffer laid out
 * as the arena lays out an input (guard | misalignment gap | payload | guard, guards of
 * FLT_MAX, buffers.h) with the guards and the payload written on the device. A 16-bit
 * payload (2 bytes an element, misaligned by whole elements) may start or end inside a
 * 32-bit word: the guard words then cover that word, and the generator, ordered after them
 * on the default stream, writes the payload's half of it. */
const char *rf_runner_device_inputs(rf_runner *r, batch_case *bcs, size_t nc,
                                    const rf_arena *inputs) {
  size_t total = 0;
  for (size_t i = 0; i < nc; i++) {
    const size_t esz = rf_dtype_bytes(bcs[i].c->dtype), pad = rf_input_misalign(bcs[i].c) * esz;
    if (!bcs[i].dev_gen) {
      bcs[i].dev_x = (const float *)((const char *)rf_arena_dev(inputs, bcs[i].in_slot) + pad);
      continue;
    }
    if (bcs[i].sparse) {   /* run alone (route.c): its own buffer */
      const char *why = rf_sparse_input_make(r, &bcs[i]);
      if (why) return why;
      continue;
    }
    total = round256(total + RF_GUARD_BYTES + pad + bcs[i].elems * esz) + RF_GUARD_BYTES;
  }
  if (!total) return NULL;
  /* The simulator allocates exactly (AddressSanitizer then bounds the last guard). */
  if (total > r->gen_cap || (r->in_arena.exact && total != r->gen_cap)) {
    void *p = NULL;
    if (rf_dev_alloc(&p, total)) return "cannot allocate the device buffer for inputs";
    rf_dev_free(r->gen_dev);
    r->gen_dev = p;
    r->gen_cap = total;
  }
  size_t off = 0;
  for (size_t i = 0; i < nc; i++) {
    if (!bcs[i].dev_gen || bcs[i].sparse) continue;
    const size_t esz = rf_dtype_bytes(bcs[i].c->dtype), pad = rf_input_misalign(bcs[i].c) * esz;
    const size_t bytes = bcs[i].elems * esz;
    const size_t end = round256(off + RF_GUARD_BYTES + pad + bytes) + RF_GUARD_BYTES;
    unsigned char *base = (unsigned char *)r->gen_dev + off;
    void *x = base + RF_GUARD_BYTES + pad;
    /* guard words: up to the word holding the payload's first byte (included when the payload
     * starts inside it), and from the word holding its last byte (the same) */
    const size_t lead = (RF_GUARD_BYTES + pad + 3) / 4, words = (end - off) / 4;
    size_t tail_from = (RF_GUARD_BYTES + pad + bytes) / 4;
    if (tail_from < lead) tail_from = lead;   /* an empty payload */
    rf_dev_last_error();
    int e = rf_vd_guards_launch((uint32_t *)base, lead, tail_from - lead, words - tail_from,
                                RF_INPUT_GUARD_BITS, NULL);
    if (!e) e = rf_gen_launch(bcs[i].c, x, NULL);
    if (!e) e = rf_dev_last_error();
    if (e) return "harness failure: the device input generator's launch failed";
    bcs[i].dev_x = x;
    r->stats.inputs_device++;
    off = end;
  }
  return NULL;
}

void rf_runner_device_free(rf_runner *r) {
  recheck_stop(r);
  rf_dev_free(r->gen_dev);
  r->gen_dev = NULL;
  r->gen_cap = 0;
  rf_sparse_input_free(r);
  rf_host_buf_free(&r->recheck_x);
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

/* After the inputs: enqueues each pending case's oracle on the default stream (ordered
 * after the upload and the input's generation; the variants' streams may overlap it: it
 * only reads the input, the one the variants get). NULL or what failed. */
const char *rf_runner_device_launch(rf_runner *r, batch_case *bcs, size_t nc) {
  char msg[256];
  for (size_t i = 0; i < nc; i++) {
    if (bcs[i].dev_slot < 0) continue;
    rf_dev_last_error();
    rf_dev_sim_take_status(msg, sizeof msg);
    int e = rf_oracle_dev_launch_typed(bcs[i].dev_x, (uint32_t)bcs[i].c->dtype, bcs[i].elems,
                                       rf_arena_dev(&r->arena, r->oracle_scratch_slot),
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
  o->facts.all_neg_zero = d->all_neg_zero;
  o->max_value = d->max_value;
  o->argmax_index = d->argmax_index;
  o->first_nan = d->first_nan;
}

/* The host oracle's answer for bc, compared with the device's d, now. NULL when equal, else
 * the harness failure (also printed to stderr). */
static const char *recheck(rf_runner *r, batch_case *bc, const rf_oracle_dev_out *d) {
  static char why[512];
  const double t0 = rf_now_ms();
  const float *x = bc->x;
  /* made on the device: made again here, by the host's generator (for a 16-bit case, the
   * floats it makes are the 16-bit values exactly: what the device oracle read, converted) */
  if (bc->dev_gen) {
    float *hx = rf_host_buf_get(&r->recheck_x, (bc->elems + 1) * sizeof(float));
    if (!hx) return "out of host memory for the re-check of a device answer";
    rf_generate(bc->c, hx);
    x = hx;
  }
  const int differ = rf_recheck_compare(bc->c, x, bc->elems, d, why, sizeof why);
  bc->o->rechecked = 1;
  r->stats.ms_recheck += rf_now_ms() - t0;
  if (differ) {
    fprintf(stderr, "redfuzz: %s\n", why);
    return why;
  }
  /* agreed; a case the background thread also re-checks is counted once, by it */
  if (!bc->o->queued) r->stats.oracle_rechecks++;
  return NULL;
}

/* ---- the background re-check (recheck_queue.h) ------------------------------------------ */
int rf_runner_device_background(rf_runner *r) {
  if (r->rq_on || !r->recheck_background || !r->oracle_recheck) return r->rq_on;
  r->rq_on = rf_recheck_queue_start(&r->rq, 0) == 0;
  return r->rq_on;
}

/* Counters and times of the jobs taken so far, into the runner's stats. */
static void recheck_stats(rf_runner *r, double t0) {
  r->stats.oracle_rechecks += r->rq.agreed - r->rq_agreed;
  r->rq_agreed = r->rq.agreed;
  r->stats.ms_recheck_thread = r->rq.ms_thread;
  r->stats.ms_recheck_wait = r->rq.ms_wait;
  r->stats.ms_recheck += rf_now_ms() - t0;   /* the caller's time: waits and input copies */
}

const char *rf_runner_device_drain(rf_runner *r) {
  if (!r->rq_on) return NULL;
  static char carried[sizeof r->rq_carry];
  const char *first = NULL;
  if (r->rq_carry[0]) {   /* taken while the last batch queued a softmax re-check */
    snprintf(carried, sizeof carried, "%s", r->rq_carry);
    r->rq_carry[0] = '\0';
    first = carried;   /* printed when it was taken */
  }
  const double t0 = rf_now_ms();
  const char *why = rf_recheck_queue_take(&r->rq, ~0ULL);
  recheck_stats(r, t0);
  return first ? first : why;
}

static void recheck_stop(rf_runner *r) {
  if (!r->rq_on) return;
  rf_recheck_queue_stop(&r->rq);
  r->rq_on = 0;
}

/* The sampled case bc: on the queue (its harness failure, if any, comes from an older job
 * taken to make room), or now when there is no queue. */
static const char *recheck_sampled(rf_runner *r, batch_case *bc, const rf_oracle_dev_out *d) {
  if (!r->rq_on) {
    rf_runner_host_note(bc, RF_HOST_ORACLE_RECHECK);
    return recheck(r, bc, d);
  }
  int oom = 0;
  const double t0 = rf_now_ms();
  const char *why = rf_recheck_queue_push(&r->rq, bc->c, bc->dev_gen ? NULL : bc->x, bc->elems,
                                         d, rf_recheck_due(r->rq_batch, bc->elems), &oom);
  recheck_stats(r, t0);
  if (oom) {
    rf_runner_host_note(bc, RF_HOST_ORACLE_RECHECK);
    return recheck(r, bc, d);
  }
  bc->o->queued = 1;
  return why;
}

/* After the fetch: the records into the answers, the sampled ones checked against the host
 * oracle. NULL, or the harness failure (also printed to stderr) for the whole batch. */
const char *rf_runner_device_collect(rf_runner *r, batch_case *bcs, size_t nc) {
  /* Background re-checks due now: a disagreement is this batch's harness failure (after its
   * own answers are taken, so nothing of it is left half done). */
  const char *late_why = NULL;
  static char carried[sizeof r->rq_carry];
  if (r->rq_on && r->rq_carry[0]) {   /* taken while the last batch queued a softmax re-check */
    snprintf(carried, sizeof carried, "%s", r->rq_carry);
    r->rq_carry[0] = '\0';
    late_why = carried;   /* printed when it was taken */
  }
  if (r->rq_on) {
    const double t0 = rf_now_ms();
    const char *why = rf_recheck_queue_take(&r->rq, r->rq_batch);
    if (!late_why) late_why = why;
    recheck_stats(r, t0);
    r->rq_batch++;
  }
  for (size_t i = 0; i < nc; i++) {
    if (bcs[i].dev_slot < 0) continue;
    const rf_oracle_dev_out *d = rf_arena_host(&r->arena, bcs[i].dev_slot);
    bcs[i].o->queued = 0;
    rf_oracle_dev_out planted;
    if (r->oracle_plant) {
      planted = *d;
      planted.sum_w[0] ^= 1;
      d = &planted;
    }
    if (rf_arena_check(&r->arena, bcs[i].dev_slot))
      return "harness failure: the device oracle wrote outside its record";
    if (r->oracle_recheck &&
        r->stats.oracle_device_cases % r->oracle_recheck == i % r->oracle_recheck) {
      const char *why = recheck_sampled(r, &bcs[i], d);
      if (why && !r->rq_on) return why;
      if (why && !late_why) late_why = why;
    }
    answer_from(d, bcs[i].o);
    bcs[i].o->on_device = 0;
    bcs[i].o->dev_answer = *d;
    bcs[i].o->dev_answered = 1;
  }
  return late_why;
}

/* After the verdicts: a failure is only reported on an answer the host has confirmed, so a
 * case that failed against a device answer not yet re-checked is re-checked now (once per
 * case); when the host disagrees, bc->harness holds the harness failure, and
 * rf_runner_device_harness turns every result of that case into it. */
void rf_runner_device_confirm(rf_runner *r, batch_case *bc, const rf_result *res) {
  if (!bc->o->dev_answered || bc->o->rechecked || !rf_verdict_is_failure(res->verdict)) return;
  rf_runner_host_note(bc, RF_HOST_CONFIRM);
  bc->harness = recheck(r, bc, &bc->o->dev_answer);
}

void rf_runner_device_harness(const batch_case *bc, rf_result *res) {
  if (!bc->harness) return;
  res->verdict = RF_V_LAUNCH_ERROR;
  snprintf(res->detail, sizeof res->detail, "%s", bc->harness);
}

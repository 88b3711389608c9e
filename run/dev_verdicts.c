/* Verdicts of 1-D batches (sum, max, argmax) made on the device (issue 12): after the batch's
 * launches, one kernel (kernels/harness/verdict_device.h) checks every variant's guard zones
 * (outputs and scratch, both runs), its output for words still holding the poison, the repeat of a
 * deterministic variant bit for bit, and max/argmax against the device oracle's answer; it
 * writes one small record per variant. The host then reads back only the records (and the
 * device oracle's), not the buffers.
 *
 * A variant whose record shows nothing wrong gets its result from the record: the host runs
 * the same judge as always (rf_judge_sum_typed, rf_judge_max, rf_judge_argmax: judge.c) on
 * the record's output value, so the error, the bound and every reported figure are what the
 * host path gives. The sum's
 * bound and error are computed there, on the host, from the plan, the oracle's facts and
 * the exact sum's digits (O(1) a variant, and it keeps the figures identical); max and
 * argmax are also decided on the device, and the two decisions must agree (else a harness
 * failure, loudly). A variant whose record shows any failure (guard, poison, repeat, a
 * launch error, a wrong value) is judged by the host path exactly as today, after reading
 * back the buffers: what the user sees does not change.
 *
 * One batch in REDFUZZ_VERDICT_RECHECK (default 64) is judged both ways, and every result
 * given from a record must equal the host path's byte for byte: any difference is a harness
 * failure (stderr and the result concerned). In sweeps and fuzzing, a row op's re-check
 * (input, oracle and judge made again on the host: tens of ms at 256x4096) runs on the
 * background thread instead (recheck_rows.c); 1-D batches keep theirs in the batch
 * (a read-back and O(1) host judging a variant: 0.24 us for a sum on the build machine).
 *
 * REDFUZZ_DEVICE_VERDICT: 0 off, 1 every batch of 1-D cases (also on the simulator, where CI
 * compares it with the host path on the boundary sweep); unset: on GPUs, for batches whose
 * exact answers are all made on the device (REDFUZZ_DEVICE_MIN_ELEMS and up). Never in serial
 * mode (it times and synchronises each variant on its own).
 *
 * Softmax (a case runs alone; float32, f16 or bf16 input, output in the input's type or
 * float32): the double-precision row oracle with its rigorous margin and
 * every element's check against the variant's bound (a 16-bit output's widened by its final
 * rounding, as the host widens it) run on the device
 * (kernels/harness/softmax_device.h, with oracle/softmax_row_math.h's formulas, the host's); each
 * variant's record per row says pass, or names a failure or a row it could not decide (an
 * element within the oracle's margin of its bound, a row sum not surely within its bound, a
 * NaN or an infinity in the row). A case where every row of every variant passes is reported
 * from the records (its worst element's figures from the device oracle, which may differ
 * from the host oracle's in the last bits; the verdict is the same); any other case is made
 * again on the host (input, double oracle, MPFR for the rows that need it) and judged by the
 * host path, as today. Not with REDFUZZ_SOFTMAX_ORACLE=mpfr or upgrade (host cross-checks).
 * In the auto mode, softmax cases of REDFUZZ_DEVICE_MIN_ELEMS elements and more, of any
 * number of rows: the per-row records stay on the device, judged a chunk of rows at a time
 * and folded into one summary a variant (kernels/harness/row_summary.h), which is what comes back.
 *
 * Logsumexp and log-softmax (every input and output type, a case runs alone): the same
 * scheme with the double log oracle and the host judge's per-output decision
 * (kernels/harness/log_device.h, with
 * oracle/log_row_math.h's formulas): a row comes back pass, a failure, or undecided (a sum
 * range the margins cannot use, or an output within the margin of its bound; rows with a NaN,
 * +inf or only -inf are decided by oracle/log_special.h's rules), and a
 * case is reported from the records only when every row of every variant passed; else it is
 * made again on the host and judged there (MPFR for the rows that need it). Their re-check
 * batches go to the background thread as softmax's do (recheck_rows.c). A 16-bit output is
 * decided by the host's rule for it (its range check, log_row_math.h). */
#include <stdio.h>
#include <string.h>
#include "dev_verdicts.h"
#include "harness_check.h"
#include "recheck_rows.h"
#include "verdict_from.h"
#include "op_table.h"
#include "kernels/harness/verdict_device.h"
#include "kernels/harness/softmax_device.h"
#include "kernels/harness/log_device.h"
#include "kernels/harness/row_summary.h"
#include "model/gen.h"
#include "model/dtype.h"

/* Which batches are judged from records is their cases' route (route.c). */
void rf_dev_verdicts_init(rf_dev_verdicts *dv, rf_arena *arena, rf_oracle_ctx *oracle,
                          rf_recheck_bg *bg, const rf_settings *set) {
  dv->arena = arena;
  dv->oracle = oracle;
  dv->bg = bg;
  dv->every = (unsigned long)set->verdict_recheck;
  dv->plant = set->verdict_plant != 0;
  dv->row_chunk = (uint32_t)set->row_chunk;
  dv->rec_slot = dv->item_slot = dv->smd_rec_slot = -1;
}

/* The per-row records of one judge launch stay on the device, at most this many bytes of
 * them: a case of more rows is judged a chunk of rows at a time, each chunk folded into the
 * summaries (row_summary.h) that come back, so neither the read-back nor the buffer grows
 * with the rows (issue 12: the bound of 2^16 rows this replaces sent the default-caps
 * campaign's largest row cases to the host). */
#define RF_ROW_REC_BYTES ((size_t)64 << 20)

/* Rows a judge launch takes for nv variants: REDFUZZ_ROW_CHUNK, else the largest power of
 * two whose records fit RF_ROW_REC_BYTES (a power of two keeps the chunks alike; at least 1). */
static uint32_t row_chunk(const rf_dev_verdicts *dv, size_t nv, uint32_t rows) {
  uint32_t k = dv->row_chunk;
  if (!k) {
    const size_t fit = RF_ROW_REC_BYTES / ((nv ? nv : 1) * sizeof(rf_smd_rec));
    k = 1;
    while ((size_t)k * 2 <= fit && k < (1u << 31)) k *= 2;
  }
  return k < rows ? k : rows;
}

static int is_log_op(rf_op op) { return op == RF_OP_LOGSUMEXP || op == RF_OP_LOGSOFTMAX; }

void rf_dev_verdicts_free(rf_dev_verdicts *dv) {
  rf_dev_free(dv->smd_dev);
  dv->smd_dev = NULL;
  dv->smd_cap = 0;
  rf_host_buf_free(&dv->items);
  rf_host_buf_free(&dv->res);
  rf_host_buf_free(&dv->host);
  rf_host_buf_free(&dv->rowj);
}

/* The batch judged from records (its cases' route, rf_route_join) gets the record slot, and
 * a row op's the summary slot; call it right before rf_dev_answers_slots (the records and
 * the oracle's answers are then consecutive and come back in one copy). 0, or -1 when out of
 * host memory. */
int rf_dev_verdicts_slots(rf_dev_verdicts *dv, rf_route_verdict batch, size_t n) {
  dv->on = batch != RF_VERDICT_HOST && n;
  dv->rec_slot = dv->item_slot = dv->smd_rec_slot = -1;
  dv->n = n;
  if (!dv->on) return 0;
  dv->rec_slot = rf_arena_add(dv->arena, n * sizeof(rf_vd_record), 1);
  if (batch == RF_VERDICT_ROW_SUMMARIES)   /* the log ops' records are softmax's (log_device.h) */
    dv->smd_rec_slot = rf_arena_add(dv->arena, n * sizeof(rf_rs_summary), 1);
  return dv->rec_slot < 0 || (batch == RF_VERDICT_ROW_SUMMARIES && dv->smd_rec_slot < 0) ? -1 : 0;
}

/* After every other output and scratch slot: each variant's layout as the kernel reads it,
 * uploaded with the arena. 0, or -1 when out of host memory. */
int rf_dev_verdicts_items(rf_dev_verdicts *dv, const batch_case *bcs, size_t nc,
                          const pending *ps, size_t n) {
  (void)nc;
  if (!dv->on) return 0;
  dv->ps = ps;
  dv->max_ob = 0;
  if (dv->smd_rec_slot >= 0) {   /* row ops: the device oracle's y and row facts, then one
                                   chunk's records (every size a multiple of 8), persistent */
    const rf_case *c = bcs[0].c;
    dv->smd_rec_off = is_log_op(c->op) ? (size_t)c->rows * sizeof(rf_lgd_row)
                   : rf_case_elems(c) * sizeof(double) + (size_t)c->rows * sizeof(rf_smd_row);
    const size_t bytes = dv->smd_rec_off + n * row_chunk(dv, n, c->rows) * sizeof(rf_smd_rec);
    if (bytes > dv->smd_cap) {
      void *q = NULL;
      if (rf_dev_alloc(&q, bytes)) return -1;
      rf_dev_free(dv->smd_dev);
      dv->smd_dev = q;
      dv->smd_cap = bytes;
    }
  }
  const rf_arena *a = dv->arena;
  rf_vd_item *items = rf_host_buf_get(&dv->items, n * sizeof *items);
  if (!items) return -1;
  for (size_t i = 0; i < n; i++) {
    const pending *p = &ps[i];
    rf_vd_item *it = &items[i];
    memset(it, 0, sizeof *it);
    for (int k = 0; k < p->runs; k++) {
      it->out_off[k] = a->slot[p->out_slot[k]].off;
      it->out_end[k] = rf_arena_guard_end(a, p->out_slot[k]);
      if (p->sb) {
        it->scratch_off[k] = a->slot[p->scratch_slot[k]].off;
        it->scratch_end[k] = rf_arena_guard_end(a, p->scratch_slot[k]);
      }
    }
    it->out_bytes = (uint32_t)p->ob;
    if (p->ob > dv->max_ob) dv->max_ob = p->ob;
    it->scratch_bytes = (uint32_t)p->sb;
    it->runs = (uint32_t)p->runs;
    it->oracle_off = p->bc->dev_slot >= 0 ? (int64_t)a->slot[p->bc->dev_slot].off : -1;
    /* The op table's check (ops.def); a 16-bit output is not the oracle's float bits: the
     * record stays undecided and the host judges it from got (from_record), as judge_variant
     * does. A pair is written as f32 whatever the variant's out_dtype. */
    it->check = p->v->out_dtype == RF_DTYPE_F32 || rf_op_shape_of(p->bc->c->op).pair
                    ? rf_op_row_of(p->bc->c->op)->vd_check
                    : RF_VD_CHECK_NONE;
    it->contract = p->v->contract;
    it->index_bits = p->v->index_bits;
  }
  dv->item_slot = rf_arena_add_input(dv->arena, items, n * sizeof *items, 0);
  return dv->item_slot < 0 ? -1 : 0;
}

/* One chunk of a row op, rows r0 .. r0 + m - 1 of every variant, judged into recs (variant i's
 * m records from recs + i * m; softmax_device.h, log_device.h): the row kernels use a row's
 * index only to address the row, so the chunk is the case seen through offset pointers (the
 * input, each variant's output, the oracle's y and facts), and one chunk of all the rows is
 * the whole case's launch. Softmax's vs or the log ops' lv hold every variant's part for the
 * whole case and are offset here. 0 or the launch error. */
static int chunk_launch(rf_dev_verdicts *dv, const rf_case *c, const void *x, rf_smd_variant *vs,
                        rf_lgd_variant *lv, void *info, double *y, uint32_t r0, uint32_t m,
                        rf_smd_rec *recs) {
  const size_t n = dv->n, row_out = c->op == RF_OP_LOGSUMEXP ? 1 : c->cols;
  const char *xr = (const char *)x + (size_t)r0 * c->cols * rf_dtype_bytes(c->dtype);
  for (size_t i = 0; i < n; i++) {   /* the chunk's parts after the case's, in the same buffer */
    const size_t off = (size_t)r0 * row_out * rf_dtype_bytes(dv->ps[i].v->out_dtype);
    if (vs) {
      vs[n + i] = vs[i];
      vs[n + i].got = (const char *)vs[i].got + off;
    } else {
      lv[n + i] = lv[i];
      lv[n + i].got = (const char *)lv[i].got + off;
    }
  }
  if (!vs)
    return rf_lgd_judge_launch(xr, (uint32_t)c->dtype, lv + n, (uint32_t)n,
                               (const rf_lgd_row *)info + r0, m, c->cols,
                               c->op == RF_OP_LOGSUMEXP, (uint32_t)dv->plant, recs, NULL);
  return rf_smd_judge_launch(xr, vs + n, (uint32_t)n, y + (size_t)r0 * c->cols,
                             (const rf_smd_row *)info + r0, m, c->cols,
                             (uint32_t)dv->plant, recs, NULL);
}

/* Row ops: the oracle of the case's input into the persistent buffer (softmax: y and each
 * row's facts; the log ops: the facts), then every variant's output against it a chunk of rows
 * at a time (row_chunk), each chunk's records folded into the variants' summaries
 * (row_summary.h), which alone come back. Every variant's bound parameters as the host judge
 * makes them (judge.c, judge_log.c); a 16-bit output is decided by the host's rule for it.
 * NULL or the harness failure. */
static const char *rows_launch(rf_dev_verdicts *dv) {
  const pending *ps = dv->ps;
  const batch_case *bc = ps[0].bc;
  const rf_case *c = bc->c;
  const int log = is_log_op(c->op);
  const size_t n = dv->n;
  const char *failed = log ? "harness failure: the device log-op judge's launch failed"
                           : "harness failure: the device softmax judge's launch failed";
  /* twice the variants: the case's parts, then the chunk's (chunk_launch) */
  void *parts = rf_host_buf_get(&dv->rowj, 2 * n * (log ? sizeof(rf_lgd_variant)
                                                          : sizeof(rf_smd_variant)));
  if (!parts) return "out of host memory for the device row judge's parameters";
  rf_smd_variant *vs = log ? NULL : parts;
  rf_lgd_variant *lv = log ? parts : NULL;
  for (size_t i = 0; i < n; i++) {
    const void *got = rf_arena_dev(dv->arena, ps[i].out_slot[0]);
    const rf_smr_params p = rf_softmax_bound_params(&ps[i].plan, rf_judge_exp_model(&ps[i].plan));
    if (log) {
      lv[i] = (rf_lgd_variant){got, (uint32_t)ps[i].v->out_dtype, 0,
                               (rf_lsr_params){p, rf_judge_log_model()->log_ulps}};
      continue;
    }
    vs[i].got = got;
    vs[i].p = p;
    vs[i].io = (rf_smd_io){(uint32_t)c->dtype, (uint32_t)ps[i].v->out_dtype, 0, 0,
                           ps[i].v->contract};
    /* as judge.c */
    rf_softmax_output_rounding(ps[i].v->out_dtype, &vs[i].io.out_ut, &vs[i].io.out_eta);
  }
  double *y = log ? NULL : dv->smd_dev;
  void *info = log ? dv->smd_dev : (void *)(y + rf_case_elems(c));
  rf_smd_rec *recs = (rf_smd_rec *)((char *)dv->smd_dev + dv->smd_rec_off);
  rf_rs_summary *sums = rf_arena_dev(dv->arena, dv->smd_rec_slot);
  int e = log ? rf_lgd_oracle_launch(bc->dev_x, (uint32_t)c->dtype, c->rows, c->cols, info, NULL)
              : rf_smd_oracle_launch(bc->dev_x, (uint32_t)c->dtype, c->rows, c->cols, y, info,
                                     NULL);
  /* No element: no record to fold (no output either: route.c's row_scope, rows_from_records). */
  const uint32_t k = row_chunk(dv, n, c->rows);
  for (uint32_t r0 = 0; !e && rf_case_elems(c) && r0 < c->rows; r0 += k) {
    const uint32_t m = c->rows - r0 < k ? c->rows - r0 : k;
    e = chunk_launch(dv, c, bc->dev_x, vs, lv, info, y, r0, m, recs);
    if (!e) e = rf_rs_fold_launch(recs, (uint32_t)n, m, r0, sums, NULL);
  }
  if (rf_harness_check_end(e, failed, dv->why, sizeof dv->why)) return dv->why;
  if (log) dv->log_cases++;
  else dv->softmax_cases++;
  return NULL;
}

/* After the batch's launches: the checks, on the default stream (after every launch of the
 * runner's streams, which synchronise with it). NULL or the harness failure. */
const char *rf_dev_verdicts_launch(rf_dev_verdicts *dv) {
  if (!dv->on) return NULL;
  rf_harness_check_begin();
  rf_dev_sim_configure(RF_SCHED_IN_ORDER, 0, 32);
  int e = rf_vd_check_launch(dv->arena->dev, rf_arena_dev(dv->arena, dv->item_slot),
                             (uint32_t)dv->n, rf_arena_dev(dv->arena, dv->rec_slot),
                             RF_GUARD_BITS, RF_POISON_BITS, (uint32_t)dv->plant,
                             dv->max_ob, NULL);
  if (rf_harness_check_end(e, "harness failure: the device verdict kernel's launch failed",
                           dv->why, sizeof dv->why))
    return dv->why;
  return dv->smd_rec_slot < 0 ? NULL : rows_launch(dv);
}

/* After the synchronisation: the records and the device oracle's answers (consecutive slots)
 * in one copy. NULL or what failed. */
const char *rf_dev_verdicts_fetch(rf_dev_verdicts *dv, const batch_case *bcs, size_t nc) {
  int last = dv->smd_rec_slot > dv->rec_slot ? dv->smd_rec_slot : dv->rec_slot;
  for (size_t i = 0; i < nc; i++)
    if (bcs[i].dev_slot > last) last = bcs[i].dev_slot;
  if (rf_arena_fetch_range(dv->arena, dv->rec_slot, last))
    return "cannot read the device verdict records back";
  if (rf_arena_check(dv->arena, dv->rec_slot) ||
      (dv->smd_rec_slot >= 0 && rf_arena_check(dv->arena, dv->smd_rec_slot)))
    return "harness failure: the device verdict kernel wrote outside its records";
  return NULL;
}


/* Row ops: the result from the variant's summary of its rows (row_summary.h) when every row
 * passed, as rf_judge_softmax and rf_judge_lse keep it (the worst output over the rows, the
 * first among equals, from a scan above -1); else the host's. */
static int rows_from_records(const rf_dev_verdicts *dv, const pending *p, const rf_vd_record *rec,
                             rf_result *out, rf_host_reason *why) {
  if (p->runs == 2 && (rec->guard[1] || rec->poison[1] >= 0 || rec->differ)) {
    *why = RF_HOST_REPEAT;
    return RF_FROM_HOST;
  }
  out->verdict = RF_V_PASS;
  out->ratio = 0;
  if (!rf_runner_output_elems(p->bc->c)) return RF_FROM_RECORD;   /* no output, no record */
  const rf_rs_summary *sm = (const rf_rs_summary *)rf_arena_host(dv->arena, dv->smd_rec_slot) +
                            (p - dv->ps);
  if (sm->bad_row != RF_RS_NONE) {
    /* undecided: the host path says which kind (rf_runner_host_tally) */
    *why = sm->bad_verdict == RF_SMD_WRONG ? RF_HOST_ROW_WRONG
         : sm->bad_verdict == RF_SMD_NONFINITE ? RF_HOST_ROW_NONFINITE : RF_HOST_ROW_HOST_DOUBLE;
    return RF_FROM_HOST;
  }
  if (sm->worst_row == RF_RS_NONE) return RF_FROM_RECORD;   /* no ratio above -1: ratio 0 */
  const rf_smd_rec *w = &sm->worst;   /* (rf_lgd_rec is rf_smd_rec: log_device.h) */
  out->ratio = w->ratio < 0 ? 0 : w->ratio;
  out->err = w->err;
  out->bound = w->bound;
  out->got = w->got;
  out->want = w->want;
  out->got_index = out->want_index =
      (p->bc->c->op == RF_OP_LOGSUMEXP ? (long long)sm->worst_row
                                       : (long long)sm->worst_row * p->bc->c->cols) + w->col;
  return RF_FROM_RECORD;
}

/* The result of p from its record into *out (a copy of its prepared result): RF_FROM_RECORD
 * when it is final (a pass), RF_FROM_HOST when the host path must judge it, RF_FROM_DISAGREE
 * when the device's own decision contradicts the host judge's (out->detail says how). */
static int from_record(const rf_dev_verdicts *dv, const pending *p, const rf_vd_record *rec,
                       rf_result *out, rf_host_reason *why) {
  memcpy(out, p->res, sizeof *out);
  *why = RF_HOST_LAUNCH;
  if (p->fail[0] != RF_V_PASS || (p->runs == 2 && p->fail[1] != RF_V_PASS)) return RF_FROM_HOST;
  *why = rec->guard[0] ? RF_HOST_GUARD : RF_HOST_POISON;
  if (rec->guard[0] || rec->poison[0] >= 0) return RF_FROM_HOST;
  if (rf_op_has_rows(p->bc->c->op)) return rows_from_records(dv, p, rec, out, why);
  /* The output as judge_variant reads it (runner.c): a 16-bit value converted exactly, and its
   * poison found as rf_runner_collect_run finds it (the kernel checks whole words only). */
  const rf_dtype ot = p->v->out_dtype;
  const int half_out = ot != RF_DTYPE_F32 && !rf_op_shape_of(p->bc->c->op).pair;
  *why = RF_HOST_VALUE;   /* (a 16-bit output the record cannot hold, or its poison) */
  if (half_out && (p->ob > sizeof rec->got || rf_find_poison_half(rec->got, p->ob) != (size_t)-1))
    return RF_FROM_HOST;
  const float got = rf_dtype_load(half_out ? ot : RF_DTYPE_F32, rec->got, 0);
  rf_op_row_of(p->bc->c->op)->judge(NULL, p, rec->got, out);
  if (rec->decided != RF_VD_UNDECIDED &&
      (rec->decided == RF_VD_EQUAL) != (out->verdict == RF_V_PASS)) {
    snprintf(out->detail, sizeof out->detail,
             "harness failure: the device verdict disagrees with the host judge (device: %s "
             "the exact answer; host judge of the recorded output %.9g: %s)",
             rec->decided == RF_VD_EQUAL ? "equal to" : "different from", (double)got,
             rf_verdict_name(out->verdict));
    out->verdict = RF_V_LAUNCH_ERROR;
    return RF_FROM_DISAGREE;
  }
  if (out->verdict != RF_V_PASS) return RF_FROM_HOST;
  *why = RF_HOST_REPEAT;
  if (p->runs == 2 && (rec->guard[1] || rec->poison[1] >= 0 || rec->differ)) return RF_FROM_HOST;
  return RF_FROM_RECORD;
}

/* Row ops: the case's input and exact answer made on the host after all, for the host path
 * (a failure to report, an undecided row, or a re-check). */
static void host_answer(rf_dev_verdicts *dv, const batch_case *bc) {
  oracle_answer *o = bc->o;
  if (!o->sm_device) return;
  if (bc->dev_gen) rf_generate(bc->c, (float *)bc->x);
  rf_compute_oracle(dv->oracle, bc->c, bc->x, bc->elems, o);
  o->sm_device = 0;
  if (is_log_op(bc->c->op)) dv->log_to_host++;
  else dv->softmax_to_host++;
}

/* After the device oracle's answers are collected: every result a record decides is given
 * from it; returns the variants left for the host path (copies of their pending entries, or
 * ps itself on a re-check batch) and their number in *n_host (0: the buffers need not be
 * read back). */
pending *rf_dev_verdicts_judge(rf_dev_verdicts *dv, pending *ps, size_t n, size_t *n_host) {
  const rf_vd_record *rec = rf_arena_host(dv->arena, dv->rec_slot);
  rf_result *dev = rf_host_buf_get(&dv->res, n * (sizeof *dev + 1));
  pending *host = rf_host_buf_get(&dv->host, n * sizeof *host);
  dv->recheck_now = 0;
  *n_host = n;
  if (!dev || !host) {   /* out of host memory: the host path for every variant */
    if (dv->smd_rec_slot >= 0) host_answer(dv, ps[0].bc);
    return ps;
  }
  unsigned char *how = (unsigned char *)(dev + n);
  dv->recheck_now = dv->every && dv->batches % dv->every == 0;
  dv->batches++;
  for (size_t i = 0; i < n; i++) {
    rf_host_reason why;
    how[i] = (unsigned char)from_record(dv, &ps[i], &rec[i], &dev[i], &why);
    if (how[i] == RF_FROM_HOST) rf_runner_host_note(ps[i].bc, why);
  }
  /* A row op in a long run: the expensive part of the re-check (input, oracle and judge on
   * the host) goes to the background thread (recheck_rows.c); this batch goes on as any. */
  if (dv->recheck_now && dv->smd_rec_slot >= 0 && dv->bg->on) {
    const double t0 = rf_now_ms();
    if (rf_recheck_rows_queue(dv->arena, dv->bg, &dv->rechecks, ps, n, how, dev) == 0) dv->recheck_now = 0;
    dv->ms_recheck += rf_now_ms() - t0;
  }
  size_t m = 0;
  for (size_t i = 0; i < n; i++) m += how[i] == RF_FROM_HOST;
  if (dv->smd_rec_slot >= 0 && (m || dv->recheck_now)) host_answer(dv, ps[0].bc);
  if (dv->recheck_now) {   /* every variant on the host too; compared in finish */
    for (size_t i = 0; i < n; i++) rf_runner_host_note(ps[i].bc, RF_HOST_RECHECK);
    return ps;
  }
  m = 0;
  for (size_t i = 0; i < n; i++) {
    if (how[i] == RF_FROM_HOST) {
      host[m++] = ps[i];
      continue;
    }
    if (how[i] == RF_FROM_DISAGREE)
      fprintf(stderr, "redfuzz: %s: %s\n", ps[i].v->name, dev[i].detail);
    memcpy(ps[i].res, &dev[i], sizeof dev[i]);
  }
  *n_host = m;
  dv->device_runs += n - m;
  dv->host_runs += m;
  return host;
}

/* After the host path judged what was left to it: on a re-check batch, each result given from
 * a record is compared with the host's, byte for byte. */
void rf_dev_verdicts_finish(rf_dev_verdicts *dv, pending *ps, size_t n) {
  if (!dv->on || !dv->recheck_now) return;
  const rf_result *dev = dv->res.p;
  const unsigned char *how = (const unsigned char *)(dev + n);
  double t0 = rf_now_ms();
  for (size_t i = 0; i < n; i++) {
    rf_result *res = ps[i].res;
    if (how[i] == RF_FROM_HOST) {
      dv->host_runs++;
      continue;
    }
    /* Row ops' figures come from the device oracle (last bits may differ): the verdict. */
    const int same = rf_op_has_rows(ps[i].bc->c->op) ? res->verdict == dev[i].verdict
                   : memcmp(res, &dev[i], sizeof *res) == 0;
    if (how[i] == RF_FROM_RECORD && same) {
      dv->rechecks++;
      dv->device_runs++;
      continue;
    }
    char why[sizeof res->detail];
    if (how[i] == RF_FROM_DISAGREE)
      snprintf(why, sizeof why, "%s", dev[i].detail);
    else
      snprintf(why, sizeof why,
               "harness failure: the device verdict record differs from the host judge "
               "(host: %s, got %.9g, error %.3g; from the record: %s, got %.9g, error %.3g)",
               rf_verdict_name(res->verdict), (double)res->got, res->err,
               rf_verdict_name(dev[i].verdict), (double)dev[i].got, dev[i].err);
    fprintf(stderr, "redfuzz: %s: %s\n", ps[i].v->name, why);
    res->verdict = RF_V_LAUNCH_ERROR;
    snprintf(res->detail, sizeof res->detail, "%s", why);
  }
  dv->ms_recheck += rf_now_ms() - t0;
}

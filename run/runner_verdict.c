/* Verdicts of 1-D batches (sum, max, argmax) made on the device (issue 12): after the batch's
 * launches, one kernel (kernels/verdict_device.h) checks every variant's guard zones (outputs
 * and scratch, both runs), its output for words still holding the poison, the repeat of a
 * deterministic variant bit for bit, and max/argmax against the device oracle's answer; it
 * writes one small record per variant. The host then reads back only the records (and the
 * device oracle's), not the buffers.
 *
 * A variant whose record shows nothing wrong gets its result from the record: the host runs
 * the same judge as always (rf_judge_sum/max/argmax, judge.c) on the record's output value,
 * so the error, the bound and every reported figure are what the host path gives. The sum's
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
 * (kernels/softmax_device.h, with oracle/softmax_row_math.h's formulas, the host's); each
 * variant's record per row says pass, or names a failure or a row it could not decide (an
 * element within the oracle's margin of its bound, a row sum not surely within its bound, a
 * NaN or an infinity in the row). A case where every row of every variant passes is reported
 * from the records (its worst element's figures from the device oracle, which may differ
 * from the host oracle's in the last bits; the verdict is the same); any other case is made
 * again on the host (input, double oracle, MPFR for the rows that need it) and judged by the
 * host path, as today. Not with REDFUZZ_SOFTMAX_ORACLE=mpfr or upgrade (host cross-checks).
 * In the auto mode, softmax cases of REDFUZZ_DEVICE_MIN_ELEMS elements and more (and at most
 * 2^16 rows).
 *
 * Logsumexp and log-softmax (every input and output type, a case runs alone): the same
 * scheme with the double log oracle and the host judge's per-output decision (kernels/log_device.h, with
 * oracle/log_row_math.h's formulas): a row comes back pass, a failure, or undecided (a sum
 * range the margins cannot use, or an output within the margin of its bound; rows with a NaN,
 * +inf or only -inf are decided by oracle/log_special.h's rules), and a
 * case is reported from the records only when every row of every variant passed; else it is
 * made again on the host and judged there (MPFR for the rows that need it). Their re-check
 * batches go to the background thread as softmax's do (recheck_rows.c). A 16-bit output is
 * decided by the host's rule for it (its range check, log_row_math.h). */
#include <stdio.h>
#include <string.h>
#include "runner_internal.h"
#include "device_scope.h"
#include "kernels/verdict_device.h"
#include "kernels/softmax_device.h"
#include "kernels/log_device.h"
#include "model/gen.h"
#include "model/dtype.h"

void rf_runner_verdict_init(rf_runner *r, const rf_settings *set) {
  r->device_verdict = set->device_verdict_set ? set->device_verdict != 0
                      : rf_backend.is_sim ? 0 : 2;
  r->verdict_recheck = (unsigned long)set->verdict_recheck;
  r->verdict_plant = set->verdict_plant != 0;
}

#define RF_SMD_MAX_ROWS (1u << 16)

/* A row op judged on the device: in the device path's scope (device_scope.h); up to 2^16
 * rows (a record per row and variant comes back, 48 bytes each); not with the host
 * cross-checks of REDFUZZ_SOFTMAX_ORACLE (mpfr, upgrade), which the log ops obey too. */
rf_host_reason rf_runner_row_scope(const rf_runner *r, const rf_case *c) {
  if (!rf_device_scope_judges_rows(c) || !r->device_verdict) return RF_HOST_OFF;
  if (r->serial) return RF_HOST_SERIAL;
  if (r->softmax_mpfr_only || r->softmax_upgrade_all) return RF_HOST_CROSS_CHECK;
  /* No element: the oracle and judge launches skip empty shapes and write no record. With
   * no output either (no row; softmax and log-softmax rows of no column) the result is the
   * verdict kernel's guards and the empty pass the host judge gives too (rows_from_records);
   * logsumexp's rows of no column each owe a -inf, which only the host judges. */
  if (!rf_case_elems(c) && rf_runner_output_elems(c)) return RF_HOST_EMPTY;
  if (c->rows > RF_SMD_MAX_ROWS) return RF_HOST_ROWS;
  if (r->device_verdict != 1 && rf_case_elems(c) < r->device_min_elems) return RF_HOST_SMALL;
  return RF_HOST_NONE;
}

static int row_device_for(const rf_runner *r, const rf_case *c) {
  return rf_runner_row_scope(r, c) == RF_HOST_NONE;
}

int rf_runner_softmax_device_for(const rf_runner *r, const rf_case *c) {
  return c->op == RF_OP_SOFTMAX && row_device_for(r, c);
}

int rf_runner_row_device_for(const rf_runner *r, const rf_case *c) {
  return rf_op_has_rows(c->op) && row_device_for(r, c);
}

static int is_log_op(rf_op op) { return op == RF_OP_LOGSUMEXP || op == RF_OP_LOGSOFTMAX; }

void rf_runner_verdict_free(rf_runner *r) {
  rf_dev_free(r->smd_dev);
  r->smd_dev = NULL;
  r->smd_cap = 0;
  rf_host_buf_free(&r->vd_items);
  rf_host_buf_free(&r->vd_res);
  rf_host_buf_free(&r->vd_host);
  rf_host_buf_free(&r->vd_rowj);
}

/* Decides whether this batch is judged from records and, if so, adds the record slot; call
 * it right before rf_runner_device_slots (the records and the oracle's answers are then
 * consecutive and come back in one copy). 0, or -1 when out of host memory. */
int rf_runner_verdict_slots(rf_runner *r, const batch_case *bcs, size_t nc, size_t n) {
  r->vd_on = 0;
  r->vd_rec_slot = r->vd_item_slot = r->smd_rec_slot = -1;
  r->vd_n = n;
  if (!r->device_verdict || r->serial || !n) return 0;
  if (nc == 1 && rf_op_has_rows(bcs[0].c->op)) {
    if (!bcs[0].o->sm_device) return 0;
    r->vd_on = 1;   /* the log ops' records are softmax's (log_device.h) */
    r->vd_rec_slot = rf_arena_add(&r->arena, n * sizeof(rf_vd_record), 1);
    r->smd_rec_slot = rf_arena_add(&r->arena, n * bcs[0].c->rows * sizeof(rf_smd_rec), 1);
    return r->vd_rec_slot < 0 || r->smd_rec_slot < 0 ? -1 : 0;
  }
  for (size_t i = 0; i < nc; i++) {
    const rf_op op = bcs[i].c->op;
    if (op != RF_OP_SUM && op != RF_OP_MAX && op != RF_OP_ARGMAX) return 0;
    /* (dev_answered: the answer came from the device for an earlier batch on this input) */
    if (r->device_verdict == 2 && !bcs[i].o->on_device && !bcs[i].o->dev_answered) return 0;
  }
  r->vd_on = 1;
  r->vd_rec_slot = rf_arena_add(&r->arena, n * sizeof(rf_vd_record), 1);
  return r->vd_rec_slot < 0 ? -1 : 0;
}

/* After every other output and scratch slot: each variant's layout as the kernel reads it,
 * uploaded with the arena. 0, or -1 when out of host memory. */
int rf_runner_verdict_items(rf_runner *r, const batch_case *bcs, size_t nc, const pending *ps,
                            size_t n) {
  (void)nc;
  if (!r->vd_on) return 0;
  r->vd_ps = ps;
  r->vd_max_ob = 0;
  if (r->smd_rec_slot >= 0) {   /* row ops: the device oracle's y and row facts, persistent */
    const rf_case *c = bcs[0].c;
    const size_t bytes = is_log_op(c->op) ? (size_t)c->rows * sizeof(rf_lgd_row)
                       : rf_case_elems(c) * sizeof(double) + (size_t)c->rows * sizeof(rf_smd_row);
    if (bytes > r->smd_cap) {
      void *q = NULL;
      if (rf_dev_alloc(&q, bytes)) return -1;
      rf_dev_free(r->smd_dev);
      r->smd_dev = q;
      r->smd_cap = bytes;
    }
  }
  const rf_arena *a = &r->arena;
  rf_vd_item *items = rf_host_buf_get(&r->vd_items, n * sizeof *items);
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
    if (p->ob > r->vd_max_ob) r->vd_max_ob = p->ob;
    it->scratch_bytes = (uint32_t)p->sb;
    it->runs = (uint32_t)p->runs;
    it->oracle_off = p->bc->dev_slot >= 0 ? (int64_t)a->slot[p->bc->dev_slot].off : -1;
    /* A 16-bit max output is not the oracle's float bits: the record stays undecided and the
     * host judges it from got (from_record), as judge_variant does. */
    it->check = p->bc->c->op == RF_OP_MAX && p->v->out_dtype == RF_DTYPE_F32 ? RF_VD_CHECK_MAX
              : p->bc->c->op == RF_OP_ARGMAX ? RF_VD_CHECK_ARGMAX : RF_VD_CHECK_NONE;
  }
  r->vd_item_slot = rf_arena_add_input(&r->arena, items, n * sizeof *items, 0);
  return r->vd_item_slot < 0 ? -1 : 0;
}

/* Logsumexp, log-softmax: the oracle into the persistent buffer, then every variant's output
 * (float32, f16 or bf16: log_device.h reads both types exactly and decides a 16-bit output by
 * the host's rule) against it, all in one launch (log_device.h: variant i's records from
 * recs + i * rows, as rows_from_records reads them). NULL or the harness failure. */
static const char *log_launch(rf_runner *r, const pending *ps, const batch_case *bc) {
  const rf_case *c = bc->c;
  char msg[256];
  rf_lgd_row *info = r->smd_dev;
  rf_lgd_rec *recs = rf_arena_dev(&r->arena, r->smd_rec_slot);
  rf_lgd_variant *vs = rf_host_buf_get(&r->vd_rowj, r->vd_n * sizeof *vs);
  if (!vs) return "out of host memory for the device log-op judge's parameters";
  for (size_t i = 0; i < r->vd_n; i++) {
    const rf_lsr_params prm = {rf_softmax_bound_params(&ps[i].plan, rf_judge_exp_model(&ps[i].plan)),
                               rf_judge_log_model()->log_ulps};
    vs[i] = (rf_lgd_variant){rf_arena_dev(&r->arena, ps[i].out_slot[0]),
                             (uint32_t)ps[i].v->out_dtype, 0, prm};
  }
  /* the oracle, then every variant's judge (a block or a wave a row by shape) */
  int e = rf_lgd_case_launch(bc->dev_x, (uint32_t)c->dtype, vs, (uint32_t)r->vd_n, info, c->rows,
                             c->cols, c->op == RF_OP_LOGSUMEXP, (uint32_t)r->verdict_plant, recs,
                             NULL);
  if (!e) e = rf_dev_last_error();
  if (e || rf_dev_sim_take_status(msg, sizeof msg))
    return "harness failure: the device log-op judge's launch failed";
  r->stats.log_device_cases++;
  return NULL;
}

/* After the batch's launches: the checks, on the default stream (after every launch of the
 * runner's streams, which synchronise with it). NULL or the harness failure. */
const char *rf_runner_verdict_launch(rf_runner *r) {
  if (!r->vd_on) return NULL;
  char msg[256];
  rf_dev_last_error();
  rf_dev_sim_take_status(msg, sizeof msg);
  rf_dev_sim_configure(RF_SCHED_IN_ORDER, 0, 32);
  int e = rf_vd_check_launch(r->arena.dev, rf_arena_dev(&r->arena, r->vd_item_slot),
                             (uint32_t)r->vd_n, rf_arena_dev(&r->arena, r->vd_rec_slot),
                             RF_GUARD_BITS, RF_POISON_BITS, (uint32_t)r->verdict_plant,
                             r->vd_max_ob, NULL);
  if (!e) e = rf_dev_last_error();
  if (e || rf_dev_sim_take_status(msg, sizeof msg))
    return "harness failure: the device verdict kernel's launch failed";
  if (r->smd_rec_slot < 0) return NULL;
  /* Row ops: the oracle on the case's input, then each variant's output against it. */
  const pending *ps = r->vd_ps;
  const batch_case *bc = ps[0].bc;
  const rf_case *c = bc->c;
  if (is_log_op(c->op)) return log_launch(r, ps, bc);
  double *y = r->smd_dev;
  rf_smd_row *info = (rf_smd_row *)(y + rf_case_elems(c));
  rf_smd_rec *recs = rf_arena_dev(&r->arena, r->smd_rec_slot);
  /* Every variant in one launch (softmax_device.h): variant i's records from recs + i * rows. */
  rf_smd_variant *vs = rf_host_buf_get(&r->vd_rowj, r->vd_n * sizeof *vs);
  if (!vs) return "out of host memory for the device softmax judge's parameters";
  for (size_t i = 0; i < r->vd_n; i++) {
    vs[i].got = rf_arena_dev(&r->arena, ps[i].out_slot[0]);
    vs[i].p = rf_softmax_bound_params(&ps[i].plan, rf_judge_exp_model(&ps[i].plan));
    vs[i].io = (rf_smd_io){(uint32_t)c->dtype, (uint32_t)ps[i].v->out_dtype, 0, 0};
    /* as judge.c */
    rf_softmax_output_rounding(ps[i].v->out_dtype, &vs[i].io.out_ut, &vs[i].io.out_eta);
  }
  /* the oracle, then every variant's judge (a block or a wave a row by shape) */
  e = rf_smd_case_launch(bc->dev_x, (uint32_t)c->dtype, vs, (uint32_t)r->vd_n, y, info, c->rows,
                         c->cols, (uint32_t)r->verdict_plant, recs, NULL);
  if (!e) e = rf_dev_last_error();
  if (e || rf_dev_sim_take_status(msg, sizeof msg))
    return "harness failure: the device softmax judge's launch failed";
  r->stats.softmax_device_cases++;
  return NULL;
}

/* After the synchronisation: the records and the device oracle's answers (consecutive slots)
 * in one copy. NULL or what failed. */
const char *rf_runner_verdict_fetch(rf_runner *r, const batch_case *bcs, size_t nc) {
  int last = r->smd_rec_slot > r->vd_rec_slot ? r->smd_rec_slot : r->vd_rec_slot;
  for (size_t i = 0; i < nc; i++)
    if (bcs[i].dev_slot > last) last = bcs[i].dev_slot;
  if (rf_arena_fetch_range(&r->arena, r->vd_rec_slot, last))
    return "cannot read the device verdict records back";
  if (rf_arena_check(&r->arena, r->vd_rec_slot) ||
      (r->smd_rec_slot >= 0 && rf_arena_check(&r->arena, r->smd_rec_slot)))
    return "harness failure: the device verdict kernel wrote outside its records";
  return NULL;
}

enum { FROM_HOST = 0, FROM_RECORD = 1, DISAGREE = 2 };

/* Row ops: the result from the variant's row records when every row passed, as
 * rf_judge_softmax and rf_judge_lse keep it (the worst output over the rows, the first among
 * equals); else the host's. */
static int rows_from_records(const rf_runner *r, const pending *p, const rf_vd_record *rec,
                             rf_result *out, rf_host_reason *why) {
  if (p->runs == 2 && (rec->guard[1] || rec->poison[1] >= 0 || rec->differ)) {
    *why = RF_HOST_REPEAT;
    return FROM_HOST;
  }
  const rf_op op = p->bc->c->op;
  const uint32_t rows = p->bc->c->rows, cols = p->bc->c->cols;
  out->verdict = RF_V_PASS;
  out->ratio = 0;
  if (!rf_runner_output_elems(p->bc->c)) return FROM_RECORD;   /* no output, no record (row_scope) */
  /* (rf_lgd_rec is rf_smd_rec: log_device.h) */
  const rf_smd_rec *rr = (const rf_smd_rec *)rf_arena_host(&r->arena, r->smd_rec_slot) +
                         (size_t)(p - r->vd_ps) * rows;
  out->ratio = -1;
  for (uint32_t i = 0; i < rows; i++) {
    if (rr[i].verdict != RF_SMD_PASS) {
      /* undecided: the host path says which kind (rf_runner_host_tally) */
      *why = rr[i].verdict == RF_SMD_WRONG ? RF_HOST_ROW_WRONG
           : rr[i].verdict == RF_SMD_NONFINITE ? RF_HOST_ROW_NONFINITE : RF_HOST_ROW_HOST_DOUBLE;
      return FROM_HOST;
    }
    if (rr[i].ratio > out->ratio) {
      out->ratio = rr[i].ratio;
      out->err = rr[i].err;
      out->bound = rr[i].bound;
      out->got = rr[i].got;
      out->want = rr[i].want;
      out->got_index = out->want_index =
          (op == RF_OP_LOGSUMEXP ? (long long)i : (long long)i * cols) + rr[i].col;
    }
  }
  if (out->ratio < 0) out->ratio = 0;
  return FROM_RECORD;
}

/* The result of p from its record into *out (a copy of its prepared result). FROM_RECORD when
 * it is final (a pass), FROM_HOST when the host path must judge it, DISAGREE when the device's
 * own decision contradicts the host judge's (out->detail says how). */
static int from_record(const rf_runner *r, const pending *p, const rf_vd_record *rec,
                       rf_result *out, rf_host_reason *why) {
  memcpy(out, p->res, sizeof *out);
  *why = RF_HOST_LAUNCH;
  if (p->fail[0] != RF_V_PASS || (p->runs == 2 && p->fail[1] != RF_V_PASS)) return FROM_HOST;
  *why = rec->guard[0] ? RF_HOST_GUARD : RF_HOST_POISON;
  if (rec->guard[0] || rec->poison[0] >= 0) return FROM_HOST;
  const oracle_answer *o = p->bc->o;
  if (rf_op_has_rows(p->bc->c->op)) return rows_from_records(r, p, rec, out, why);
  /* The output as judge_variant reads it (runner.c): a 16-bit value converted exactly, and its
   * poison found as rf_runner_collect_run finds it (the kernel checks whole words only). */
  const rf_dtype ot = p->v->out_dtype;
  const int half_out = ot != RF_DTYPE_F32 && p->bc->c->op != RF_OP_ARGMAX;
  *why = RF_HOST_VALUE;   /* (a 16-bit output the record cannot hold, or its poison) */
  if (half_out && (p->ob > sizeof rec->got || rf_find_poison_half(rec->got, p->ob) != (size_t)-1))
    return FROM_HOST;
  const float got = rf_dtype_load(half_out ? ot : RF_DTYPE_F32, rec->got, 0);
  switch (p->bc->c->op) {
  case RF_OP_SUM: rf_judge_sum_typed(r, o, &p->plan, ot, got, out); break;
  case RF_OP_MAX: rf_judge_max(o, got, out); break;
  case RF_OP_ARGMAX: {
    rf_argmax_out g;
    memcpy(&g, rec->got, sizeof g);
    rf_judge_argmax(o, &g, out);
    break;
  }
  default: return FROM_HOST;
  }
  if (rec->decided != RF_VD_UNDECIDED &&
      (rec->decided == RF_VD_EQUAL) != (out->verdict == RF_V_PASS)) {
    snprintf(out->detail, sizeof out->detail,
             "harness failure: the device verdict disagrees with the host judge (device: %s "
             "the exact answer; host judge of the recorded output %.9g: %s)",
             rec->decided == RF_VD_EQUAL ? "equal to" : "different from", (double)got,
             rf_verdict_name(out->verdict));
    out->verdict = RF_V_LAUNCH_ERROR;
    return DISAGREE;
  }
  if (out->verdict != RF_V_PASS) return FROM_HOST;
  *why = RF_HOST_REPEAT;
  if (p->runs == 2 && (rec->guard[1] || rec->poison[1] >= 0 || rec->differ)) return FROM_HOST;
  return FROM_RECORD;
}

/* Row ops: the case's input and exact answer made on the host after all, for the host path
 * (a failure to report, an undecided row, or a re-check). */
static void host_answer(rf_runner *r, const batch_case *bc) {
  oracle_answer *o = bc->o;
  if (!o->sm_device) return;
  if (bc->dev_gen) rf_generate(bc->c, (float *)bc->x);
  o->host_only = 1;
  rf_compute_oracle(r, bc->c, bc->x, bc->elems, o);
  o->sm_device = 0;
  if (is_log_op(bc->c->op)) r->stats.log_device_to_host++;
  else r->stats.softmax_device_to_host++;
}

/* After the device oracle's answers are collected: every result a record decides is given
 * from it; returns the variants left for the host path (copies of their pending entries, or
 * ps itself on a re-check batch) and their number in *n_host (0: the buffers need not be
 * read back). */
pending *rf_runner_verdict_judge(rf_runner *r, pending *ps, size_t n, size_t *n_host) {
  const rf_vd_record *rec = rf_arena_host(&r->arena, r->vd_rec_slot);
  rf_result *dev = rf_host_buf_get(&r->vd_res, n * (sizeof *dev + 1));
  pending *host = rf_host_buf_get(&r->vd_host, n * sizeof *host);
  r->vd_recheck_now = 0;
  *n_host = n;
  if (!dev || !host) {   /* out of host memory: the host path for every variant */
    if (r->smd_rec_slot >= 0) host_answer(r, ps[0].bc);
    return ps;
  }
  unsigned char *how = (unsigned char *)(dev + n);
  r->vd_recheck_now = r->verdict_recheck &&
                      r->stats.verdict_batches % r->verdict_recheck == 0;
  r->stats.verdict_batches++;
  for (size_t i = 0; i < n; i++) {
    rf_host_reason why;
    how[i] = (unsigned char)from_record(r, &ps[i], &rec[i], &dev[i], &why);
    if (how[i] == FROM_HOST) rf_runner_host_note(ps[i].bc, why);
  }
  /* A row op in a long run: the expensive part of the re-check (input, oracle and judge on
   * the host) goes to the background thread (recheck_rows.c); this batch goes on as any. */
  if (r->vd_recheck_now && r->smd_rec_slot >= 0 && r->rq_on) {
    const double t0 = rf_now_ms();
    if (rf_runner_rows_recheck_queue(r, ps, n, how, dev) == 0) r->vd_recheck_now = 0;
    r->stats.ms_recheck += rf_now_ms() - t0;
  }
  size_t m = 0;
  for (size_t i = 0; i < n; i++) m += how[i] == FROM_HOST;
  if (r->smd_rec_slot >= 0 && (m || r->vd_recheck_now)) host_answer(r, ps[0].bc);
  if (r->vd_recheck_now) {   /* every variant on the host too; compared in finish */
    for (size_t i = 0; i < n; i++) rf_runner_host_note(ps[i].bc, RF_HOST_RECHECK);
    return ps;
  }
  m = 0;
  for (size_t i = 0; i < n; i++) {
    if (how[i] == FROM_HOST) {
      host[m++] = ps[i];
      continue;
    }
    if (how[i] == DISAGREE) fprintf(stderr, "redfuzz: %s: %s\n", ps[i].v->name, dev[i].detail);
    memcpy(ps[i].res, &dev[i], sizeof dev[i]);
  }
  *n_host = m;
  r->stats.verdict_device_runs += n - m;
  r->stats.verdict_host_runs += m;
  return host;
}

/* After the host path judged what was left to it: on a re-check batch, each result given from
 * a record is compared with the host's, byte for byte. */
void rf_runner_verdict_finish(rf_runner *r, pending *ps, size_t n) {
  if (!r->vd_on || !r->vd_recheck_now) return;
  const rf_result *dev = r->vd_res.p;
  const unsigned char *how = (const unsigned char *)(dev + n);
  double t0 = rf_now_ms();
  for (size_t i = 0; i < n; i++) {
    rf_result *res = ps[i].res;
    if (how[i] == FROM_HOST) {
      r->stats.verdict_host_runs++;
      continue;
    }
    /* Row ops' figures come from the device oracle (last bits may differ): the verdict. */
    const int same = rf_op_has_rows(ps[i].bc->c->op) ? res->verdict == dev[i].verdict
                   : memcmp(res, &dev[i], sizeof *res) == 0;
    if (how[i] == FROM_RECORD && same) {
      r->stats.verdict_rechecks++;
      r->stats.verdict_device_runs++;
      continue;
    }
    char why[sizeof res->detail];
    if (how[i] == DISAGREE)
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
  r->stats.ms_recheck += rf_now_ms() - t0;
}

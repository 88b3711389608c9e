/* The launch contract and state across launches (launch_checks.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "launch_checks.h"
#include "launch_prep.h"
#include "output_checks.h"
#include "op_table.h"

void rf_launch_checks_free(rf_launch_checks *lc) {
  rf_dev_free(lc->zero_in);
  memset(lc, 0, sizeof *lc);
}

int rf_checks_repeat_sched(const pending *p) {
  const int s = p->bc->c->sched;
  if (!p->v->deterministic) return s;
  return s == RF_SCHED_REVERSE ? RF_SCHED_IN_ORDER : RF_SCHED_REVERSE;
}

/* ---- the other shape ------------------------------------------------------------------ */
/* v on case c with these size and launch requests, if v takes it, it differs from cfg in its
 * grid and its size, and it is small; 1 and *o filled, else 0. */
static int try_other(const rf_variant *v, const rf_case *c, const rf_launch_cfg *cfg,
                     const rf_device_info *dev, uint64_t n, uint32_t rows, uint32_t cols,
                     uint32_t block, uint32_t grid, rf_other_launch *o) {
  rf_case k = *c;
  k.n = n;
  k.rows = rows;
  k.cols = cols;
  k.block = block;
  k.grid = grid;
  k.items = 0;
  k.misalign = 0;
  rf_result res;
  memset(&res, 0, sizeof res);
  rf_launch_cfg kc;
  rf_plan plan;
  size_t sb = 0;
  if (rf_launch_prepare(v, &k, dev, &kc, &plan, &sb, &res)) return 0;
  const int row_op = rf_op_has_rows(c->op);
  /* Another grid, and not a multiple of the case's: a count kept modulo the case's grid lands
   * at another residue. */
  if (kc.grid == cfg->grid || (cfg->grid > 1 && kc.grid % cfg->grid == 0) ||
      (row_op ? kc.rows == cfg->rows : kc.n == cfg->n))
    return 0;
  if ((uint64_t)kc.grid * kc.block > RF_OTHER_MAX_THREADS || rf_case_elems(&k) > RF_OTHER_MAX_ELEMS)
    return 0;
  o->ok = 1;
  o->c = k;
  o->cfg = kc;
  o->sb = sb;
  o->ob = rf_runner_output_bytes(&k, v->out_dtype, v->index_bits);
  o->out_slot = o->scratch_slot = -1;
  return 1;
}

/* Candidates, smallest first: a grid of 2 blocks (3 where the case has 2) with elements in
 * every block, at one wave a block and at the variant's default block; then the variant's
 * default grid at sizes that make it differ. A grid of 2 or 3 goes through the multi-block
 * path (a ticket counter, a second stage) and leaves a counter kept modulo the case's grid
 * at another residue. */
int rf_checks_pick_other(const rf_variant *v, const rf_case *c, const rf_launch_cfg *cfg,
                         const rf_device_info *dev, rf_other_launch *o) {
  memset(o, 0, sizeof *o);
  o->out_slot = o->scratch_slot = -1;
  const uint32_t g = cfg->grid == 2 ? 3 : 2, w = cfg->wave ? cfg->wave : 32;
  if (rf_op_has_rows(c->op)) {
    /* An odd width first, then widths a vector variant takes (a multiple of 4, of a wave). */
    const uint32_t cols[] = {cfg->cols == 33 ? 31u : 33u, cfg->cols == 64 ? 128u : 64u};
    const uint32_t rows[] = {g, 5, 1};
    for (size_t j = 0; j < sizeof cols / sizeof cols[0]; j++)
      for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        if (try_other(v, c, cfg, dev, 0, rows[i], cols[j], w, 0, o) ||
            try_other(v, c, cfg, dev, 0, rows[i], cols[j], 0, 0, o) ||
            try_other(v, c, cfg, dev, 0, rows[i], cols[j], w, rows[i], o))
          return 0;
    return -1;
  }
  /* A requested grid of g (a grid-stride variant takes it), or the grid the size makes (one
   * element a thread: (g + 1) blocks, then more). */
  const uint64_t per_block[] = {1, 2, 4};
  for (size_t i = 0; i < sizeof per_block / sizeof per_block[0]; i++)
    if (try_other(v, c, cfg, dev, (uint64_t)g * w * per_block[i] + 3, 0, 0, w, g, o)) return 0;
  if (try_other(v, c, cfg, dev, (uint64_t)g * 512 + 3, 0, 0, 0, g, o) ||
      try_other(v, c, cfg, dev, (uint64_t)g * 2048 + 3, 0, 0, 0, g, o))
    return 0;
  const uint64_t sizes[] = {1027, 3, 4099, 16387, 65539};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
    if (try_other(v, c, cfg, dev, sizes[i], 0, 0, 0, 0, o)) return 0;
  return -1;
}

/* "n=131, grid 2 x block 32" or "2x33, grid 2 x block 32". */
static void other_text(const rf_other_launch *o, char *buf, size_t len) {
  if (rf_op_has_rows(o->c.op))
    snprintf(buf, len, "%ux%u, grid %u x block %u", o->cfg.rows, o->cfg.cols, o->cfg.grid,
             o->cfg.block);
  else
    snprintf(buf, len, "n=%llu, grid %u x block %u", (unsigned long long)o->cfg.n, o->cfg.grid,
             o->cfg.block);
}

/* ---- one launch on the simulator ------------------------------------------------------ */
/* v's launch with a under the schedule given, inside a contract window, its coverage quiet (a
 * run of the checks, not of the case: docs/SIMULATOR.md, "The determinism repeat adds no
 * coverage"). RF_V_PASS, or the failure with its message. */
static rf_verdict sim_launch(const rf_variant *v, const rf_launch_args *a, int sched,
                             uint64_t seed, unsigned wave, char *msg, size_t len) {
  msg[0] = 0;
  if (rf_dev_lost()) {
    snprintf(msg, len, "not run: the device was lost to an earlier kernel's fault");
    return RF_V_LAUNCH_ERROR;
  }
  rf_dev_last_error();
  rf_dev_sim_take_status(NULL, 0);
  rf_dev_sim_configure(sched, seed, wave);
  rf_dev_sim_quiet_coverage(1);
  rf_dev_contract_begin(a->stream);
  int e = v->launch(a);
  rf_dev_contract_end();
  rf_dev_sim_quiet_coverage(0);
  const int le = rf_dev_last_error();
  const int st = rf_dev_sim_take_status(msg, len);
  if (st) return rf_launch_status_verdict(st);
  if (!e) e = le;
  if (e) {
    snprintf(msg, len, "%s", rf_dev_error_string(e));
    return RF_V_LAUNCH_ERROR;
  }
  return RF_V_PASS;
}

/* The other shape's input: zeros, read-only (a write is `oob`), enough for any of them. */
static const void *zero_input(rf_launch_checks *lc) {
  if (lc->zero_in) return lc->zero_in;
  const size_t cap = (size_t)RF_OTHER_MAX_ELEMS * sizeof(float);
  if (rf_dev_alloc_zeroed(&lc->zero_in, cap)) {
    lc->zero_in = NULL;
    return NULL;
  }
  rf_dev_protect_readonly(lc->zero_in);   /* sanitizer builds: stays writable */
  lc->zero_cap = cap;
  return lc->zero_in;
}

rf_verdict rf_checks_launch_other(rf_launch_checks *lc, const rf_arena *a, const pending *p,
                                  void *stream, int sched, uint64_t seed, unsigned wave,
                                  char *msg, size_t len) {
  const rf_other_launch *o = &p->other;
  const void *x = zero_input(lc);
  if (!o->ok || !x) return RF_V_PASS;   /* nothing to launch: run 1 follows run 0 */
  rf_launch_args args = {.x = x, .out = rf_arena_dev(a, o->out_slot),
                         .scratch = o->sb ? rf_arena_dev(a, o->scratch_slot) : NULL,
                         .stream = stream, .cfg = o->cfg};
  char why[sizeof p->fail_detail[0]];
  const rf_verdict vd = sim_launch(p->v, &args, sched, seed, wave, why, sizeof why);
  lc->other_launches++;
  if (vd == RF_V_PASS) return vd;
  char shape[96];
  other_text(o, shape, sizeof shape);
  snprintf(msg, len, "in the launch of another shape (%s) made before the repeat, to check "
           "state across launches: %s", shape, why);
  return vd;
}

/* ---- why run 1 differs ---------------------------------------------------------------- */
/* Launches p's case again into run 1's slots, made afresh (output poisoned, scratch holding
 * `scratch` in every word), and reads them back. */
static rf_verdict rerun(rf_arena *a, pending *p, int sched, uint32_t scratch, char *msg,
                        size_t len) {
  const rf_case *c = p->bc->c;
  if (rf_arena_refill(a, p->out_slot[1], RF_POISON_BITS) ||
      (p->sb && rf_arena_refill(a, p->scratch_slot[1], scratch))) {
    snprintf(msg, len, "cannot write the buffers of a run again");
    return RF_V_LAUNCH_ERROR;
  }
  rf_launch_args args = {.x = p->bc->dev_x, .out = rf_arena_dev(a, p->out_slot[1]),
                         .scratch = p->sb ? rf_arena_dev(a, p->scratch_slot[1]) : NULL,
                         .stream = rf_dev_stream(0), .cfg = p->cfg};
  rf_verdict vd = sim_launch(p->v, &args, sched, c->seed, c->wave, msg, len);
  if (rf_arena_fetch_range(a, p->out_slot[1], p->out_slot[1]) ||
      (p->sb && rf_arena_fetch_range(a, p->scratch_slot[1], p->scratch_slot[1]))) {
    snprintf(msg, len, "cannot read a run's buffers back");
    return RF_V_LAUNCH_ERROR;
  }
  return vd;
}

/* The result of the run now in run k's slots, judged as run 0 is (the launch's failure, the
 * guards, the poison, then the op's judge). 0, or -1 when it cannot be judged here (a row op's
 * answer left on the device). */
static int judge_run(const rf_arena *a, judge_ctx *jc, const pending *p, int k,
                     rf_verdict launch, const char *msg, rf_result *out) {
  memset(out, 0, sizeof *out);
  out->variant = p->v;
  if (p->bc->o->sm_device) return -1;
  pending q = *p;
  q.out_slot[0] = p->out_slot[k];
  q.scratch_slot[0] = p->scratch_slot[k];
  q.fail[0] = launch;
  snprintf(q.fail_detail[0], sizeof q.fail_detail[0], "%s", msg);
  out->depth = p->res->depth;
  memcpy(out->plan, p->res->plan, sizeof out->plan);
  q.res = out;
  if (rf_runner_collect_run(a, &q, 0, out)) return 0;
  jc->needs_upgrade = 0;
  rf_op_row_of(p->bc->c->op)->judge(jc, &q, rf_arena_host(a, q.out_slot[0]), out);
  return 0;
}

/* Slot's payload in the host image, to put saved bits back for judging. */
static void *image_of(rf_arena *a, int slot) { return a->image + a->slot[slot].off; }

/* "a pass (12)", "wrong (3)", "unwritten": a run's result in a few words. */
static void summary(const rf_result *r, int judged, char *buf, size_t len) {
  if (!judged) {
    snprintf(buf, len, "other bits");
    return;
  }
  const int value = r->verdict == RF_V_PASS || r->verdict == RF_V_WRONG ||
                    r->verdict == RF_V_NONFINITE;
  const char *v = r->verdict == RF_V_PASS ? "a pass" : rf_verdict_name(r->verdict);
  if (value && !rf_op_has_rows(r->variant ? r->variant->op : RF_OP_SUM))
    snprintf(buf, len, "%s (%.9g)", v, (double)r->got);
  else
    snprintf(buf, len, "%s", v);
}

enum { CAUSE_NONE, CAUSE_STATE, CAUSE_STATE_FIRST, CAUSE_SCRATCH };

/* res's detail followed by "; " and the text (cut at the detail's size). */
static void append(rf_result *res, const char *text) {
  const size_t at = strlen(res->detail), room = sizeof res->detail;
  if (at + 3 >= room) return;
  snprintf(res->detail + at, room - at, "%s%s", at ? "; " : "", text);
}

static void attribute_one(rf_launch_checks *lc, rf_arena *a, judge_ctx *jc, pending *p) {
  const rf_case *c = p->bc->c;
  const int s0 = c->sched, s1 = rf_checks_repeat_sched(p);
  const unsigned char *o0 = rf_arena_host(a, p->out_slot[0]);
  unsigned char *o1 = malloc(p->ob);
  if (!o1) return;
  memcpy(o1, rf_arena_host(a, p->out_slot[1]), p->ob);
  char msg[sizeof p->fail_detail[0]];
  rf_result shown;       /* the run that shows the cause, judged */
  memset(&shown, 0, sizeof shown);
  int cause = CAUSE_NONE, judged = 0;
  const unsigned char *now_bits = rf_arena_host(a, p->out_slot[1]);
  /* 1. Run 0's conditions, after the other shape and run 1: a difference is the launches. A
   * failure at launch where run 0 launched cleanly is one too. */
  rf_verdict vd = rerun(a, p, s0, RF_POISON_BITS, msg, sizeof msg);
  if (vd != RF_V_PASS || memcmp(now_bits, o0, p->ob) != 0) {
    cause = CAUSE_STATE;
  } else {
    /* 2. Run 1's conditions (its schedule, zeroed scratch) after a launch of its own shape,
     * not of another shape: a difference is the launch just before. */
    vd = rerun(a, p, s1, 0, msg, sizeof msg);
    if (vd != RF_V_PASS) {
      cause = CAUSE_STATE;
    } else if (memcmp(now_bits, o1, p->ob) != 0) {
      cause = CAUSE_STATE_FIRST;
      memcpy(image_of(a, p->out_slot[1]), o1, p->ob);   /* run 1's bits are what it shows */
    } else if (p->sb) {
      /* 3. Run 0's schedule with zeroed scratch against run 0: the scratch's contents alone
       * (for a variant not declared deterministic run 1's schedule is run 0's: step 2 was
       * that run). */
      if (s1 != s0) vd = rerun(a, p, s0, 0, msg, sizeof msg);
      if (vd != RF_V_PASS || memcmp(now_bits, o0, p->ob) != 0) cause = CAUSE_SCRATCH;
    } else if (s1 == s0) {
      /* Same schedule, no scratch, and yet other bits from one launch to the next. */
      cause = CAUSE_STATE;
    }
  }
  if (cause != CAUSE_NONE)
    judged = judge_run(a, jc, p, 1, cause == CAUSE_STATE_FIRST ? RF_V_PASS : vd, msg, &shown) == 0;
  free(o1);
  if (cause == CAUSE_NONE) return;
  lc->attributed++;
  rf_result *res = p->res;
  char shape[96], was[96], now[96], text[sizeof res->detail];
  other_text(&p->other, shape, sizeof shape);
  summary(&shown, judged, now, sizeof now);
  /* Run 0's own result (res may hold run 1's failure or the repeat's verdict). */
  rf_result r0;
  const int r0_judged = judge_run(a, jc, p, 0, RF_V_PASS, "", &r0) == 0;
  const int run0_failed = r0_judged ? r0.verdict != RF_V_PASS
                                    : res->verdict != RF_V_PASS &&
                                          res->verdict != RF_V_NONDETERMINISTIC;
  summary(&r0, r0_judged, was, sizeof was);
  if (cause == CAUSE_SCRATCH) {
    snprintf(text, sizeof text, "scratch is read before it is written: under the same "
             "schedule the case gives %s with scratch poisoned (0x%08X in every word) and %s "
             "with scratch zeroed (launch must write scratch before reading it)", was,
             (unsigned)RF_POISON_BITS, now);
    if (run0_failed) {
      append(res, text);
    } else {
      res->verdict = RF_V_LAUNCH_CONTRACT;
      snprintf(res->detail, sizeof res->detail, "%s", text);
    }
    return;
  }
  if (cause == CAUSE_STATE)
    snprintf(text, sizeof text, "it depends on the launches before it: under the same "
             "schedule the case gives %s, and %s after a launch of another shape (%s) and one "
             "of its own; the variant keeps state between launches (a __device__ variable, a "
             "static in its launch function) and the earlier launch's shape matters", was, now,
             shape);
  else
    snprintf(text, sizeof text, "it depends on the launch before it: right after a launch of "
             "another shape (%s) the case gives %s, and other bits right after one of its own "
             "shape under the same schedule and scratch; the variant keeps state between "
             "launches (a __device__ variable, a static in its launch function) and the "
             "earlier launch's shape matters", shape, now);
  if (run0_failed) {
    append(res, text);
    return;
  }
  /* Run 0 passed: the run that shows the state decides the verdict where it fails; else the
   * bits alone (a variant declared deterministic: nondeterministic; one that is not declared
   * so may give other bits, and they were within its bound). */
  if (judged && shown.verdict != RF_V_PASS) {
    res->verdict = shown.verdict;
    res->err = shown.err;
    res->bound = shown.bound;
    res->ratio = shown.ratio;
    res->got = shown.got;
    res->want = shown.want;
    res->got_index = shown.got_index;
    res->want_index = shown.want_index;
    res->rule = shown.rule;
  } else if (p->v->deterministic) {
    res->verdict = RF_V_NONDETERMINISTIC;
  } else {
    return;
  }
  snprintf(res->detail, sizeof res->detail, "%s", text);
}

void rf_checks_attribute(rf_launch_checks *lc, rf_arena *a, judge_ctx *jc, pending *ps,
                         size_t n) {
  jc->may_upgrade = 1;
  for (size_t i = 0; i < n; i++) {
    pending *p = &ps[i];
    if (p->runs < 2 || !p->ob || p->bc->sparse || p->fail[0] != RF_V_PASS ||
        p->fail[1] != RF_V_PASS)
      continue;
    const rf_verdict v = p->res->verdict;
    /* Launch-time results (a race, a breach of the contract, a crash...) stand. */
    if (v != RF_V_PASS && v != RF_V_WRONG && v != RF_V_NONFINITE && v != RF_V_UNWRITTEN &&
        v != RF_V_NONDETERMINISTIC)
      continue;
    if (rf_dev_lost()) return;
    if (rf_arena_fetch_range(a, p->out_slot[0], p->out_slot[1]) ||
        (p->sb && rf_arena_fetch_range(a, p->scratch_slot[0], p->scratch_slot[0])))
      continue;
    if (memcmp(rf_arena_host(a, p->out_slot[0]), rf_arena_host(a, p->out_slot[1]), p->ob) == 0)
      continue;
    attribute_one(lc, a, jc, p);
  }
}

/* ---- the contract on GPUs: stream capture ----------------------------------------------- */
static int probed(const rf_launch_checks *lc, const rf_variant *v) {
  for (size_t i = 0; i < lc->n_probed; i++)
    if (lc->probed[i] == v) return 1;
  return 0;
}

void rf_checks_probe(rf_launch_checks *lc, const rf_arena *a, pending *ps, size_t n) {
  for (size_t i = 0; i < n; i++) {
    pending *p = &ps[i];
    p->probe_fail = RF_V_PASS;
    if (probed(lc, p->v) || lc->n_probed == RF_VARIANT_CAPACITY) continue;
    void *stream = NULL;
    if (rf_dev_contract_probe_begin(&stream)) return;   /* no capture: no probe */
    rf_launch_args args = {.x = p->bc->dev_x, .out = rf_arena_dev(a, p->out_slot[0]),
                           .scratch = p->sb ? rf_arena_dev(a, p->scratch_slot[0]) : NULL,
                           .stream = stream, .cfg = p->cfg};
    const int e = p->v->launch(&args);
    const int ce = rf_dev_contract_probe_end();
    lc->probed[lc->n_probed++] = p->v;
    lc->probes++;
    if (!e && !ce) continue;
    const int why = e ? e : ce;
    p->probe_fail = RF_V_LAUNCH_CONTRACT;
    snprintf(p->probe_detail, sizeof p->probe_detail,
             "launch contract: the launch fails under stream capture of a->stream (%s): a "
             "launch or copy on the default stream, an allocation or a synchronisation inside "
             "launch (checked on the variant's first launch in the process)",
             rf_dev_error_string(why));
  }
}

/* The op table's functions (op_table.h): each op's host oracle and judge, named by its row of
 * ops.def. The judges themselves are judge.c's and judge_log.c's; these adapters read a
 * variant's output as its op writes it. */
#include <stdio.h>
#include <string.h>
#include "op_table.h"
#include "judge.h"
#include "model/dtype.h"
#include "model/gen.h"
#include "kernels/harness/verdict_device.h"

/* ---- oracles ----------------------------------------------------------------------------- */
static void oracle_sum(rf_oracle_ctx *oc, const rf_case *c, const float *x, uint64_t elems,
                       oracle_answer *o) {
  (void)oc, (void)c;
  rf_xsum_init(&o->xs);
  rf_xsum_add(&o->xs, x, elems);
  rf_sum_facts_compute(x, elems, &o->facts);
}

static void oracle_maxarg(rf_oracle_ctx *oc, const rf_case *c, const float *x, uint64_t elems,
                          oracle_answer *o) {
  (void)oc, (void)c;
  o->argmax_index = rf_oracle_argmax(x, elems, &o->max_value);
  o->first_nan = rf_oracle_first_nan(x, elems);
}

/* min and argmin fill the same fields with the minimum (the judges of max and argmax hold an
 * output to "the extremum", whichever it is: oracle_answer in runner_internal.h). */
static void oracle_minarg(rf_oracle_ctx *oc, const rf_case *c, const float *x, uint64_t elems,
                          oracle_answer *o) {
  (void)oc, (void)c;
  o->argmax_index = rf_oracle_argmin(x, elems, &o->max_value);
  o->first_nan = rf_oracle_first_nan(x, elems);
}

static void oracle_lse(rf_oracle_ctx *oc, const rf_case *c, const float *x, uint64_t elems,
                       oracle_answer *o) {
  (void)elems;
  rf_oracle_lse_case(oc, c, x, o);
}

#define oracle_softmax rf_oracle_softmax_case

/* ---- judges ------------------------------------------------------------------------------ */
static void judge_sum(judge_ctx *jc, const pending *p, const void *got, rf_result *res) {
  (void)jc;
  const rf_dtype ot = p->v->out_dtype;
  rf_judge_sum_typed(p->bc->o, &p->plan, ot, p->v->contract, rf_dtype_load(ot, got, 0), res);
}

static void judge_max(judge_ctx *jc, const pending *p, const void *got, rf_result *res) {
  (void)jc;
  rf_judge_max(p->bc->o, p->v->contract, rf_dtype_load(p->v->out_dtype, got, 0), res);
}

static void judge_argmax(judge_ctx *jc, const pending *p, const void *got, rf_result *res) {
  (void)jc;
  /* either layout (the variant's index_bits) as one (value, 64-bit index) */
  const rf_argmax_out64 g = rf_argmax_read(got, p->v->index_bits);
  rf_judge_argmax(p->bc->o, p->bc->c, p->bc->dev_gen ? NULL : p->bc->x, p->v->contract, &g, res);
}

/* A 16-bit output as floats (exact) for the row judges, in the judge's buffer; NULL (and a
 * verdict) when the host has no memory for it. */
static const float *got_as_floats(judge_ctx *jc, const pending *p, const void *got,
                                  rf_result *res) {
  const rf_dtype ot = p->v->out_dtype;
  if (ot == RF_DTYPE_F32) return got;
  const size_t n = rf_runner_output_elems(p->bc->c);
  float *g = rf_host_buf_get(&jc->got_f32, (n + 1) * sizeof(float));
  if (!g) {
    res->verdict = RF_V_LAUNCH_ERROR;
    snprintf(res->detail, sizeof res->detail, "out of host memory for the output");
    return NULL;
  }
  for (size_t i = 0; i < n; i++) g[i] = rf_dtype_load(ot, got, i);
  return g;
}

static void judge_softmax(judge_ctx *jc, const pending *p, const void *got, rf_result *res) {
  const rf_dtype ot = p->v->out_dtype;
  const float *g = got_as_floats(jc, p, got, res);
  if (!g) return;
  if (ot != RF_DTYPE_F32) rf_judge_softmax_typed(jc, p->bc, &p->plan, ot, g, res);
  else rf_judge_softmax(jc, p->bc, &p->plan, g, res);
}

static void judge_lse(judge_ctx *jc, const pending *p, const void *got, rf_result *res) {
  const float *g = got_as_floats(jc, p, got, res);
  if (g) rf_judge_lse(jc, p->bc, &p->plan, p->v->out_dtype, g, res);
}

/* ---- the table --------------------------------------------------------------------------- */
static const rf_op_row rows[RF_OP_COUNT] = {
#define RF_OP_ROW(id, outputs, pair, dev, check, oracle, judge) \
  [RF_OP_##id] = {oracle_##oracle, judge_##judge, RF_VD_CHECK_##check,                  \
                  RF_VD_CHECK_##check == RF_VD_CHECK_MIN ||                               \
                      RF_VD_CHECK_##check == RF_VD_CHECK_ARGMIN},
#include "ops.def"
#undef RF_OP_ROW
};

static void oracle_none(rf_oracle_ctx *oc, const rf_case *c, const float *x, uint64_t elems,
                        oracle_answer *o) {
  (void)oc, (void)c, (void)x, (void)elems, (void)o;
}

static void judge_none(judge_ctx *jc, const pending *p, const void *got, rf_result *res) {
  (void)jc, (void)got;
  res->verdict = RF_V_WRONG;
  snprintf(res->detail, sizeof res->detail, "op %d has no judge", (int)p->bc->c->op);
}

const rf_op_row *rf_op_row_of(rf_op op) {
  static const rf_op_row none = {oracle_none, judge_none, RF_VD_CHECK_NONE, 0};
  return (unsigned)op < RF_OP_COUNT && rows[op].oracle ? &rows[op] : &none;
}

int rf_oracle_from_markers(const rf_case *c) {
  return rf_dist_is_sparse(c->dist) && !rf_op_has_rows(c->op);
}

/* A 1-D case of a sparse distribution from its markers alone (model/gen.h): the background is
 * +0, so the markers plus one +0 where the first background element stands give the n
 * elements' sum and facts, their extremum, and (a tie keeping the lowest index) the index of
 * any background extremum. The op's own oracle runs on that short list and its indices are
 * mapped back to positions. No pass over n: n may be far beyond memory. */
static void oracle_from_markers(rf_oracle_ctx *oc, const rf_case *c, uint64_t elems,
                                oracle_answer *o) {
  uint64_t pos[RF_GEN_MARKERS_MAX + 1];
  float val[RF_GEN_MARKERS_MAX + 1];
  unsigned m = rf_gen_marker_list(c, pos, val);
  if (m < elems) {   /* the first index that is not a marker (pos is sorted) */
    uint64_t bg = 0;
    unsigned k = 0;
    while (k < m && pos[k] == bg) { k++; bg++; }
    for (unsigned j = m; j > k; j--) { pos[j] = pos[j - 1]; val[j] = val[j - 1]; }
    pos[k] = bg;
    val[k] = 0.0f;
    m++;
  }
  o->argmax_index = o->first_nan = -1;   /* a sum's oracle leaves them */
  rf_op_row_of(c->op)->oracle(oc, c, val, m, o);
  if (o->argmax_index >= 0 && o->argmax_index < (int64_t)m)
    o->argmax_index = (int64_t)pos[o->argmax_index];
  if (o->first_nan >= 0 && o->first_nan < (int64_t)m) o->first_nan = (int64_t)pos[o->first_nan];
}

void rf_compute_oracle(rf_oracle_ctx *oc, const rf_case *c, const float *x, uint64_t elems,
                       oracle_answer *o) {
  if (rf_oracle_from_markers(c)) {
    oracle_from_markers(oc, c, elems, o);
    return;
  }
  rf_op_row_of(c->op)->oracle(oc, c, x, elems, o);
}

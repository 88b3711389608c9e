/* The exact answer of a case and the verdict of each variant's output against it, within
 * the bound derived from the variant's plan (runner_internal.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "runner_internal.h"
#include "backend.h"
#include "judge.h"
#include "model/dtype.h"
#include "oracle/softmax_double.h"
#include "oracle/softmax_special.h"
#include "model/gen.h"

/* Softmax's exact answer (op_table.c): the double oracle per row, MPFR for the rows it refuses. */
void rf_oracle_softmax_case(rf_oracle_ctx *oc, const rf_case *c, const float *x, uint64_t elems,
                            oracle_answer *o) {
  /* Double precision first (~100x faster than MPFR); MPFR for the rows it refuses (NaN
   * rows, softmax_special.h: MPFR fills them) and, later, for rows the judge cannot decide
   * within the double oracle's margin (judge_softmax). */
  o->y = rf_host_buf_get(&oc->y_exact, elems * sizeof(double));
  o->row_rel = rf_host_buf_get(&oc->row_rel, (size_t)c->rows * sizeof(double));
  o->row_mpfr = rf_host_buf_get(&oc->row_mpfr, c->rows);
  if (!elems) return;
  for (uint32_t i = 0; i < c->rows; i++) {
    const float *xr = x + (size_t)i * c->cols;
    double *yr = o->y + (size_t)i * c->cols;
    o->row_rel[i] = oc->mpfr_only ? -1 : rf_oracle_softmax_row_double(xr, c->cols, yr);
    o->row_mpfr[i] = o->row_rel[i] < 0;
    if (o->row_mpfr[i]) {
      rf_oracle_softmax_row(xr, c->cols, yr, NULL, NULL);
      oc->counts.softmax_rows_mpfr++;
    } else {
      oc->counts.softmax_rows_double++;
    }
  }
}

void rf_oracle_ctx_free(rf_oracle_ctx *oc) {
  rf_host_buf_free(&oc->y_exact);
  rf_host_buf_free(&oc->row_rel);
  rf_host_buf_free(&oc->row_mpfr);
  rf_host_buf_free(&oc->lse_rows);
  rf_host_buf_free(&oc->lse_margin);
}

void rf_judge_ctx_free(judge_ctx *jc) {
  rf_host_buf_free(&jc->rel);
  rf_host_buf_free(&jc->rel_kernel);
  rf_host_buf_free(&jc->got_f32);
}

/* ---- comparisons ------------------------------------------------------------------------ */
static double ratio_of(double err, double bound) {
  if (err == 0) return 0;
  if (bound == 0) return INFINITY;
  return err / bound;
}

static int same_float(float a, float b) { return a == b || (isnan(a) && isnan(b)); }

void rf_judge_sum_exact(const rf_xsum *exact, const rf_sum_facts *facts, const rf_plan *plan,
                        const rf_sum_model *model, uint32_t contract, float got,
                        rf_result *res) {
  rf_sum_bound b;
  rf_bound_sum_model(plan, facts, model, &b);
  res->got = got;
  res->want = rf_xsum_round_f64(exact);
  res->bound = b.bound;
  res->abs_sum = facts->abs_sum_up;
  res->probabilistic = b.probabilistic;
  res->verdict = RF_V_PASS;
  if (!facts->all_finite) {
    /* Non-finite inputs: the IEEE result (inf, -inf or NaN) is the only right answer. */
    float want = rf_xsum_round_f32(exact);
    int ok = same_float(got, want);
    res->err = ok ? 0 : INFINITY;
    res->ratio = ok ? 0 : INFINITY;
    res->verdict = ok ? RF_V_PASS : isfinite(got) ? RF_V_WRONG : RF_V_NONFINITE;
    if (!ok)
      snprintf(res->detail, sizeof res->detail, "got %.9g want %.9g (non-finite input)",
               (double)got, (double)want);
    return;
  }
  if (!isfinite(got)) {
    /* Partial sums may overflow in some orders: ±inf, or NaN from opposite infinities in
     * two subtrees, is then a legitimate result (docs/TOLERANCES.md). */
    if (b.overflow_possible) {
      snprintf(res->detail, sizeof res->detail, "%g accepted: partial sums may overflow", got);
      return;
    }
    res->verdict = RF_V_NONFINITE;
    res->err = INFINITY;
    res->ratio = INFINITY;
    snprintf(res->detail, sizeof res->detail, "got %.9g, a finite sum expected", (double)got);
    return;
  }
  if (!facts->any_nonzero) {
    /* Only zeros (or nothing): the IEEE result is exact, and its sign is decided:
     * -0 when every term is -0, else +0 (docs/ORACLE.md, "Sum"). Only a variant whose
     * contract says so is held to the sign: a sum started from +0 (CUB's T{}, most textbook
     * kernels) gives +0 for a sum of only -0 and is correct by the default contract. */
    float want = facts->all_neg_zero ? -0.0f : 0.0f;
    int ok = got == 0 && (!(contract & RF_CONTRACT_SIGNED_ZERO) || signbit(got) == signbit(want));
    res->want = want;
    res->err = ok ? 0 : got == 0 ? 0 : fabs((double)got);
    res->ratio = ok ? 0 : INFINITY;
    res->verdict = ok ? RF_V_PASS : RF_V_WRONG;
    if (!ok && got == 0) res->rule = RF_RULE_SIGNED_ZERO;   /* only the sign differs */
    if (!ok && got == 0)
      snprintf(res->detail, sizeof res->detail, "got %s0, the exact sum of %s is %s0 "
               "(contract signed-zero)", signbit(got) ? "-" : "+",
               facts->all_neg_zero ? "only -0" : "zeros not all -0", signbit(want) ? "-" : "+");
    else if (!ok)
      snprintf(res->detail, sizeof res->detail, "got %.9g, the exact sum of only zeros is %s0",
               (double)got, signbit(want) ? "-" : "+");
    return;
  }
  res->err = rf_xsum_abs_err_up(exact, got);
  res->ratio = ratio_of(res->err, b.bound);
  res->verdict = rf_sum_within(&b, res->err) ? RF_V_PASS : RF_V_WRONG;
  if (res->verdict == RF_V_WRONG)   /* what differs, as the max and argmax rows say it */
    snprintf(res->detail, sizeof res->detail, "got %.9g want %.17g: error %.3g > bound %.3g",
             (double)got, res->want, res->err, res->bound);
  /* Above the probabilistic level but within the bound: worth a look in the study. */
  res->suspicious = res->verdict == RF_V_PASS && res->err > b.probabilistic;
}

void rf_judge_sum_exact_typed(const rf_xsum *exact, const rf_sum_facts *facts,
                              const rf_plan *plan, const rf_sum_model *model, rf_dtype t,
                              uint32_t contract, float got, rf_result *res) {
  rf_judge_sum_exact(exact, facts, plan, model, contract, got, res);
  /* Non-finite inputs, only zeros: the IEEE result in any type is the float32 one (inf, NaN
   * and signed zeros convert exactly); and overflowing float32 partial sums stay accepted. */
  if (t == RF_DTYPE_F32 || !facts->all_finite || !facts->any_nonzero) return;
  rf_sum_bound b;
  rf_bound_sum_model(plan, facts, model, &b);
  rf_sum_out_range rg;
  rf_bound_sum_output(&b, rf_xsum_round_f64(exact), t, &rg);
  /* The bound reported is the output type's whatever the variant returned: an accepted
   * overflow (below) kept the float32 bound, so one case's bound depended on the order its
   * atomics ran in (the GPU's host and device pipelines reported 5.0e33 and 2.6e34 for the
   * same bf16 case, docs/RESULTS.md, seventh session). */
  res->bound = rg.bound;
  if (!isfinite(got) && res->verdict == RF_V_PASS) return;
  res->err = isnan(got) ? INFINITY : rf_xsum_abs_err_up(exact, got);
  res->ratio = ratio_of(res->err, rg.bound);
  const int in_range = got >= rg.lo && got <= rg.hi;
  res->verdict = in_range ? RF_V_PASS : isfinite(got) ? RF_V_WRONG : RF_V_NONFINITE;
  res->detail[0] = '\0';
  if (!in_range)
    snprintf(res->detail, sizeof res->detail, "got %.9g, the %s rounding of the float32 sum "
             "allows [%.9g, %.9g]", (double)got, rf_dtype_name(t), rg.lo, rg.hi);
  else if (isinf(got))
    snprintf(res->detail, sizeof res->detail, "%g accepted: the sum overflows %s",
             (double)got, rf_dtype_name(t));
  res->suspicious = 0;
}

void rf_judge_sum_typed(const oracle_answer *o, const rf_plan *plan, rf_dtype t,
                        uint32_t contract, float got, rf_result *res) {
  rf_judge_sum_exact_typed(&o->xs, &o->facts, plan, rf_backend.sum_model, t, contract, got,
                           res);
}

rf_maxarg_want rf_judge_maxarg_want(float max_value, int64_t argmax_index, int64_t first_nan,
                                    uint32_t contract) {
  if ((contract & RF_CONTRACT_NAN_PROPAGATES) && first_nan >= 0)
    return (rf_maxarg_want){NAN, first_nan};
  return (rf_maxarg_want){max_value, argmax_index};
}

void rf_judge_max_exact(float want, float got, rf_result *res) {
  res->got = got;
  res->want = want;
  res->err = same_float(got, want) ? 0 : 1;
  res->ratio = ratio_of(res->err, 0);
  /* A NaN where a number was due is `nonfinite`; any other mismatch, an infinity where a
   * finite maximum was due included (-inf from a fold that never saw a value), is `wrong`. */
  res->verdict = !res->err ? RF_V_PASS
                 : isnan(got) && !isnan(want) ? RF_V_NONFINITE : RF_V_WRONG;
  if (res->err)
    snprintf(res->detail, sizeof res->detail, "got %.9g want %.9g", (double)got,
             (double)want);
}

void rf_judge_max(const oracle_answer *o, uint32_t contract, float got, rf_result *res) {
  const rf_maxarg_want w = rf_judge_maxarg_want(o->max_value, o->argmax_index, o->first_nan,
                                                contract);
  rf_judge_max_exact(w.value, got, res);
  /* A mismatch on an input with a NaN: the NaN rule decides what was due. */
  if (res->err && o->first_nan >= 0)
    res->rule = contract & RF_CONTRACT_NAN_PROPAGATES ? RF_RULE_NAN_PROPAGATES : RF_RULE_NAN_IGNORED;
  if (res->err && isnan(w.value) && o->first_nan >= 0 && (contract & RF_CONTRACT_NAN_PROPAGATES))
    snprintf(res->detail, sizeof res->detail, "got %.9g want NaN (contract nan-propagates: "
             "x[%lld] is NaN)", (double)got, (long long)o->first_nan);
  else if (res->err && isnan(w.value) && o->first_nan >= 0)   /* nan-ignored: only NaN */
    snprintf(res->detail, sizeof res->detail, "got %.9g want NaN (contract nan-ignored: every "
             "element is NaN%s)", (double)got,
             isinf(got) ? "; a fold started from an infinity returns it" : "");
}

void rf_judge_argmax_exact(float want_value, int64_t want_index, const rf_argmax_out64 *got,
                           uint32_t contract, float at_got, rf_result *res) {
  res->got = got->value;
  res->want = want_value;
  res->got_index = got->index;
  res->want_index = want_index;
  int ok = got->index == want_index && same_float(got->value, want_value);
  /* Any index of a tie, by contract: the element there equals the maximum (IEEE ==, so -0
   * and +0 tie) and the value returned is that element's. NaN has no tie (first NaN). */
  const int tie = !ok && (contract & RF_CONTRACT_TIE_ANY) && want_index >= 0 &&
                  !isnan(want_value) && got->index >= 0 && at_got == want_value &&
                  same_float(got->value, at_got);
  ok = ok || tie;
  res->err = ok ? 0 : 1;
  res->ratio = ratio_of(res->err, 0);
  res->verdict = ok ? RF_V_PASS : RF_V_WRONG;
  if (ok) return;
  /* The rule that decided it: a tie's where the value returned equals the maximum due at
   * another index (rf_judge_argmax names NaN's rule for an input with a NaN). */
  if (got->index != want_index && got->value == want_value)
    res->rule = contract & RF_CONTRACT_TIE_ANY ? RF_RULE_TIE_ANY : RF_RULE_TIE_FIRST;
  /* What differs, index and value, even when the values tie (the contract names the rule). */
  snprintf(res->detail, sizeof res->detail,
           "got index %lld value %.9g, want index %lld value %.9g (contract %s, %s)",
           (long long)got->index, (double)got->value, (long long)want_index,
           (double)want_value,
           contract & RF_CONTRACT_NAN_PROPAGATES ? "nan-propagates" : "nan-ignored",
           contract & RF_CONTRACT_TIE_ANY ? "tie-any" : "tie-first");
}

void rf_judge_argmax(const oracle_answer *o, const rf_case *c, const float *x,
                     uint32_t contract, const rf_argmax_out64 *got, rf_result *res) {
  const rf_maxarg_want w = rf_judge_maxarg_want(o->max_value, o->argmax_index, o->first_nan,
                                                contract);
  /* The element at the returned index, for a tie-any contract: from the host input when it
   * was made here, else from the generator (rf_gen_one: the same bits, one element). */
  float at_got = NAN;
  if ((contract & RF_CONTRACT_TIE_ANY) && got->index >= 0 &&
      (uint64_t)got->index < rf_case_elems(c) && got->index != w.index)
    at_got = x ? x[got->index] : rf_gen_one(c, (uint64_t)got->index);
  rf_judge_argmax_exact(w.value, w.index, got, contract, at_got, res);
  if (res->err && o->first_nan >= 0)   /* an input with a NaN: its rule decides what is due */
    res->rule = contract & RF_CONTRACT_NAN_PROPAGATES ? RF_RULE_NAN_PROPAGATES : RF_RULE_NAN_IGNORED;
}


/* The exp a softmax variant's plan declares, as this backend computes it: the library expf
 * (backend.c), or a fast intrinsic as the hardware (or the simulated target) computes it. */
static const rf_exp_model *exp_model_for(const rf_plan *plan) {
  return plan->exp == RF_EXP_FAST ? rf_backend_fast_exp() : rf_backend.exp_model;
}
const rf_exp_model *rf_judge_exp_model(const rf_plan *plan) { return exp_model_for(plan); }

/* The worst element of one softmax row and the row's verdict, kept apart from the result
 * until the row is decided (a row may be judged again after an MPFR upgrade). */
typedef struct {
  rf_verdict v;
  double ratio, err, bound, want;
  float got;
  long long index;
  char detail[160];
  rf_rule rule;   /* a failing masked row: the contract rule that decided it */
} row_judgement;

/* |Σ_j ŷ_j - 1| <= bound, decided in double when it is clearly so (the exact sum and its MPFR
 * rounding cost ~1 us a row). The recursive double sum s of finite terms is within
 * γ_{cols-1} Σ|ŷ_j| <= 1.01 (cols - 1) 2^-53 Σ|ŷ_j| of the exact one (Higham 2002, §4.2;
 * cols <= 2^24), and s - 1 and the products round by at most 2^-52 relative: the test below
 * leaves a factor (1 + 2^-40) of room for them. 0 means "ask the exact sum". */
static int row_sum_surely_within(const float *y, uint32_t cols, double bound) {
  double s = 0, a = 0;
  for (uint32_t j = 0; j < cols; j++) {
    s += y[j];
    a += fabs((double)y[j]);
  }
  double err = 1.01 * (double)cols * 0x1p-53 * a;
  return (fabs(s - 1.0) + err) * (1 + 0x1p-40) < bound;
}

/* Judges row i against the oracle's y for it. Returns 1 when some element is within the
 * double oracle's margin of its bound (RF_SM_UNSURE): the row needs MPFR. */
static int judge_row(judge_ctx *jc, const batch_case *bc, const rf_plan *plan, rf_dtype ot,
                     uint32_t contract, uint32_t i, const float *got, row_judgement *out) {
  const rf_oracle_ctx *oc = jc->oc;
  const oracle_answer *o = bc->o;
  uint32_t cols = bc->c->cols;
  const float *xr = bc->x + (size_t)i * cols, *gr = got + (size_t)i * cols;
  const double *yr = o->y + (size_t)i * cols;
  /* MPFR rows, and rows the double oracle gets correctly rounded (constant rows: RN(1/cols),
   * rel 2^-53), are as good as exact: judged with the folded check, never upgraded. */
  const int exact = o->row_mpfr[i] || o->row_rel[i] <= 0x1p-53;
  rf_softmax_bound b = {.rel = rf_host_buf_get(&jc->rel, (size_t)cols * sizeof(double)),
                        .rel_kernel = exact ? NULL
                                    : rf_host_buf_get(&jc->rel_kernel, (size_t)cols * sizeof(double))};
  if (exact) rf_bound_softmax_row(plan, exp_model_for(plan), xr, cols, yr, &b);
  else rf_bound_softmax_row_rel(plan, exp_model_for(plan), xr, cols, yr, o->row_rel[i],
                                RF_SM_DOUBLE_ABS, &b);
  rf_bound_softmax_output(&b, cols, ot);   /* a 16-bit output's final rounding */
  *out = (row_judgement){.v = RF_V_PASS, .ratio = -1};
  if (!exact && oc->upgrade_all) return 1;
  /* A row of only -inf: NaN (0/0, torch.softmax), or 0 under the masked-row contract. */
  int masked = cols > 0 && isnan(yr[0]);
  for (uint32_t j = 0; j < cols && masked; j++) masked = rf_smr_masked(xr[j]);
  const int masked_zero = masked && (contract & RF_CONTRACT_MASKED_ROW_ZERO);
  for (uint32_t j = 0; j < cols; j++) {
    double err;
    rf_verdict v = RF_V_PASS;
    if (isnan(yr[j])) {                       /* a NaN row (softmax_special.h) */
      err = (masked_zero ? rf_smr_masked_row_ok(gr[j]) : rf_smr_nan_row_ok(gr[j])) ? 0 : INFINITY;
      v = err ? RF_V_WRONG : RF_V_PASS;
      if (v != RF_V_PASS && masked && !out->rule) {   /* the first output the rule fails */
        out->rule = masked_zero ? RF_RULE_MASKED_ROW_ZERO : RF_RULE_MASKED_ROW_NAN;
        out->got = gr[j];
        out->index = (long long)i * cols + j;
      }
    } else if (!isfinite(gr[j])) {
      err = INFINITY;
      v = RF_V_NONFINITE;
    } else {
      err = fabs((double)gr[j] - yr[j]);
      if (exact) {
        v = rf_softmax_within(&b, j, gr[j], yr[j]) ? RF_V_PASS : RF_V_WRONG;
      } else {
        rf_sm_check k = rf_softmax_check(&b, j, gr[j], yr[j]);
        if (k == RF_SM_UNSURE) return 1;
        v = k == RF_SM_PASS ? RF_V_PASS : RF_V_WRONG;
      }
    }
    if (v != RF_V_PASS && (out->v == RF_V_PASS || v == RF_V_NONFINITE)) out->v = v;
    /* The worst element so far, without a division per element: err/allowed > ratio. */
    double allowed = b.rel[j] * yr[j] + b.abs_floor;
    if (err > out->ratio * allowed || out->ratio < 0) {
      double q = ratio_of(err, allowed);
      if (q > out->ratio) {
        out->ratio = q;
        out->err = err;
        out->bound = allowed;
        out->want = yr[j];
        out->got = gr[j];
        out->index = (long long)i * cols + j;
      }
    }
  }
  /* The row-sum bound holds for every y the oracle allows: exceeding it is wrong outright.
   * Only a passing row gets here, so every ŷ_j is finite: one bulk exact sum. */
  if (cols && !isnan(yr[0]) && out->v == RF_V_PASS &&
      !row_sum_surely_within(gr, cols, b.row_sum_bound)) {
    rf_xsum row_sum;
    rf_xsum_init(&row_sum);
    rf_xsum_add(&row_sum, gr, cols);
    double row_err = rf_xsum_abs_err_up(&row_sum, 1.0f);
    if (row_err > b.row_sum_bound) {
      out->v = RF_V_WRONG;
      snprintf(out->detail, sizeof out->detail, "row %u: |sum - 1| = %.3g > row bound %.3g", i,
               row_err, b.row_sum_bound);
    }
  }
  return 0;
}

/* Softmax: every element within its bound (rf_softmax_check against the double oracle, or
 * rf_softmax_within against MPFR), rows whose exact result is NaN compared by IEEE class,
 * and each row's sum within the row-sum bound. */
void rf_judge_softmax(judge_ctx *jc, const batch_case *bc, const rf_plan *plan,
                      const float *got, rf_result *res) {
  rf_judge_softmax_typed(jc, bc, plan, RF_DTYPE_F32, got, res);
}

void rf_judge_softmax_typed(judge_ctx *jc, const batch_case *bc, const rf_plan *plan,
                            rf_dtype ot, const float *got, rf_result *res) {
  rf_oracle_ctx *oc = jc->oc;
  oracle_answer *o = bc->o;
  uint32_t rows = bc->c->rows, cols = bc->c->cols;
  /* The variant's contract (the runner and the re-checks set res->variant before judging). */
  const uint32_t contract = res->variant ? res->variant->contract : 0;
  res->verdict = RF_V_PASS;
  res->ratio = -1;   /* so the first element is recorded even when every error is 0 */
  for (uint32_t i = 0; i < rows; i++) {
    row_judgement rj;
    if (judge_row(jc, bc, plan, ot, contract, i, got, &rj)) {
      if (!jc->may_upgrade) {   /* a parallel judge: the serial pass redoes this variant */
        jc->needs_upgrade = 1;
        return;
      }
      /* Too close to the bound for the double oracle: this row in MPFR, for every variant. */
      rf_oracle_softmax_row(bc->x + (size_t)i * cols, cols, o->y + (size_t)i * cols, NULL, NULL);
      o->row_mpfr[i] = 1;
      oc->counts.softmax_rows_upgraded++;
      judge_row(jc, bc, plan, ot, contract, i, got, &rj);
    }
    if (rj.v != RF_V_PASS && (res->verdict == RF_V_PASS || rj.v == RF_V_NONFINITE))
      res->verdict = rj.v;
    if (rj.v != RF_V_PASS && rj.rule && !res->rule) res->rule = rj.rule;
    if (rj.ratio > res->ratio) {
      res->ratio = rj.ratio;
      res->err = rj.err;
      res->bound = rj.bound;
      res->got = rj.got;
      res->want = rj.want;
      res->got_index = res->want_index = rj.index;
    }
    if (rj.v != RF_V_PASS && rj.rule && !res->detail[0])   /* what the contract owed */
      snprintf(res->detail, sizeof res->detail, "row %u: a row of only -inf gives %s (contract "
               "%s); got %.9g at col %lld", i, rj.rule == RF_RULE_MASKED_ROW_ZERO ? "0" : "NaN",
               rf_rule_name(rj.rule), (double)rj.got, rj.index - (long long)i * cols);
    if (rj.detail[0]) {   /* a row-sum failure: reported as found */
      snprintf(res->detail, sizeof res->detail, "%s", rj.detail);
      return;
    }
  }
  if (res->ratio < 0) res->ratio = 0;
  if (res->verdict != RF_V_PASS && !res->detail[0])
    snprintf(res->detail, sizeof res->detail, "row %lld col %lld: got %.9g want %.9g",
             res->got_index / (cols ? cols : 1), res->got_index % (cols ? cols : 1),
             (double)res->got, res->want);
}

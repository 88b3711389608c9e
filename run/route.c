/* The route of a case (route.h), decided once: the rules that were spread over the runner's
 * files (the device oracle's, the generator's and the row judge's scopes, the host reasons,
 * the batching and the record tests) in one place, as a table over the policy and the case. */
#include "route.h"
#include "case_outputs.h"
#include "device_scope.h"
#include "backend.h"

/* 0 off, 1 on for every case, 2 (auto, the variable unset) on GPUs for cases of min_elems or
 * more; off on the simulator unless asked for. */
static int mode_of(int is_sim, uint64_t value, int given) {
  if (given) return value != 0;
  return is_sim ? 0 : 2;
}

rf_route_policy rf_route_policy_make(int is_sim, const rf_settings *set) {
  rf_route_policy p;
  p.device_oracle = mode_of(is_sim, set->device_oracle, set->device_oracle_set);
  p.device_gen = mode_of(is_sim, set->device_gen, set->device_gen_set);
  p.device_verdict = mode_of(is_sim, set->device_verdict, set->device_verdict_set);
  /* Below the threshold, the host makes a case's input and answer in microseconds and they
   * travel in the batch's one upload: three more launches would cost more than they save. */
  p.min_elems = set->device_min_elems;
  p.serial = set->serial != 0;
  p.cross_check = set->softmax_oracle == RF_ORACLE_MPFR || set->softmax_oracle == RF_ORACLE_UPGRADE;
  p.dense = rf_backend.limits;
  return p;
}

/* The sparse input (a zeroed buffer with the markers written, sparse_input.c): every sparse
 * 1-D case (answered from its markers in microseconds, whatever n), and a sparse logsumexp
 * case past the backend's dense shapes. Within them its rows go the dense way (made, batched
 * and judged as any row case's): one upload of the whole input, where the sparse buffer takes
 * one upload a marker a row (65537 uploads for 65537 x 1). */
static int sparse_input(const rf_route_policy *p, const rf_case *c) {
  if (!rf_case_is_sparse(c)) return 0;
  return !rf_op_has_rows(c->op) || rf_case_past_dense(c, &p->dense);
}

static int mode_takes(int mode, unsigned long long min_elems, const rf_case *c) {
  return mode == 1 || (mode == 2 && rf_case_elems(c) >= min_elems);
}

/* A row op judged on the device: in the device path's scope (device_scope.h), of any number
 * of rows (judged a chunk at a time, dev_verdicts.c); not with the host cross-checks of
 * REDFUZZ_SOFTMAX_ORACLE (mpfr, upgrade), which the log ops obey too. */
static rf_host_reason row_scope(const rf_route_policy *p, const rf_case *c) {
  if (!rf_device_scope_judges_rows(c) || !p->device_verdict) return RF_HOST_OFF;
  if (p->serial) return RF_HOST_SERIAL;
  if (p->cross_check) return RF_HOST_CROSS_CHECK;
  /* No element: the oracle and judge launches skip empty shapes and write no record. With
   * no output either (no row; softmax and log-softmax rows of no column) the result is the
   * verdict kernel's guards and the empty pass the host judge gives too (rows_from_records);
   * logsumexp's rows of no column each owe a -inf, which only the host judges. */
  if (!rf_case_elems(c) && rf_runner_output_elems(c)) return RF_HOST_EMPTY;
  if (p->device_verdict != 1 && rf_case_elems(c) < p->min_elems) return RF_HOST_SMALL;
  return RF_HOST_NONE;
}

rf_route rf_route_decide(const rf_route_policy *p, const rf_case *c) {
  rf_route r = {RF_INPUT_HOST, RF_ANSWER_HOST, RF_VERDICT_HOST, 0, RF_HOST_NONE};
  int device_answer;
  if (sparse_input(p, c)) {
    /* The markers answer it on the host whatever its size (a 1-D case from the markers, a
     * logsumexp case from its one row); its input is a zeroed buffer of its own (run alone,
     * verdicts on the host from the read-back outputs). */
    r.input = RF_INPUT_SPARSE;
    r.host_reason = p->serial ? RF_HOST_SERIAL : RF_HOST_OFF;
    return r;
  }
  if (rf_op_has_rows(c->op)) {
    /* A row op runs alone: its oracle's buffers are the runner's, and one case fills a batch. */
    r.host_reason = row_scope(p, c);
    device_answer = r.host_reason == RF_HOST_NONE;
    if (device_answer) {
      r.answer = RF_ANSWER_DEVICE_ROWS;
      r.verdict = RF_VERDICT_ROW_SUMMARIES;
    }
  } else {
    r.batchable = !p->serial;
    /* Also in serial mode: the answer, not the verdicts, is made on the device there. */
    device_answer = rf_device_scope_answers(c) && rf_device_scope_answers_n(c) &&
                    mode_takes(p->device_oracle, p->min_elems, c);
    if (device_answer) r.answer = RF_ANSWER_DEVICE;
    /* device_answer with verdicts off: NO_RECORDS after the batch (runner.c) */
    r.host_reason = p->serial                   ? RF_HOST_SERIAL
                  : device_answer               ? RF_HOST_NONE
                  : !p->device_oracle           ? RF_HOST_OFF
                  : !rf_device_scope_answers(c) ? RF_HOST_OP
                  : !rf_device_scope_answers_n(c) ? RF_HOST_HUGE
                                                : RF_HOST_SMALL;
    /* Records need the device's answer in the auto mode; with verdicts on, any answer. */
    if (p->device_verdict && !p->serial && (p->device_verdict == 1 || device_answer))
      r.verdict = RF_VERDICT_RECORDS;
  }
  /* The input made on the device: only with its answer made there too (nothing on the host
   * then reads it but the sampled re-check, which makes it again). */
  if (device_answer && mode_takes(p->device_gen, p->min_elems, c)) r.input = RF_INPUT_DEVICE;
  if (r.host_reason == RF_HOST_NONE && r.input == RF_INPUT_HOST) r.host_reason = RF_HOST_HOST_INPUT;
  return r;
}

/* The op table's functions (ops.def): per op, the host's exact answer and the judge of one
 * output against it. The runner, the device verdicts' host side, the row re-checks and
 * `redfuzz bench` dispatch through it; the data columns (outputs, pair, device scope) are
 * case_outputs.h's. */
#ifndef RF_OP_TABLE_H
#define RF_OP_TABLE_H
#include "runner_internal.h"

/* The exact answer of case c for input x (elems elements) into o. oc: buffers and counters of
 * the row ops' oracles (unused by the 1-D ops, may then be NULL). */
typedef void rf_op_oracle_fn(rf_oracle_ctx *oc, const rf_case *c, const float *x,
                             uint64_t elems, oracle_answer *o);
/* Variant p->v's output `got` (its bytes as the variant wrote them: out_dtype elements, or one
 * rf_argmax_out) against p->bc->o within p->plan's bound, into res. jc: the judging thread's
 * buffers (the row ops only; the 1-D ops take NULL). */
typedef void rf_op_judge_fn(judge_ctx *jc, const pending *p, const void *got, rf_result *res);

typedef struct {
  rf_op_oracle_fn *oracle;
  rf_op_judge_fn *judge;
  uint32_t vd_check;   /* RF_VD_CHECK_* (kernels/harness/verdict_device.h) for f32 outputs */
  int dev_minimum;     /* the device answer's extremum is its minimum (min, argmin) */
} rf_op_row;

/* The row of op (an op beyond the table: a row that answers nothing and judges `wrong`). */
const rf_op_row *rf_op_row_of(rf_op op);
#endif

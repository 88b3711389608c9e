/* What an op's case writes, from the op table's data columns (ops.def): elements a case (one
 * for the 1-D ops, one per row for logsumexp, one per input element for softmax and
 * log-softmax), whether the output is a (value, index) pair, its bytes. A header of its own
 * so that the route (route.c), the device verdicts, the re-checks and `redfuzz bench` read it
 * without the runner. */
#ifndef RF_CASE_OUTPUTS_H
#define RF_CASE_OUTPUTS_H
#include <stddef.h>
#include "model/case.h"
#include "model/dtype.h"
#include "redfuzz/variant.h"

enum { RF_OUTS_ONE, RF_OUTS_ROW, RF_OUTS_ELEM };

typedef struct {
  unsigned char outputs;   /* RF_OUTS_* */
  unsigned char pair;      /* the output is one rf_argmax_out */
  unsigned char dev;       /* the device oracle answers it */
} rf_op_shape;

static inline rf_op_shape rf_op_shape_of(rf_op op) {
  static const rf_op_shape shapes[RF_OP_COUNT] = {
#define RF_OP_ROW(id, outputs, pair, dev, check, oracle, judge) \
  [RF_OP_##id] = {RF_OUTS_##outputs, pair, dev},
#include "ops.def"
#undef RF_OP_ROW
  };
  return (unsigned)op < RF_OP_COUNT ? shapes[op] : (rf_op_shape){RF_OUTS_ONE, 0, 0};
}

static inline size_t rf_runner_output_elems(const rf_case *c) {
  const rf_op_shape s = rf_op_shape_of(c->op);
  return s.outputs == RF_OUTS_ELEM  ? (size_t)c->rows * c->cols
         : s.outputs == RF_OUTS_ROW ? (size_t)c->rows
                                    : 1;
}

/* The bytes a variant writing out_dtype leaves for case c. */
static inline size_t rf_runner_output_bytes(const rf_case *c, rf_dtype out_dtype) {
  if (rf_op_shape_of(c->op).pair) return sizeof(rf_argmax_out);
  return rf_runner_output_elems(c) * rf_dtype_bytes(out_dtype);
}
#endif

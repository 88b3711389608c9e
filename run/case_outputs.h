/* What an op's case writes, from the op table's data columns (ops.def): elements a case (one
 * for the 1-D ops, one per row for logsumexp, one per input element for softmax and
 * log-softmax), whether the output is a (value, index) pair, its bytes. A header of its own
 * so that the route (route.c), the device verdicts, the re-checks and `redfuzz bench` read it
 * without the runner. */
#ifndef RF_CASE_OUTPUTS_H
#define RF_CASE_OUTPUTS_H
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include "model/case.h"
#include "model/dtype.h"
#include "redfuzz/variant.h"

enum { RF_OUTS_ONE, RF_OUTS_ROW, RF_OUTS_ELEM };

typedef struct {
  unsigned char outputs;   /* RF_OUTS_* */
  unsigned char pair;      /* the output is one (value, index) pair: rf_argmax_out, or
                              rf_argmax_out64 for a variant of index_bits 64 */
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

/* The bytes a variant writing out_dtype (and, for a pair, indices index_bits wide:
 * rf_variant.index_bits) leaves for case c. */
static inline size_t rf_runner_output_bytes(const rf_case *c, rf_dtype out_dtype,
                                            uint32_t index_bits) {
  if (rf_op_shape_of(c->op).pair) return rf_argmax_out_bytes(index_bits);
  return rf_runner_output_elems(c) * rf_dtype_bytes(out_dtype);
}

/* A pair as written by a variant of index_bits (rf_argmax_out or rf_argmax_out64, from
 * bytes that need not be aligned), in the one form the judges read: value and a 64-bit
 * index (a 32-bit index sign-extended, so -1 stays -1). */
static inline rf_argmax_out64 rf_argmax_read(const void *got, uint32_t index_bits) {
  rf_argmax_out64 r = {0, 0, 0};
  if (index_bits == 64) {
    memcpy(&r, got, sizeof r);
  } else {
    rf_argmax_out g;
    memcpy(&g, got, sizeof g);
    r.value = g.value;
    r.index = g.index;
  }
  r.pad = 0;
  return r;
}
#endif

/* The ops redfuzz checks. Public: a plugin's variant names its op (include/redfuzz/variant.h),
 * and the case model (model/case.h) builds on it. */
#ifndef RF_OP_H
#define RF_OP_H
#ifdef __cplusplus
extern "C" {
#endif

/* New ops go last (before RF_OP_COUNT): a plugin built earlier keeps its op's value. */
typedef enum {
  RF_OP_SUM, RF_OP_MAX, RF_OP_ARGMAX, RF_OP_SOFTMAX,
  RF_OP_LOGSUMEXP,   /* per row: one float, log Σ_j exp(x_j) */
  RF_OP_LOGSOFTMAX,  /* per row: y_j = x_j - log Σ_k exp(x_k) */
  RF_OP_MIN,         /* 1-D: the smallest element */
  RF_OP_ARGMIN,      /* 1-D: (value, lowest index) of the smallest element, as rf_argmax_out */
  RF_OP_COUNT
} rf_op;

/* The row ops: their cases have a shape rows x cols (and n = 0) instead of a length. */
static inline int rf_op_has_rows(rf_op op) {
  return op == RF_OP_SOFTMAX || op == RF_OP_LOGSUMEXP || op == RF_OP_LOGSOFTMAX;
}

#ifdef __cplusplus
}
#endif
#endif

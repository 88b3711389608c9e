/* Output elements of a case, by op: one (sum, max; argmax's one pair), one per row
 * (logsumexp), one per input element (softmax, log-softmax). A header of its own so that the
 * route (route.c), the device verdicts and the re-checks read it without the runner. */
#ifndef RF_CASE_OUTPUTS_H
#define RF_CASE_OUTPUTS_H
#include <stddef.h>
#include "model/case.h"

static inline size_t rf_runner_output_elems(const rf_case *c) {
  switch (c->op) {
  case RF_OP_SOFTMAX:
  case RF_OP_LOGSOFTMAX: return (size_t)c->rows * c->cols;
  case RF_OP_LOGSUMEXP: return c->rows;
  default: return 1;
  }
}
#endif

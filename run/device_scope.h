/* Which cases the device path makes, solves and judges on GPUs (issue 12), by op and input
 * type alone: the one statement of that scope. A case's route adds the settings and the
 * size threshold (route.c). Every op of every type is in it since the fifth
 * session; the fuzz target's cap on cases outside it (2^16 elements, which the host had to
 * make and judge on every backend) went with the last of them. */
#ifndef RF_DEVICE_SCOPE_H
#define RF_DEVICE_SCOPE_H
#include "model/case.h"
#include "case_outputs.h"

/* 1-D cases of every input type whose op's row of the op table (ops.def, `dev`) says the
 * device oracle answers it: the exact oracle reads f16 and bf16 as the floats they are
 * (kernels/harness/oracle_device.h), and the verdict records judge every output (verdict_device.h). */
static inline int rf_device_scope_answers(const rf_case *c) {
  return rf_op_shape_of(c->op).dev;
}

/* The device oracle's size limit (kernels/harness/oracle_device.h: n < 2^32, its 64-bit
 * argmax key packs a 32-bit index beside the value's key, and its digit sums are bounded for
 * fewer than 2^32 elements). A larger dense 1-D case is answered on the host (host reason
 * HUGE); sparse cases are answered from their markers on the host whatever n (route.c). */
#define RF_DEVICE_ORACLE_MAX_N ((UINT64_C(1) << 32) - 1)
static inline int rf_device_scope_answers_n(const rf_case *c) {
  return c->n <= RF_DEVICE_ORACLE_MAX_N;
}

/* Row ops judged on the device, every input type and every variant's output type: softmax
 * (kernels/harness/softmax_device.h: 16-bit inputs and outputs read exactly, a 16-bit output's
 * bound widened), logsumexp and log-softmax (kernels/harness/log_device.h: 16-bit inputs and
 * outputs read exactly, a 16-bit output decided by the host's range check,
 * oracle/log_row_math.h). */
static inline int rf_device_scope_judges_rows(const rf_case *c) {
  return rf_op_has_rows(c->op);   /* every row op: the 16-bit log ops were the last */
}

#endif

/* Softmax rows with special values (docs/ORACLE.md, "Softmax", policies): exact rules,
 * written once for the MPFR oracle's policy (softmax_oracle.c), the double oracle
 * (softmax_double.c), the host judge (run/judge.c) and the device's
 * (kernels/harness/softmax_device.hip):
 *  - a NaN or +inf anywhere in the row, or a row of only -inf (0/0): every output NaN;
 *  - otherwise the maximum m is finite, and a -inf element has exp(-inf - m) = 0 exactly: its
 *    output is +0 and the row is judged as any other, that element being "deep" in both
 *    bounds (its d̂_j = -inf lies below every threshold; e_j = ê_j = 0, so its error terms
 *    are 0, inside the deep elements' terms). */
#ifndef RF_SOFTMAX_SPECIAL_H
#define RF_SOFTMAX_SPECIAL_H
#include "dir_round.h"   /* RF_DR: host and device code */

/* An element that makes its whole row NaN. */
RF_DR int rf_smr_poisons(float v) { return v != v || v == 1.0f / 0.0f; }
/* The row's outputs are all NaN, given whether an element poisons it and its maximum m over
 * the others (-inf when every element is -inf). */
RF_DR int rf_smr_row_is_nan(int poisoned, float m) { return poisoned || m == -1.0f / 0.0f; }
/* An output of a NaN row is right iff it is a NaN (any payload); any number is wrong. */
RF_DR int rf_smr_nan_row_ok(float got) { return got != got; }
/* A row of only -inf under a variant's masked-row contract (RF_CONTRACT_MASKED_ROW_ZERO,
 * include/redfuzz/variant.h): every output is 0 (either sign), not NaN. Its test on one
 * element (a row is masked when every element passes it) and the output's. */
RF_DR int rf_smr_masked(float v) { return v == -1.0f / 0.0f; }
RF_DR int rf_smr_masked_row_ok(float got) { return got == 0.0f; }
#endif

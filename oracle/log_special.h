/* Logsumexp and log-softmax rows with special values (docs/ORACLE.md, "The contract for
 * special values"): exact rules, written once for the MPFR oracle (logsumexp_oracle.c), the
 * double oracle's refusal (logsumexp_double.c), the judges' check of a special want
 * (log_row_math.h's rf_lsr_check, which run/judge_log.c applies) and the device's oracle and
 * judge (kernels/harness/log_device.hip), as softmax_special.h is for softmax:
 *  - a row is special when it holds a NaN or a +inf, or when no entry is above -inf (only
 *    -inf entries, or cols = 0): no finite maximum to shift by, so no sum to bound;
 *  - logsumexp's want: NaN when the row holds a NaN; else +inf when it holds a +inf; else
 *    (only -inf, or empty) -inf: log of an empty sum;
 *  - log-softmax's want: NaN in every output (inf - inf, or -inf - -inf);
 *  - an output is right iff it is a NaN (any payload) for a NaN want, or equal to an infinite
 *    want; there is no tolerance around a special want.
 * -inf entries in a row with a finite maximum are not special: exp(-inf - m) = 0 exactly,
 * and the row is ordinary or exact (log_row_math.h). Plain data in and out, host and device
 * code (RF_DR). */
#ifndef RF_LOG_SPECIAL_H
#define RF_LOG_SPECIAL_H
#include <stdint.h>
#include <string.h>
#include "dir_round.h"   /* RF_DR: host and device code */
#include "softmax_special.h"   /* rf_smr_poisons, rf_smr_row_is_nan: the special rows */

/* Which rows are special is softmax's rule (softmax_special.h): a row is special exactly when
 * rf_smr_row_is_nan(poisoned, m) holds, poisoned by a NaN or +inf (rf_smr_poisons), m the
 * maximum over the entries that are not NaN (-inf when there is none). One predicate for both
 * families, so that they cannot drift apart. */

/* The quiet NaN of the host's NAN macro (0x7fc00000) as a double, built from its bits so that
 * the device writes the very bits the host oracle writes (0.0 / 0.0 gives the sign-set NaN
 * on x86, which prints as "-nan"). */
RF_DR double rf_lsp_nan(void) {
  const uint64_t b = UINT64_C(0x7ff8000000000000);
  double v;
  memcpy(&v, &b, sizeof v);
  return v;
}

/* Logsumexp's want of a special row, given whether it holds a NaN and a +inf. */
RF_DR double rf_lsp_lse(int has_nan, int has_pinf) {
  return has_nan ? rf_lsp_nan() : has_pinf ? 1.0 / 0.0 : -1.0 / 0.0;
}
/* Every log-softmax output of a special row. */
RF_DR double rf_lsp_y(void) { return rf_lsp_nan(); }

/* A want no tolerance applies to: NaN or ±inf. */
RF_DR int rf_lsp_want_is_special(double want) { return want != want || want - want != 0; }
/* An output against a special want: a NaN for a NaN want, the infinity itself for an
 * infinite one; anything else (a number, the other infinity, a NaN for an infinity) wrong. */
RF_DR int rf_lsp_output_ok(float got, double want) {
  return want != want ? got != got : got == want;
}
#endif

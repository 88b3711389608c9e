/* The exact oracle of sum, max, argmax, min and argmin on the device: integer arithmetic only, so the
 * answer does not depend on the order in which the device's threads meet the elements, and
 * it equals the host oracle's (oracle/exact.h, oracle/bounds.h) bit for bit. It shares no
 * code with the variants under test (a bug there cannot hide in both).
 *
 * How: every finite x_i is m * 2^(s - 149) with an integer m < 2^24 (the host superaccumulator's
 * decomposition, oracle/exact_sum.c). Each block bins its elements by the float's top nine bits
 * (sign and exponent) in LDS: one 64-bit integer add per element. The blocks' bins meet in
 * 512 global (count, mantissa-sum) integer pairs; one last block turns them into the same
 * base-2^32 digits the host keeps, normalises them and rounds them (to float and to double,
 * nearest-even, and Σ|x_i| up to double) with integer operations. The argmax is an integer
 * maximum of (order-preserving key, ~index), so ties go to the lowest index and -0 ties +0;
 * the argmin is the same maximum of (~key, ~index).
 * Integer additions are associative: any schedule gives the same bits. f16 and bf16 inputs are
 * read as the float32 values they are (exactly), so the answer is the float32 oracle's on the
 * converted input (docs/ORACLE.md). */
#ifndef RF_ORACLE_DEVICE_H
#define RF_ORACLE_DEVICE_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

#define RF_ORACLE_DEV_DIGITS 10

/* What the device oracle writes (device memory, read back by the host). Every field is a
 * function of the input's multiset of values and positions only. */
typedef struct {
  /* Σ x_i over the finite x_i, and Σ |x_i|: base-2^32 digits from 2^-149 up, normalised
   * (digits 0..8 in [0, 2^32), the top one signed), as rf_xsum_digits gives them. */
  int64_t sum_w[RF_ORACLE_DEV_DIGITS];
  int64_t abs_w[RF_ORACLE_DEV_DIGITS];
  uint64_t n_pinf, n_ninf, n_nan;
  int64_t argmax_index;  /* lowest index of the maximum, NaN ignored; -1 when none */
  int64_t first_nan;     /* lowest index of a NaN; -1 when none (the NaN-propagating
                            contract's argmax, include/redfuzz/variant.h) */
  int64_t argmin_index;  /* lowest index of the minimum, NaN ignored; -1 when none */
  double sum_f64;        /* RN(Σ x_i) to double; IEEE inf/NaN when non-finite inputs */
  double abs_sum_up;     /* Σ|x_i| over the finite x_i rounded up to double (rf_sum_facts) */
  float sum_f32;         /* RN(Σ x_i) to float, overflow to ±inf (rf_oracle_sum) */
  float max_value;       /* x[argmax_index]; -inf when empty, NaN when only NaN */
  float min_value;       /* x[argmin_index]; +inf when empty, NaN when only NaN */
  int32_t min_exp;       /* rf_sum_facts.min_exp */
  int32_t any_nonzero;   /* rf_sum_facts.any_nonzero */
  int32_t all_finite;    /* rf_sum_facts.all_finite */
  int32_t all_neg_zero;  /* rf_sum_facts.all_neg_zero: n > 0 and every element is -0 */
} rf_oracle_dev_out;

/* Device scratch the oracle needs (the same for every n). */
size_t rf_oracle_dev_scratch_bytes(void);
/* Enqueues the oracle of x[0..n) on `stream` (a hipStream_t, NULL = default): out and
 * scratch are device pointers; nothing is allocated and nothing synchronises. n < 2^32.
 * dtype is an rf_dtype (0 f32, 1 f16, 2 bf16: x then holds the 16-bit encodings,
 * rf_dtype_store's layout): the answer for the exactly converted floats, what
 * rf_oracle_dev_host gives on them. Returns 0, 1 (invalid value) for another dtype or a
 * larger n, or the first launch error (a hipError_t value). */
int rf_oracle_dev_launch_typed(const void *x, uint32_t dtype, uint64_t n, void *scratch,
                               rf_oracle_dev_out *out, void *stream);

/* Host side (oracle_device_check.c). The host oracle's answer for x[0..n) in the same
 * record (rf_xsum, rf_sum_facts_compute, rf_oracle_argmax, rf_oracle_argmin): the reference the device oracle
 * must equal. */
void rf_oracle_dev_host(const float *x, uint64_t n, rf_oracle_dev_out *out);
/* 0 when a and b are the same answer (every field equal; NaN equals NaN), else -1 with the
 * first differing field, both values, in msg. */
int rf_oracle_dev_compare(const rf_oracle_dev_out *want, const rf_oracle_dev_out *got, char *msg,
                          size_t len);

#ifdef __cplusplus
}
#endif
#endif

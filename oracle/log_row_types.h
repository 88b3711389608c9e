/* The plain data of the log ops' per-row formulas (log_row_math.h), apart from them so that
 * logsumexp.h, logsumexp_double.h and the device judge (kernels/harness/log_device.h) can name them
 * without the directed-rounding helpers; the same role as softmax_row_types.h. */
#ifndef RF_LOG_ROW_TYPES_H
#define RF_LOG_ROW_TYPES_H
#include <stdint.h>
#include "softmax_row_types.h"

/* The error of the double log() the double oracle's margin assumes, in ulps of the result
 * against the exact value: glibc's on the host and the simulator, the device's on a GPU
 * (logsumexp_double.c and kernels/harness/log_device.h say where the figures come from; the unit
 * test measures glibc's). */
#define RF_LSE_DOUBLE_LOG_ULPS 2.0

/* One row of the log oracle (logsumexp.h says what each field is). */
typedef struct {
  double lse, log_s, wd;
  float m;
} rf_lse_row;

/* The MPFR oracle's wd lies in [W RF_LSE_WD_REL_LO, W RF_LSE_WD_REL_HI + RF_LSE_WD_ABS_HI]
 * (logsumexp_oracle.c, weighted_spread); the double oracle relies on it. */
#define RF_LSE_WD_REL_LO (1 + 0x1p-21)
#define RF_LSE_WD_REL_HI (1 + 0x1p-18)
#define RF_LSE_WD_ABS_HI 0x1p-899

/* What a double row knows of the true values (logsumexp_double.h). */
typedef struct {
  double err_L, wd_lo, wd_hi;
} rf_lse_margin;

/* A kernel's error bounds for one row (logsumexp.h, rf_bound_lse_row). */
typedef struct {
  double eps_L;
  double lse_bound;
  double y_abs, y_rel;
} rf_lse_bound;

/* What the bound needs of the variant: its plan and exp as softmax's (rf_smr_params; recip_mul
 * unused), and the log it calls, in ulps of the result against the exact value (rf_log_model). */
typedef struct {
  rf_smr_params sm;
  double log_ulps;
} rf_lsr_params;

#endif

/* Softmax judged on the device (issue 12): the double-precision row oracle with its rigorous
 * margin and the per-element check of a variant's output against the variant's own bound,
 * with oracle/softmax_row_math.h's formulas (the host's: softmax_double.c, bounds.c), one
 * block per row. Rows it cannot decide come back marked, for the host and MPFR
 * (run/dev_verdicts.c).
 *
 * exp: the device's double exp. CUDA's is within 1 ulp (CUDA C++ Programming Guide,
 * "Mathematical Functions", double precision: exp 1 ulp, measured from the correctly rounded
 * result, so 1.5 against the exact value); ROCm's ocml exp for double within 1 ulp (HIP math
 * API reference); the simulator runs glibc's (softmax_double.c). The oracle's bound assumes 2
 * (RF_SM_DOUBLE_EXP_ULPS), which covers each. Division and the sums are IEEE binary64 on each
 * (no flush of subnormal doubles).
 *
 * Inputs and outputs in float32, f16 or bf16 (rf_dtype numbers: 0, 1, 2): a 16-bit element is
 * read through model/dtype_bits.h's exact conversion, as the host reads it (the runner's
 * rf_generate values, rf_dtype_load), and a 16-bit output's bound is widened by its final
 * rounding with oracle/softmax_row_math.h's rf_smr_out_* (bounds.c's rf_bound_softmax_output),
 * u_t and eta_t given by the host (rf_softmax_output_rounding, oracle/bounds.h). */
#ifndef RF_SOFTMAX_DEVICE_H
#define RF_SOFTMAX_DEVICE_H
#include <stddef.h>
#include <stdint.h>
#include "oracle/softmax_row_types.h"
#ifdef __cplusplus
extern "C" {
#endif

enum { RF_SMD_NORMAL = 0, RF_SMD_CONSTANT = 1, RF_SMD_REFUSED = 2, RF_SMD_NAN_ROW = 3 };

/* The oracle's facts about one row (the bound's pass 1, variant-independent). */
typedef struct {
  double rel;          /* the double oracle's error bound for the row (softmax_double.h) */
  double span, D_max, yd_s;
  float m;             /* the row's maximum */
  uint32_t n_deep;
  uint32_t kind;       /* RF_SMD_*: NAN_ROW for a row whose every output must be NaN
                          (oracle/softmax_special.h; y is not written), REFUSED for a constant
                          row longer than 2^24 or a row with no double bound; -inf elements of
                          a row with a finite maximum are NORMAL rows' deep elements */
  uint32_t pad;
} rf_smd_row;

enum { RF_SMD_PASS = 0, RF_SMD_WRONG = 1, RF_SMD_NONFINITE = 2, RF_SMD_UNDECIDED = 3 };

/* One variant's verdict on one row and its worst element (the largest err / allowed, the
 * lowest column among equals), as the host judge keeps them (run/judge.c). */
typedef struct {
  double ratio, err, bound, want;
  float got;
  uint32_t col;
  uint32_t verdict;    /* RF_SMD_*: UNDECIDED when an element is within the oracle's margin of
                          its bound, the row sum is not surely within its bound, the row is
                          refused, or no useful bound exists: the host decides it. A NaN row
                          passes when every output is a NaN (worst element: column 0, ratio
                          and error 0, bound and want NaN, as run/judge.c records it) */
  uint32_t pad;
} rf_smd_rec;

/* The types of a judge launch: the input's and the output's (0 f32, 1 f16, 2 bf16) and, for a
 * 16-bit output, u_t = 2^-p and eta_t = 2^(emin - p) of its type (0 for a float32 output);
 * the variant's contract bits (include/redfuzz/variant.h: RF_CONTRACT_MASKED_ROW_ZERO decides
 * a row of only -inf, oracle/softmax_special.h). */
typedef struct {
  uint32_t x_dtype, out_dtype;
  double out_ut, out_eta;
  uint32_t contract;
} rf_smd_io;

/* Enqueues the oracle of x (rows x cols elements of type x_dtype, device) into y (rows * cols
 * doubles) and info (rows), on stream (NULL = default). 0 or the launch error (1 for a type
 * it does not know). Nothing for an empty shape. */
int rf_smd_oracle_launch(const void *x, uint32_t x_dtype, uint32_t rows, uint32_t cols,
                         double *y, rf_smd_row *info, void *stream);
/* One variant's part of a judge launch: its output `got` (io.out_dtype) and its bound
 * parameters p (rf_softmax_bound_params). */
typedef struct {
  const void *got;
  rf_smr_params p;
  rf_smd_io io;
} rf_smd_variant;

/* The variants one kernel launch judges, passed by value as a kernel parameter rather than in
 * a device buffer: they are made from the plans right before the launch and need no upload,
 * slot or synchronous copy of their own, and 24 of 80 bytes (1,920) stay well under the 4 KiB
 * of kernel parameters that CUDA and HIP both allow. Every block reads its own variant's
 * entry (blockIdx.y), uniform across the block; nvcc 13 for sm_90 indexes the parameter space
 * directly (no stack frame: scripts/check-launch-resources.sh). More variants than this: one
 * launch per 24. */
#define RF_SMD_MAX_VARIANTS 24u
typedef struct {
  rf_smd_variant v[RF_SMD_MAX_VARIANTS];
} rf_smd_variants;

/* Enqueues the check of nv variants' outputs (vs, host memory, read at the call) against the
 * oracle's y and info, in one launch for up to RF_SMD_MAX_VARIANTS variants (grid: rows x
 * variants), into out: rows records a variant, variant k's from out + k * rows. plant != 0: a
 * test hook that calls every row it decided a pass (a judge that misses a failure), which the
 * host's re-checks must catch. 0 or the launch error (1 for a type it does not know). */
int rf_smd_judge_launch(const void *x, const rf_smd_variant *vs, uint32_t nv, const double *y,
                        const rf_smd_row *info, uint32_t rows, uint32_t cols, uint32_t plant,
                        rf_smd_rec *out, void *stream);
/* The oracle and the judge of one case in one launch each (the runner's launches for a case
 * of one chunk: run/dev_verdicts.c calls the two itself, the judge a chunk of rows at a
 * time): rf_smd_oracle_launch then
 * rf_smd_judge_launch, each with the team RF_ROW_TEAM_AUTO picks for the shape; every
 * variant's io.x_dtype must be x_dtype (1 otherwise). */
int rf_smd_case_launch(const void *x, uint32_t x_dtype, const rf_smd_variant *vs, uint32_t nv,
                       double *y, rf_smd_row *info, uint32_t rows, uint32_t cols,
                       uint32_t plant, rf_smd_rec *out, void *stream);
/* Which team judges a row (kernels/harness/row_team.h): AUTO, a wave a row for cases of at least 64
 * rows of at most 256 columns (RF_RT_WAVE_MIN_ROWS, RF_RT_WAVE_MAX_COLS, measured) and a
 * block a row otherwise; BLOCK and WAVE force one, for any shape. Both give the same y, facts
 * and records, bit for bit (tests/kernels: both run). */
enum { RF_ROW_TEAM_AUTO = 0, RF_ROW_TEAM_BLOCK = 1, RF_ROW_TEAM_WAVE = 2 };
/* rf_smd_oracle_launch and rf_smd_judge_launch with the team told (1 for one it does not
 * know); those two are these with RF_ROW_TEAM_AUTO. */
int rf_smd_oracle_launch_team(const void *x, uint32_t x_dtype, uint32_t rows, uint32_t cols,
                              double *y, rf_smd_row *info, uint32_t team, void *stream);
int rf_smd_judge_launch_team(const void *x, const rf_smd_variant *vs, uint32_t nv,
                             const double *y, const rf_smd_row *info, uint32_t rows,
                             uint32_t cols, uint32_t plant, rf_smd_rec *out, uint32_t team,
                             void *stream);
#ifdef __cplusplus
}
#endif
#endif

/* Logsumexp and log-softmax judged on the device (issue 12): the double-precision
 * row oracle with its rigorous margins and the per-output check of a variant's output against
 * the variant's own bound, with oracle/log_row_math.h's formulas (the host's:
 * logsumexp_double.c, bounds_log.c, run/judge_log.c), one block per row. Rows it cannot decide
 * come back marked, for the host and MPFR (run/dev_verdicts.c). The same scheme as
 * softmax_device.h; docs/ORACLE.md, "Log ops judged on the device". Inputs and outputs in
 * float32, f16 or bf16 (rf_dtype numbers 0, 1, 2), read exactly as the host reads them
 * (model/dtype_bits.h); a 16-bit output is decided by the host's rule for it, its range check
 * (log_row_math.h's rf_lsr_check_out / rf_lsr_check_range_out: the float32 result's range
 * rounded once more to the type), so the verdicts are the host's for every pairing.
 *
 * exp and log: the device's double exp and log. The double oracle's margin assumes each within
 * 2 ulps of the exact value (exp: RF_SM_DOUBLE_EXP_ULPS, softmax_device.h says why; log:
 * RF_LSE_DOUBLE_LOG_ULPS), which covers each backend: CUDA's double log and exp are within
 * 1 ulp (CUDA C++ Programming Guide, "Mathematical Functions", double precision: log 1 ulp,
 * exp 1 ulp, measured from the correctly rounded result, so 1.5 against the exact value);
 * ROCm's ocml double log and exp within 1 ulp of the host library's (the HIP math API
 * reference measures against the C++ standard library, glibc, whose double log and exp state
 * about 0.52 ulp against the exact value in their source: about 1.52); the simulator runs
 * glibc's (0.513 ulp measured for log by tests/oracle/test_lse_double.c; logsumexp_double.c). Division, logs of sums and the sums are
 * IEEE binary64 on each (no flush of subnormal doubles). */
#ifndef RF_LOG_DEVICE_H
#define RF_LOG_DEVICE_H
#include <stddef.h>
#include <stdint.h>
#include "oracle/log_row_types.h"
#include "softmax_device.h"   /* rf_smd_rec and its verdict codes */
#ifdef __cplusplus
extern "C" {
#endif

/* NORMAL: a double row with margins; EXACT: one finite entry, the rest -inf (every value
 * exact, the MPFR oracle's own row); SPECIAL: a NaN or +inf, or no entry above -inf
 * (oracle/log_special.h): row.lse holds its exact want (NaN, +inf or -inf) and row.m, log_s
 * and wd what the host MPFR oracle gives (m the maximum, 0, 0); every log-softmax output's
 * want is NaN; REFUSED: a sum range the margins cannot use (the other rows
 * rf_oracle_lse_row_double refuses: MPFR on the host). */
enum { RF_LGD_NORMAL = 0, RF_LGD_EXACT = 1, RF_LGD_REFUSED = 2, RF_LGD_SPECIAL = 3 };

/* The oracle's facts about one row (variant-independent): the row as rf_oracle_lse_row_double
 * gives it (lse, log_s, m, wd = the margin's wd_hi), its margins, and span = max_j (m - x_j)
 * over the entries that are not -inf (rf_bound_lse_row's, for exps whose error grows with the
 * argument). The outputs' values are not stored: the judge forms y_j = RN(RN(x_j - m) - log_s)
 * as the host oracle does. */
typedef struct {
  rf_lse_row row;
  rf_lse_margin mg;
  double span;
  uint32_t kind;
  uint32_t pad;
} rf_lgd_row;

/* RF_LGD_* verdicts: the codes of log_row_math.h's per-output decision, and softmax's. */
enum { RF_LGD_PASS = RF_SMD_PASS, RF_LGD_WRONG = RF_SMD_WRONG, RF_LGD_NONFINITE = RF_SMD_NONFINITE,
       RF_LGD_UNDECIDED = RF_SMD_UNDECIDED };

/* One variant's verdict on one row and its worst output (the largest err / allowed, the lowest
 * column among equals), as the host judge keeps them (run/judge_log.c): softmax's record
 * (softmax_device.h), so the runner reads both alike. col: the column for log-softmax, 0 for
 * logsumexp. verdict: UNDECIDED when the row is refused or an output is within the margin of
 * its bound (the host decides it, MPFR); NONFINITE over WRONG when both occur, as the host's
 * first-failure rule gives. A special row is decided by the host's rule for a special want
 * (log_special.h, through rf_lsr_judge_exact) with the host's figures: a right output has
 * err 0, bound 0, ratio 0 (the worst: column 0); a wrong one err +inf, bound 0, ratio +inf
 * (the worst: the first wrong column), verdict WRONG. */
typedef rf_smd_rec rf_lgd_rec;

/* Enqueues the oracle of x (rows x cols elements of type x_dtype, device) into info (rows), on
 * stream (NULL = default). 0 or the launch error (1 for a type it does not know). Nothing for
 * an empty shape. */
int rf_lgd_oracle_launch(const void *x, uint32_t x_dtype, uint32_t rows, uint32_t cols,
                         rf_lgd_row *info, void *stream);
/* One variant's part of a judge launch: its output `got` of type out_dtype and its bound
 * parameters p. */
typedef struct {
  const void *got;
  uint32_t out_dtype, pad;
  rf_lsr_params p;
} rf_lgd_variant;

/* The variants one kernel launch judges, by value as a kernel parameter, as softmax's
 * (softmax_device.h says why): 24 of 64 bytes (1,536), well under 4 KiB; more: one launch
 * per 24. */
#define RF_LGD_MAX_VARIANTS 24u
typedef struct {
  rf_lgd_variant v[RF_LGD_MAX_VARIANTS];
} rf_lgd_variants;

/* Enqueues the check of nv variants' outputs (vs, host memory, read at the call; rows outputs
 * each for logsumexp, is_lse != 0; rows x cols for log-softmax; the input x of type x_dtype)
 * against the oracle's info, in one launch for up to RF_LGD_MAX_VARIANTS variants (grid: rows
 * x variants), into out: rows records a variant, variant k's from out + k * rows. plant != 0: a
 * test hook that calls every row it decided a pass (a judge that misses a failure), which the
 * host's re-checks must catch. 0 or the launch error (1 for a type it does not know). */
int rf_lgd_judge_launch(const void *x, uint32_t x_dtype, const rf_lgd_variant *vs, uint32_t nv,
                        const rf_lgd_row *info, uint32_t rows, uint32_t cols, int is_lse,
                        uint32_t plant, rf_lgd_rec *out, void *stream);
/* The oracle and the judge of one case in one launch each (the runner's launches for a case
 * of one chunk: run/dev_verdicts.c calls the two itself, the judge a chunk of rows at a
 * time): rf_lgd_oracle_launch then
 * rf_lgd_judge_launch, each with the team RF_ROW_TEAM_AUTO picks for the shape. */
int rf_lgd_case_launch(const void *x, uint32_t x_dtype, const rf_lgd_variant *vs, uint32_t nv,
                       rf_lgd_row *info, uint32_t rows, uint32_t cols, int is_lse,
                       uint32_t plant, rf_lgd_rec *out, void *stream);
/* rf_lgd_oracle_launch and rf_lgd_judge_launch with the team told (softmax_device.h's
 * RF_ROW_TEAM_*; 1 for one it does not know); those two are these with RF_ROW_TEAM_AUTO. */
int rf_lgd_oracle_launch_team(const void *x, uint32_t x_dtype, uint32_t rows, uint32_t cols,
                              rf_lgd_row *info, uint32_t team, void *stream);
int rf_lgd_judge_launch_team(const void *x, uint32_t x_dtype, const rf_lgd_variant *vs,
                             uint32_t nv, const rf_lgd_row *info, uint32_t rows, uint32_t cols,
                             int is_lse, uint32_t plant, rf_lgd_rec *out, uint32_t team,
                             void *stream);
#ifdef __cplusplus
}
#endif
#endif

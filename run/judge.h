/* The one judge: a 1-D result held against the exact answer and the plan's bound, shared
 * by the runner, `redfuzz bench` and `redfuzz study` so the three can never disagree
 * (docs/TOLERANCES.md, docs/ORACLE.md for the rules on NaN, infinity and overflow). */
#ifndef RF_JUDGE_H
#define RF_JUDGE_H
#include <stdint.h>
#include "runner_types.h"
#include "oracle/exact.h"
#include "oracle/bounds.h"

/* Sum: within γ_h·Σ|x_i| of the exact sum (0 when the data make partial sums exact); the
 * IEEE result for non-finite inputs; ±inf or NaN accepted only when some order of the plan
 * may overflow. model: how the backend's float atomics round (rf_backend.sum_model for
 * device results, RF_SUM_IEEE for host code). Fills verdict, err, bound, ratio, got, want,
 * abs_sum, probabilistic, suspicious and, where it helps, detail. */
void rf_judge_sum_exact(const rf_xsum *exact, const rf_sum_facts *facts, const rf_plan *plan,
                        const rf_sum_model *model, uint32_t contract, float got,
                        rf_result *res);
/* The same for an output of type t: the float32 accumulation's bound, then one rounding to t
 * (rf_bound_sum_output: the output must lie in [RN_t(s - B), RN_t(s + B)]). t = f32 is
 * rf_judge_sum_exact. contract: the variant's RF_CONTRACT_* bits (include/redfuzz/variant.h):
 * the sign of a sum of only zeros is checked only under RF_CONTRACT_SIGNED_ZERO. */
void rf_judge_sum_exact_typed(const rf_xsum *exact, const rf_sum_facts *facts,
                              const rf_plan *plan, const rf_sum_model *model, rf_dtype t,
                              uint32_t contract, float got, rf_result *res);
/* What max and argmax owe under a contract: the oracle's (NaN ignored, lowest index of the
 * maximum), or NaN at the first NaN's index under RF_CONTRACT_NAN_PROPAGATES. */
typedef struct { float value; int64_t index; } rf_maxarg_want;
rf_maxarg_want rf_judge_maxarg_want(float max_value, int64_t argmax_index, int64_t first_nan,
                                    uint32_t contract);
/* Max: exactly `want` (rf_judge_maxarg_want's value). */
void rf_judge_max_exact(float want, float got, rf_result *res);
/* Argmax (got: the variant's output in the one form of either layout, rf_argmax_read in
 * case_outputs.h): exactly want_value at want_index (rf_judge_maxarg_want), or, under
 * RF_CONTRACT_TIE_ANY, another index whose element at_got (x[got->index]; any value when the
 * index is want_index or out of range) ties the maximum, with that value. A failure's detail
 * gives both indices and values. */
void rf_judge_argmax_exact(float want_value, int64_t want_index, const rf_argmax_out64 *got,
                           uint32_t contract, float at_got, rf_result *res);
#endif

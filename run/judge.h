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
                        const rf_sum_model *model, float got, rf_result *res);
/* The same for an output of type t: the float32 accumulation's bound, then one rounding to t
 * (rf_bound_sum_output: the output must lie in [RN_t(s - B), RN_t(s + B)]). t = f32 is
 * rf_judge_sum_exact. */
void rf_judge_sum_exact_typed(const rf_xsum *exact, const rf_sum_facts *facts,
                              const rf_plan *plan, const rf_sum_model *model, rf_dtype t,
                              float got, rf_result *res);
/* Max: exactly the oracle's value (NaN only when every input is NaN). */
void rf_judge_max_exact(float want, float got, rf_result *res);
/* Argmax: exactly the oracle's value and lowest index of it. */
void rf_judge_argmax_exact(float want_value, int64_t want_index, const rf_argmax_out *got,
                           rf_result *res);
#endif

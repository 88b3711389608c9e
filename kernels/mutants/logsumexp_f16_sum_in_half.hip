/* logsumexp/mut-f16-sum-in-half: a one-thread-per-row logsumexp of f16 inputs with f16 output
 * (logsumexp/f16-3kernel's design), except that the sum of exps is accumulated in the input
 * type, the classic `half s; s += expf(x - m)`: every addition is rounded to f16 (u = 2^-11).
 * With terms of at most 1 the sum stalls where f16's spacing reaches 2 (from 2048 on: 2048 + 1
 * rounds to 2048) and loses about 2^-11 at each addition before that, so log s is off by far
 * more than the final f16 rounding allows. Exposed by ones and index-weighted rows longer than
 * 2048 and by uniform and negative rows of a few hundred (docs/MUTANTS.md). */
#include "mut_common.h"
#include "../half/half_common.h"

__global__ void rf_mut_lse_sum_in_half_kernel(const uint16_t *__restrict__ x, unsigned rows,
                                              unsigned cols, uint16_t *__restrict__ out) {
  for (rf_h_u64 r = rf_h_gid(); r < rows; r += rf_h_stride()) {
    const rf_h_u64 base = r * cols;
    float m = -INFINITY;
    for (unsigned c = 0; c < cols; c++) m = fmaxf(m, rf_h_load(x, base + c, 1u));
    float s = 0.0f;
    for (unsigned c = 0; c < cols; c++) {
      const float v = rf_h_load(x, base + c, 1u);
      s = rf_f16_to_f32(rf_f32_to_f16(s + (v == m ? 1.0f : expf(v - m))));   /* BUG: f16 sum */
    }
    rf_h_store(out, r, m + logf(s), 1u);
  }
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_lse_sum_in_half_launch(const rf_launch_args *a) {
  if (a->cfg.rows == 0) return 0;   /* an empty row still has an output: -inf */
  hipLaunchKernelGGL(rf_mut_lse_sum_in_half_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, (const uint16_t *)a->x, a->cfg.rows, a->cfg.cols,
                     (uint16_t *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_logsumexp_f16_sum_in_half = {
    .name = "logsumexp/mut-f16-sum-in-half",
    .op = RF_OP_LOGSUMEXP,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT one-thread-per-row logsumexp of f16 accumulating the exp sum in f16: every "
        "addition rounded to the narrow type",
    .constraints = "block 1..1024 (any); grid ceil(rows/block); no items",
    .configure = rf_mut_configure_row_per_thread,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_row_per_thread,
    .launch = rf_mut_lse_sum_in_half_launch,
    .in_dtype = RF_DTYPE_F16,
    .out_dtype = RF_DTYPE_F16};
#endif

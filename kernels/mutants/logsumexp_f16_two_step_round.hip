/* logsumexp/mut-f16-two-step-round: a one-thread-per-row logsumexp of f16 inputs with f16
 * output (logsumexp/f16-3kernel's design), except that the log of the sum is rounded to f16
 * before it is added to the maximum, `half L = logf(s); out = m + L`: two roundings to f16 where
 * the bound allows one of m + L. L's rounding error (up to 2^-11 |L|) is absolute and stays
 * when m + L is smaller than L, above all when it cancels (m near -L: the result is near 0,
 * where f16's spacing is fine but L's error is not). Exposed by negative and uniform rows
 * (docs/MUTANTS.md). */
#include "mut_common.h"
#include "../half/half_common.h"

__global__ void rf_mut_lse_two_step_kernel(const uint16_t *__restrict__ x, unsigned rows,
                                           unsigned cols, uint16_t *__restrict__ out) {
  for (rf_h_u64 r = rf_h_gid(); r < rows; r += rf_h_stride()) {
    const rf_h_u64 base = r * cols;
    float m = -INFINITY;
    for (unsigned c = 0; c < cols; c++) m = fmaxf(m, rf_h_load(x, base + c, 1u));
    float s = 0.0f;
    for (unsigned c = 0; c < cols; c++) {
      const float v = rf_h_load(x, base + c, 1u);
      s += v == m ? 1.0f : expf(v - m);
    }
    const float L = rf_f16_to_f32(rf_f32_to_f16(logf(s)));   /* BUG: L rounded to f16 first */
    rf_h_store(out, r, m + L, 1u);
  }
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_lse_two_step_launch(const rf_launch_args *a) {
  if (a->cfg.rows == 0) return 0;   /* an empty row still has an output: -inf */
  hipLaunchKernelGGL(rf_mut_lse_two_step_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, (const uint16_t *)a->x, a->cfg.rows, a->cfg.cols,
                     (uint16_t *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_logsumexp_f16_two_step_round = {
    .name = "logsumexp/mut-f16-two-step-round",
    .op = RF_OP_LOGSUMEXP,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT one-thread-per-row logsumexp of f16 that rounds log s to f16 before adding "
        "the max: two roundings to the output type",
    .constraints = "block 1..1024 (any); grid ceil(rows/block); no items",
    .configure = rf_mut_configure_row_per_thread,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_row_per_thread,
    .launch = rf_mut_lse_two_step_launch,
    .in_dtype = RF_DTYPE_F16,
    .out_dtype = RF_DTYPE_F16};
#endif

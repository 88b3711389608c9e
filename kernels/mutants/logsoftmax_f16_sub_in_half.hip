/* logsoftmax/mut-f16-sub-in-half: a one-thread-per-row log-softmax of f16 inputs, float32 math
 * and float32 output (logsoftmax/f16-3kernel-f32out's design), except that the shifted
 * argument d_j = x_j - m is kept in the input type, the classic `half d = x - m`: d_j is rounded
 * to f16 (u = 2^-11) before the exp and before the write y_j = d_j - L, where the correct
 * variant rounds it to float32. Two f16 values of different binades seldom differ by an f16
 * value, so the output is off by up to 2^-11 |d_j| against a bound of a few 2^-24 |y_j|.
 * Exposed by uniform, negative, sorted and wide f16 rows (docs/MUTANTS.md). */
#include "mut_common.h"
#include "../half/half_common.h"

/* BUG: the difference rounded to f16, as `half d = x - m` computes it. */
static __device__ __forceinline__ float rf_mut_sub_in_half(float x, float m) {
  return rf_f16_to_f32(rf_f32_to_f16(x - m));
}

__global__ void rf_mut_lsm_sub_in_half_kernel(const uint16_t *__restrict__ x, unsigned rows,
                                              unsigned cols, float *__restrict__ y) {
  for (rf_h_u64 r = rf_h_gid(); r < rows; r += rf_h_stride()) {
    const rf_h_u64 base = r * cols;
    float m = -INFINITY;
    for (unsigned c = 0; c < cols; c++) m = fmaxf(m, rf_h_load(x, base + c, 1u));
    float s = 0.0f;
    for (unsigned c = 0; c < cols; c++) s += expf(rf_mut_sub_in_half(rf_h_load(x, base + c, 1u), m));
    const float L = logf(s);
    for (unsigned c = 0; c < cols; c++)
      y[base + c] = rf_mut_sub_in_half(rf_h_load(x, base + c, 1u), m) - L;
  }
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_lsm_sub_in_half_launch(const rf_launch_args *a) {
  if (a->cfg.rows == 0 || a->cfg.cols == 0) return 0;   /* nothing to write */
  hipLaunchKernelGGL(rf_mut_lsm_sub_in_half_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, (const uint16_t *)a->x, a->cfg.rows, a->cfg.cols,
                     (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_logsoftmax_f16_sub_in_half = {
    .name = "logsoftmax/mut-f16-sub-in-half",
    .op = RF_OP_LOGSOFTMAX,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT one-thread-per-row log-softmax of f16 with x - m rounded to f16 before the "
        "exp and the write (float32 output)",
    .constraints = "block 1..1024 (any); grid ceil(rows/block); no items",
    .configure = rf_mut_configure_row_per_thread,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_row_per_thread,
    .launch = rf_mut_lsm_sub_in_half_launch,
    .in_dtype = RF_DTYPE_F16,
    .out_dtype = RF_DTYPE_F32};
#endif

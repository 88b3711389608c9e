/* logsumexp/mut-int-row-offset: a correct one-block-per-row logsumexp (max by LDS tree, then
 * s = Σ exp(x - m) by LDS tree, out = m + log s) on a fixed grid of 1024 blocks that stride
 * over the rows, whose row offset `row * cols` is kept in an `int` (PyTorch's softmax past
 * 2^31 elements, pytorch#84144 and #103501, issue 37): from the row that starts at 2^31
 * elements on, the offset is negative and the block reads 8 GiB before the input. The product
 * is taken in unsigned arithmetic and converted, so the wrap is the hardware's (a signed
 * overflow would be undefined, and a compiler may widen it away). Exposed only by rows*cols
 * > 2^31: the sweep's --huge shapes with the markers distribution (a sparse input: one row
 * of 2^20 elements repeated past 2^31 elements), where the first block reaches that row
 * after two rows; every smaller case passes. */
#include "mut_common.h"

#define RF_MUT_ROW_OFFSET_GRID 1024u

__global__ void rf_mut_lse_int_row_offset_kernel(const float *__restrict__ x, uint32_t rows,
                                                 uint32_t cols, float *__restrict__ out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  for (uint32_t row = blockIdx.x; row < rows; row += gridDim.x) {
    const int base = (int)(row * cols);   /* BUG: an int offset, negative from 2^31 on */
    const float lse = rf_mut_lse_block_row(x + base, cols, sd, -INFINITY);
    if (threadIdx.x == 0) out[row] = lse;
    __syncthreads();   /* thread 0 has read sd[0] before the next row's max tree */
  }
}

#if !defined(__HIP_DEVICE_COMPILE__)
/* A fixed grid that strides over the rows. */
static const char *rf_mut_lse_int_row_offset_configure(rf_launch_cfg *cfg) {
  return rf_mut_configure_row_per_block_capped(cfg, RF_MUT_ROW_OFFSET_GRID);
}

static int rf_mut_lse_int_row_offset_launch(const rf_launch_args *a) {
  if (a->cfg.rows == 0) return 0;
  hipLaunchKernelGGL(rf_mut_lse_int_row_offset_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, (const float *)a->x, a->cfg.rows, a->cfg.cols,
                     (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_logsumexp_int_row_offset = {
    .name = "logsumexp/mut-int-row-offset",
    .op = RF_OP_LOGSUMEXP,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT one-block-per-row logsumexp, 1024 blocks striding over the rows, whose "
        "row offset row*cols is an int: negative from 2^31 elements on",
    .constraints = "block power of two 1..1024; grid = min(rows, 1024); any cols",
    .configure = rf_mut_lse_int_row_offset_configure,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_row_per_block,
    .launch = rf_mut_lse_int_row_offset_launch};
#endif

/* logsumexp/mut-grid-cap-rows: a correct one-block-per-row logsumexp (max by LDS tree, then
 * s = Σ exp(x - m) by LDS tree, out = m + log s) whose launch caps the grid at 65535 blocks
 * (the y- and z-dimension limit of CUDA and HIP grids, a common habit for a rows grid) but
 * whose blocks do not stride over rows: rows past the 65535th are never written. Exposed
 * only by more rows than the grid has blocks: the default sweep's 65537 x 2 shape and the
 * fuzzer's short-rows class (run/fuzz_select.h); every smaller case passes. */
#include "mut_common.h"

#define RF_MUT_ROWS_GRID_CAP 65535u

__global__ void rf_mut_lse_grid_cap_kernel(const float *__restrict__ x, uint32_t cols,
                                           float *__restrict__ out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const uint32_t row = blockIdx.x;   /* BUG: no `for (row = blockIdx.x; row < rows; row += gridDim.x)` */
  const float lse = rf_mut_lse_block_row(x + (size_t)row * cols, cols, sd, -INFINITY);
  if (threadIdx.x == 0) out[row] = lse;
}

#if !defined(__HIP_DEVICE_COMPILE__)
static const char *rf_mut_lse_grid_cap_configure(rf_launch_cfg *cfg) {
  return rf_mut_configure_row_per_block_capped(cfg, RF_MUT_ROWS_GRID_CAP);
}

static int rf_mut_lse_grid_cap_launch(const rf_launch_args *a) {
  if (a->cfg.rows == 0) return 0;
  hipLaunchKernelGGL(rf_mut_lse_grid_cap_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, a->x, a->cfg.cols, (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_logsumexp_grid_cap_rows = {
    .name = "logsumexp/mut-grid-cap-rows",
    .op = RF_OP_LOGSUMEXP,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT one-block-per-row logsumexp whose grid is capped at 65535 blocks with no "
        "row-stride loop: rows past the 65535th are never written",
    .constraints = "block power of two 1..1024; grid = min(rows, 65535); any cols",
    .configure = rf_mut_lse_grid_cap_configure,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_row_per_block,
    .launch = rf_mut_lse_grid_cap_launch};
#endif

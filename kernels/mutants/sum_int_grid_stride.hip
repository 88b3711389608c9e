/* sum/mut-int-grid-stride: a grid-stride sum (chain, LDS tree, one atomic per block) whose
 * index is a 32-bit `int`. Past 2^31 - 1 it wraps to a negative value, which the loop's
 * comparison with the 64-bit n reads as a huge unsigned one: the loop ends, and every element
 * from 2^31 on is dropped (CuPy's and PyTorch's 32-bit index bugs, issue 37). The wrap is
 * written out (unsigned add, then the conversion) so the compiler cannot widen the index on
 * the grounds that signed overflow is undefined. Exposed only at n > 2^31: the sweep's --huge
 * sizes with the markers distribution. */
#include "mut_common.h"

__global__ void rf_mut_int_stride_kernel(const float *__restrict__ x, rf_mut_u64 n, float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const unsigned stride = gridDim.x * blockDim.x;
  float local = -0.0f;
  /* BUG: int, not a 64-bit index */
  for (int i = (int)rf_mut_gid(); (rf_mut_u64)(long long)i < n; i = (int)((unsigned)i + stride))
    local += x[i];
  sd[threadIdx.x] = local;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) atomicAdd(out, sd[0]);
}

#if !defined(__HIP_DEVICE_COMPILE__)
static const char *rf_mut_int_stride_configure(rf_launch_cfg *cfg) {
  return rf_mut_configure_grid_stride(cfg, 1);
}

static int rf_mut_int_stride_launch(const rf_launch_args *a) {
  return rf_mut_launch_accumulating(a, rf_mut_int_stride_kernel, a->cfg.grid);
}

extern "C" const rf_variant rf_mut_sum_int_grid_stride = {
    "sum/mut-int-grid-stride", RF_OP_SUM, 0, 1,
    "MUTANT grid-stride sum with an int index: past 2^31-1 it wraps negative and the loop ends, "
    "dropping every element from 2^31 on",
    "block power of two 1..1024; grid 1..2^31-1 (default ceil(n/(block*items))); items "
    "1..65536 (default 4; only sets the default grid)",
    rf_mut_int_stride_configure, rf_mut_no_scratch, rf_mut_plan_chain_lds_atomic,
    rf_mut_int_stride_launch, 0, RF_DTYPE_F32, RF_DTYPE_F32, RF_CONTRACT_SIGNED_ZERO};
#endif

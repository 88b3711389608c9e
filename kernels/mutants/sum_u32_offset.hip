/* sum/mut-u32-offset: a grid-stride sum (chain, LDS tree, one atomic per block) that walks
 * with a 64-bit index but loads through a 32-bit `unsigned` offset: past 2^32 - 1 the offset
 * wraps, and element 2^32 + j is read as element j (CuPy's argmax at n = 2^32, the 32-bit
 * element offsets of issue 37). The loop visits every element, so the count is right and only
 * the values differ. Exposed only at n > 2^32: the sweep's --huge sizes with the markers
 * distribution (the markers at 2^32 and n-1 read the ones at 0 and n-1-2^32). */
#include "mut_common.h"

__global__ void rf_mut_u32_offset_kernel(const float *__restrict__ x, rf_mut_u64 n, float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 stride = (rf_mut_u64)gridDim.x * blockDim.x;
  float local = -0.0f;
  for (rf_mut_u64 i = rf_mut_gid(); i < n; i += stride) {
    const unsigned off = (unsigned)i;   /* BUG: a 32-bit offset wraps at 2^32 */
    local += x[off];
  }
  sd[threadIdx.x] = local;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) atomicAdd(out, sd[0]);
}

#if !defined(__HIP_DEVICE_COMPILE__)
static const char *rf_mut_u32_offset_configure(rf_launch_cfg *cfg) {
  return rf_mut_configure_grid_stride(cfg, 1);
}

static int rf_mut_u32_offset_launch(const rf_launch_args *a) {
  return rf_mut_launch_accumulating(a, rf_mut_u32_offset_kernel, a->cfg.grid);
}

extern "C" const rf_variant rf_mut_sum_u32_offset = {
    "sum/mut-u32-offset", RF_OP_SUM, 0, 1,
    "MUTANT grid-stride sum loading through an unsigned 32-bit offset: element 2^32+j is read "
    "as element j",
    "block power of two 1..1024; grid 1..2^31-1 (default ceil(n/(block*items))); items "
    "1..65536 (default 4; only sets the default grid)",
    rf_mut_u32_offset_configure, rf_mut_no_scratch, rf_mut_plan_chain_lds_atomic,
    rf_mut_u32_offset_launch, 0, RF_DTYPE_F32, RF_DTYPE_F32, RF_CONTRACT_SIGNED_ZERO};
#endif

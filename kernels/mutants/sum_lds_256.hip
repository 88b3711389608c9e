/* sum/mut-lds-256: the grid-stride LDS-tree sum (mut_common.h) whose LDS array is sized for 256
 * threads while configure accepts blocks up to 1024 (the common default block, hard-coded as
 * the array's length). Right at block <= 256; a larger block writes and reads sd[256..block)
 * past the declaration. On gfx1201 those accesses fall outside the block's LDS allocation
 * (reads give 0, writes are dropped: a wrong sum); on NVIDIA they fault. The simulator reports
 * them as `oob` naming the declaration (sim/lds.cpp); the default sweep's block 1024 reaches
 * it. */
#include "mut_common.h"

#define RF_MUT_LDS_ASSUMED_BLOCK 256u

__global__ void rf_mut_lds_256_kernel(const float *__restrict__ x, rf_mut_u64 n, float *out) {
  RF_SHARED(float, sd, RF_MUT_LDS_ASSUMED_BLOCK);   /* BUG: must hold blockDim.x floats */
  const rf_mut_u64 g = rf_mut_gid(), stride = (rf_mut_u64)gridDim.x * blockDim.x;
  float local = -0.0f;
  for (rf_mut_u64 i = g; i < n; i += stride) local += x[i];
  sd[threadIdx.x] = local;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) atomicAdd(out, sd[0]);
}

#if !defined(__HIP_DEVICE_COMPILE__)
static const char *rf_mut_lds_256_configure(rf_launch_cfg *cfg) {
  return rf_mut_configure_grid_stride(cfg, 1);
}

static int rf_mut_lds_256_launch(const rf_launch_args *a) {
  return rf_mut_launch_accumulating(a, rf_mut_lds_256_kernel, a->cfg.grid);
}

extern "C" const rf_variant rf_mut_sum_lds_256 = {
    .name = "sum/mut-lds-256",
    .op = RF_OP_SUM,
    .deterministic = 0,
    .is_mutant = 1,
    .summary = "MUTANT grid-stride sum with an LDS tree whose array holds 256 floats while blocks "
        "up to 1024 are accepted (accesses past the declaration)",
    .constraints = "block power of two 1..1024; grid 1..2^31-1 (default ceil(n/(block*items))); "
        "items 1..65536 (default 4; only sets the default grid)",
    .configure = rf_mut_lds_256_configure,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_chain_lds_atomic,
    .launch = rf_mut_lds_256_launch};
#endif

/* sum/mut-stale-ticket: the single-pass "last block" sum (sum/mut-last-block-no-fence's design,
 * with its __threadfence()) whose ticket counter is a __device__ variable instead of zeroed
 * scratch. No launch resets it; the block that draws ticket grid - 1 modulo grid takes itself
 * for the last one, which holds while the counter stays a multiple of the grid: in a process
 * whose launches all have one grid, every result is right. After a launch of another grid the
 * counter is at another residue, and the "last" block is one that ran before the real last:
 * it sums partials not written yet and the true last block writes nothing. The bug of state
 * kept between launches (issue 46): the simulator's repeat follows a launch of another shape
 * (run/launch_checks.h), and `sweep` says the earlier launch's shape matters. */
#include "mut_common.h"

/* BUG: a counter that outlives the launch, never reset */
__device__ unsigned rf_mut_stale_ticket_count;

__global__ void rf_mut_stale_ticket_kernel(const float *__restrict__ x, rf_mut_u64 n,
                                           float *partial, float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  RF_SHARED(unsigned, am_last, 1);
  const rf_mut_u64 i = rf_mut_gid();
  sd[threadIdx.x] = i < n ? x[i] : -0.0f;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = sd[0];
    __threadfence();
    const unsigned ticket = atomicAdd(&rf_mut_stale_ticket_count, 1u);
    am_last[0] = ticket % gridDim.x == gridDim.x - 1 ? 1u : 0u;
  }
  __syncthreads();
  if (!am_last[0]) return;
  float s = -0.0f;
  for (unsigned k = threadIdx.x; k < gridDim.x; k += blockDim.x) s += partial[k];
  sd[threadIdx.x] = s;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) out[0] = sd[0];
}

#if !defined(__HIP_DEVICE_COMPILE__)
static void rf_mut_stale_ticket_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  const uint32_t tree = rf_ceil_log2(cfg->block);
  rf_plan_add(p, RF_LEVEL_LDS, tree);
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_mut_chain(cfg->grid, 1, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, tree);
}

static int rf_mut_stale_ticket_launch(const rf_launch_args *a) {
  if (a->cfg.n == 0) return rf_mut_zero_output(a);   /* the empty sum: +0 */
  hipLaunchKernelGGL(rf_mut_stale_ticket_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, a->x, (rf_mut_u64)a->cfg.n, (float *)a->scratch,
                     (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_sum_stale_ticket = {
    .name = "sum/mut-stale-ticket",
    .op = RF_OP_SUM,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT single-pass last-block sum whose ticket counter is a __device__ variable "
        "never reset (the last block: ticket % grid == grid - 1)",
    .constraints = "block power of two 1..1024; grid = ceil(n/block), a requested grid is "
        "ignored; no items",
    .configure = rf_mut_configure_one_per_thread,
    .scratch_bytes = rf_mut_float_partials,
    .plan = rf_mut_stale_ticket_plan,
    .launch = rf_mut_stale_ticket_launch,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif

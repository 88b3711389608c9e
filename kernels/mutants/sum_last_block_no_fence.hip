/* sum/mut-last-block-no-fence: the single-pass "last block" sum (CUDA's
 * threadFenceReduction sample, in the common form): each block reduces its elements in LDS,
 * thread 0 publishes the block's partial to global memory and takes a ticket with atomicAdd;
 * after a __syncthreads() the block that drew the last ticket reduces every partial. The
 * correct design puts __threadfence() between the publication and the ticket: without it
 * the ticket (a relaxed device-scope atomic) does not order the partial's write before the
 * last block's read, and on a GPU the last block may read a stale partial. The plain
 * simulator runs blocks one after another (pass); the ThreadSanitizer build reports the race
 * between the write of the partial and its read. */
#include "mut_common.h"

__global__ void rf_mut_sum_last_block_kernel(const float *__restrict__ x, rf_mut_u64 n,
                                             float *partial, unsigned *ticket, float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  RF_SHARED(unsigned, am_last, 1);
  const rf_mut_u64 i = rf_mut_gid();
  sd[threadIdx.x] = i < n ? x[i] : 0.0f;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = sd[0];
    /* BUG: no __threadfence() between publishing the partial and taking the ticket */
    am_last[0] = atomicAdd(ticket, 1u) == gridDim.x - 1 ? 1u : 0u;
  }
  __syncthreads();
  if (!am_last[0]) return;
  float s = 0.0f;
  for (unsigned k = threadIdx.x; k < gridDim.x; k += blockDim.x) s += partial[k];
  sd[threadIdx.x] = s;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) out[0] = sd[0];
}

#if !defined(__HIP_DEVICE_COMPILE__)
/* grid partials, then the ticket counter (zeroed by the launch). */
static size_t rf_mut_sum_last_block_scratch(const rf_launch_cfg *cfg) {
  return (size_t)cfg->grid * sizeof(float) + sizeof(unsigned);
}

static void rf_mut_sum_last_block_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  const uint32_t tree = rf_ceil_log2(cfg->block);
  rf_plan_add(p, RF_LEVEL_LDS, tree);
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_mut_chain(cfg->grid, 1, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, tree);
}

static int rf_mut_sum_last_block_launch(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  float *partial = (float *)a->scratch;
  unsigned *ticket = (unsigned *)(partial + a->cfg.grid);
  int err = (int)hipMemsetAsync(ticket, 0, sizeof(unsigned), st);
  if (err) return err;
  hipLaunchKernelGGL(rf_mut_sum_last_block_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                     st, a->x, (rf_mut_u64)a->cfg.n, partial, ticket, (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_sum_last_block_no_fence = {
    .name = "sum/mut-last-block-no-fence",
    .op = RF_OP_SUM,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT single-pass last-block sum (thread 0 publishes the partial and takes a "
        "ticket) without __threadfence() before the ticket",
    .constraints = "block power of two 1..1024; grid = ceil(n/block), a requested grid is "
        "ignored; no items",
    .configure = rf_mut_configure_one_per_thread,
    .scratch_bytes = rf_mut_sum_last_block_scratch,
    .plan = rf_mut_sum_last_block_plan,
    .launch = rf_mut_sum_last_block_launch,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif

/* sum/mut-bf16-early-round: sum/bf16-two-stage that converts too early (issue 17): each
 * block's float32 partial is stored as bf16 (rounded, u = 2^-8) before the second stage adds
 * them, as a kernel does that keeps its partials buffer in the input type. Two roundings to
 * bf16 (partial, result) instead of one: the result leaves [RN(s - B), RN(s + B)] once a
 * partial carries more than 8 significant bits. Exposed by uniform, wide and index-weighted
 * data over more than one block. */
#include "../half/half_common.h"

__global__ void rf_mut_early_partials_kernel(const uint16_t *__restrict__ x, rf_h_u64 n,
                                             uint16_t *partials) {
  RF_SHARED(float, sd, RF_H_MAX_BLOCK);
  float acc = -0.0f;
  for (rf_h_u64 i = rf_h_gid(); i < n; i += rf_h_stride()) acc += rf_h_load(x, i, 2u);
  sd[threadIdx.x] = acc;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) partials[blockIdx.x] = rf_f32_to_bf16(sd[0]);   /* BUG: rounds to bf16 */
}
__global__ void rf_mut_early_final_kernel(const uint16_t *__restrict__ partials, rf_h_u64 count,
                                          void *out) {
  RF_SHARED(float, sd, RF_H_MAX_BLOCK);
  float v = -0.0f;
  for (rf_h_u64 i = threadIdx.x; i < count; i += blockDim.x) v += rf_bf16_to_f32(partials[i]);
  sd[threadIdx.x] = v;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) rf_h_store(out, 0, count == 0 ? 0.0f : sd[0], 2u);
}

#if !defined(__HIP_DEVICE_COMPILE__)
static size_t rf_mut_early_scratch(const rf_launch_cfg *cfg) {
  return (size_t)cfg->grid * sizeof(uint16_t);
}
static void rf_mut_early_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  const uint32_t tree = rf_ceil_log2(cfg->block);
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_h_chain(cfg->n, cfg));
  rf_plan_add(p, RF_LEVEL_LDS, tree);
  rf_plan_add(p, RF_LEVEL_SECOND_KERNEL, rf_div_ceil(cfg->grid, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, tree);
}
static int rf_mut_early_launch(const rf_launch_args *a) {
  hipStream_t s = (hipStream_t)a->stream;
  uint16_t *partials = (uint16_t *)a->scratch;
  rf_h_u64 count = 0;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_mut_early_partials_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, s,
                       (const uint16_t *)a->x, (rf_h_u64)a->cfg.n, partials);
    int e = (int)hipGetLastError();
    if (e) return e;
    count = a->cfg.grid;
  }
  hipLaunchKernelGGL(rf_mut_early_final_kernel, dim3(1), dim3(a->cfg.block), 0, s,
                     (const uint16_t *)partials, count, a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_sum_bf16_early_round = {
    .name = "sum/mut-bf16-early-round",
    .op = RF_OP_SUM,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT sum/bf16-two-stage whose per-block partials are stored as bf16 (rounded "
        "too early)",
    .constraints = "block power of two 1..1024; grid 1..65535 (default min(CUs*8, "
        "ceil(n/block))); no items",
    .configure = rf_h_configure_lds,
    .scratch_bytes = rf_mut_early_scratch,
    .plan = rf_mut_early_plan,
    .launch = rf_mut_early_launch,
    .in_dtype = RF_DTYPE_BF16,
    .out_dtype = RF_DTYPE_BF16,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif

/* max/mut-partials-unwritten: a two-kernel max (grid-stride fmaxf from NaN, LDS tree, one
 * partial per block; then one block over the partials) whose second stage reduces the whole
 * partials buffer, 1024 slots, where only `grid` were written: the author counted on the
 * unused slots holding nothing that wins. Under redfuzz's poison (a NaN in every word) they
 * do not, since fmaxf ignores NaN, and every result is right; on a GPU they hold whatever the
 * memory held (an earlier case's partials, zeros), and the maximum of an input below them is
 * wrong. Scratch read before it is written: the simulator's repeat zeroes scratch
 * (run/launch_checks.h) and an input of only negative numbers then gives 0. */
#include "mut_common.h"

#define RF_MUT_PU_SLOTS 1024u   /* partials: the most blocks the first kernel runs */

/* out[blockIdx.x] = the block's maximum over `count` values, grid-stride, from NaN. */
__global__ void rf_mut_pu_kernel(const float *__restrict__ x, rf_mut_u64 count, float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 stride = (rf_mut_u64)gridDim.x * blockDim.x;
  float m = rf_prim_max_identity();
  for (rf_mut_u64 i = rf_mut_gid(); i < count; i += stride) m = fmaxf(m, x[i]);
  sd[threadIdx.x] = m;
  rf_prim_lds_max_tree(sd);
  if (threadIdx.x == 0) out[blockIdx.x] = sd[0];
}

/* The empty max. */
__global__ void rf_mut_pu_empty_kernel(float *out) {
  if (threadIdx.x == 0) out[0] = -INFINITY;
}

#if !defined(__HIP_DEVICE_COMPILE__)
static const char *rf_mut_pu_configure(rf_launch_cfg *cfg) {
  const char *why = rf_mut_configure_two_pass(cfg);
  if (!why && cfg->grid > RF_MUT_PU_SLOTS)
    return rf_reason("grid %u is not supported (allowed: 1..%u)", cfg->grid, RF_MUT_PU_SLOTS);
  return why;
}

static size_t rf_mut_pu_scratch(const rf_launch_cfg *cfg) {
  (void)cfg;
  return RF_MUT_PU_SLOTS * sizeof(float);
}

static int rf_mut_pu_launch(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  if (a->cfg.n == 0) {
    hipLaunchKernelGGL(rf_mut_pu_empty_kernel, dim3(1), dim3(1), 0, st, (float *)a->out);
    return (int)hipGetLastError();
  }
  float *partials = (float *)a->scratch;
  hipLaunchKernelGGL(rf_mut_pu_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, st, a->x,
                     (rf_mut_u64)a->cfg.n, partials);
  int err = (int)hipGetLastError();
  if (err) return err;
  /* BUG: every slot, not the grid's partials: the slots past grid were never written */
  hipLaunchKernelGGL(rf_mut_pu_kernel, dim3(1), dim3(a->cfg.block), 0, st, partials,
                     (rf_mut_u64)RF_MUT_PU_SLOTS, (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_max_partials_unwritten = {
    .name = "max/mut-partials-unwritten",
    .op = RF_OP_MAX,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT two-kernel max whose second stage reduces all 1024 partial slots, the "
        "unwritten ones too (scratch read before it is written)",
    .constraints = "block power of two 1..1024; grid 1..1024 (default min(ceil(n/block), "
        "1024)); no items",
    .configure = rf_mut_pu_configure,
    .scratch_bytes = rf_mut_pu_scratch,
    .plan = rf_mut_plan_two_pass,
    .launch = rf_mut_pu_launch};
#endif

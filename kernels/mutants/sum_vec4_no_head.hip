/* sum/mut-vec4-no-head: the float4 sum (mut_vec4.h) that assumes its input starts on a 16-byte
 * boundary: no scalar head, float4 quads from x itself, then the n mod 4 tail as scalars. Right
 * on an aligned input; on a misaligned view (case field misalign 1..3) every quad load is at an
 * address a GPU faults on (NVIDIA: misaligned address). The simulator reports it as `crash`
 * naming the load (sim/align_report.cpp); the boundary sweep's --misalign reaches it. */
#include "mut_vec4.h"

__global__ void rf_mut_vec4_no_head_kernel(const float *__restrict__ x, rf_mut_u64 n, float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 quads = n / 4;   /* BUG: no head to the first 16-byte boundary */
  const float4 *x4 = reinterpret_cast<const float4 *>(x);
  const rf_mut_u64 g = rf_mut_gid(), stride = (rf_mut_u64)gridDim.x * blockDim.x;
  float local = -0.0f;
  for (rf_mut_u64 j = g; j < quads; j += stride) local += rf_mut_quad_sum(x4[j]);
  if (g < n - 4 * quads) local += x[4 * quads + g];
  sd[threadIdx.x] = local;
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) atomicAdd(out, sd[0]);
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_vec4_no_head_launch(const rf_launch_args *a) {
  return rf_mut_launch_accumulating(a, rf_mut_vec4_no_head_kernel, a->cfg.grid);
}

extern "C" const rf_variant rf_mut_sum_vec4_no_head = {
    .name = "sum/mut-vec4-no-head",
    .op = RF_OP_SUM,
    .deterministic = 0,
    .is_mutant = 1,
    .summary = "MUTANT float4 sum that loads quads from the input pointer itself, with no scalar "
        "head to the first 16-byte boundary (faults on a misaligned view)",
    .constraints = RF_MUT_VEC4_CONSTRAINTS,
    .configure = rf_mut_vec4_configure,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_vec4_plan,
    .launch = rf_mut_vec4_no_head_launch};
#endif

/* sum/mut-vec4-overrun: the float4 sum (mut_vec4.h) that rounds the quad count up instead of
 * handling the tail as scalars, so the last float4 reads up to 3 floats past n (the runner's
 * input guard holds FLT_MAX: the sum becomes huge or infinite). Exposed when (n - head) mod 4
 * != 0, head being 0..3 elements to the first 16-byte boundary. */
#include "mut_vec4.h"

__global__ void rf_mut_vec4_overrun_kernel(const float *__restrict__ x, rf_mut_u64 n, float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 head = rf_mut_vec4_head(x, n);
  const rf_mut_u64 quads = (n - head + 3) / 4;   /* BUG: reads past n; must be (n - head) / 4 */
  const float4 *x4 = reinterpret_cast<const float4 *>(x + head);
  const rf_mut_u64 g = rf_mut_gid(), stride = (rf_mut_u64)gridDim.x * blockDim.x;
  float local = -0.0f;
  if (g < head) local += x[g];
  for (rf_mut_u64 j = g; j < quads; j += stride) local += rf_mut_quad_sum(x4[j]);
  sd[threadIdx.x] = local;   /* (no scalar tail: the last quad "covers" it) */
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) atomicAdd(out, sd[0]);
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_vec4_overrun_launch(const rf_launch_args *a) {
  return rf_mut_launch_accumulating(a, rf_mut_vec4_overrun_kernel, a->cfg.grid);
}

extern "C" const rf_variant rf_mut_sum_vec4_overrun = {
    .name = "sum/mut-vec4-overrun",
    .op = RF_OP_SUM,
    .deterministic = 0,
    .is_mutant = 1,
    .summary = "MUTANT float4 sum whose last quad reads up to 3 floats past n instead of a scalar "
        "tail",
    .constraints = RF_MUT_VEC4_CONSTRAINTS,
    .configure = rf_mut_vec4_configure,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_vec4_plan,
    .launch = rf_mut_vec4_overrun_launch,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif

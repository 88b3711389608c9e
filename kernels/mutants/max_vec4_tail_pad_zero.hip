/* max/mut-vec4-tail-pad-zero: a float4 max (mut_vec4_max.h, like max/vec4-keyed) without a
 * scalar tail: the quads are rounded up, and the last, partial quad is read lane by lane with
 * the lanes past n filled with 0, where the fold's identity (NaN, which fmaxf ignores; -inf
 * would do for inputs with a number) belongs. The masked-load fill value again (Triton's
 * `other=`, seed 004 §10.5.5), in its vector form. Exposed when (n - head) mod 4 != 0 and the
 * maximum is negative: `--op max --n 1027 --dist negative` gives 0; all-neg-inf gives 0 for
 * -inf. */
#include "mut_vec4_max.h"

__global__ void rf_mut_vec4_tail_pad_zero_kernel(const float *__restrict__ x, rf_mut_u64 n,
                                                 unsigned *key) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 head = rf_mut_vec4_head(x, n);
  const rf_mut_u64 quads = (n - head) / 4, tail_len = n - head - 4 * quads;
  const float4 *x4 = reinterpret_cast<const float4 *>(x + head);
  const rf_mut_u64 g = rf_mut_gid(), stride = (rf_mut_u64)gridDim.x * blockDim.x;
  float m = __int_as_float(0x7fc00000);   /* NaN: fmaxf ignores it, all-NaN stays NaN */
  if (g < head) m = fmaxf(m, x[g]);
  for (rf_mut_u64 j = g; j < quads + (tail_len ? 1 : 0); j += stride) {
    float4 v;
    if (j < quads) {
      v = x4[j];
    } else {   /* the partial last quad: only its first tail_len lanes are in the input */
      const float *t = x + head + 4 * quads;
      v.x = t[0];
      v.y = tail_len > 1 ? t[1] : 0.0f;   /* BUG: a lane past n must hold the identity (NaN) */
      v.z = tail_len > 2 ? t[2] : 0.0f;
      v.w = 0.0f;
    }
    m = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
  }
  sd[threadIdx.x] = m;
  rf_prim_lds_max_tree(sd);
  if (threadIdx.x == 0 && sd[0] == sd[0]) atomicMax(key, rf_prim_max_key(sd[0]));
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_vec4_tail_pad_zero_launch(const rf_launch_args *a) {
  return rf_mut_launch_max_keyed(a, rf_mut_vec4_tail_pad_zero_kernel);
}

extern "C" const rf_variant rf_mut_max_vec4_tail_pad_zero = {
    .name = "max/mut-vec4-tail-pad-zero",
    .op = RF_OP_MAX,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT float4 max that rounds the quads up and fills the lanes of the partial "
        "last quad past n with 0 instead of the identity",
    .constraints = RF_MUT_VEC4_CONSTRAINTS,
    .configure = rf_mut_vec4_configure,
    .scratch_bytes = rf_mut_max_key_scratch,
    .plan = rf_mut_vec4_max_plan,
    .launch = rf_mut_vec4_tail_pad_zero_launch};
#endif

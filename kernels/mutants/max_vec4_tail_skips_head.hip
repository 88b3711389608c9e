/* max/mut-vec4-tail-skips-head: the float4 max (mut_vec4_max.h, like max/vec4-keyed) whose scalar
 * tail starts at 4 * quads, forgetting the head: it re-reads the (n - head) mod 4 elements from
 * x[4*quads], already inside the last quads, and never reads the real tail x[head + 4*quads ..
 * n). The same off-by-head in a byte offset is the classic vector-load tail bug. Exposed when the
 * input is misaligned (head > 0), (n - head) mod 4 != 0 and the maximum is in the real tail:
 * dist sorted (ascending), e.g. n = 1027 with misalign 2 (head 2). Aligned inputs hide it. */
#include "mut_vec4_max.h"

__global__ void rf_mut_vec4_tail_skips_head_kernel(const float *__restrict__ x, rf_mut_u64 n,
                                                   unsigned *key) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 head = rf_mut_vec4_head(x, n);
  const rf_mut_u64 quads = (n - head) / 4, tail_len = n - head - 4 * quads;
  const float4 *x4 = reinterpret_cast<const float4 *>(x + head);
  const rf_mut_u64 g = rf_mut_gid(), stride = (rf_mut_u64)gridDim.x * blockDim.x;
  float m = __int_as_float(0x7fc00000);   /* NaN: fmaxf ignores it, all-NaN stays NaN */
  if (g < head) m = fmaxf(m, x[g]);
  for (rf_mut_u64 j = g; j < quads; j += stride) {
    const float4 v = x4[j];
    m = fmaxf(m, fmaxf(fmaxf(v.x, v.y), fmaxf(v.z, v.w)));
  }
  if (g < tail_len) m = fmaxf(m, x[4 * quads + g]);   /* BUG: the tail is x[head + 4*quads + g] */
  sd[threadIdx.x] = m;
  rf_mut_max_tree(sd);
  if (threadIdx.x == 0 && sd[0] == sd[0]) atomicMax(key, rf_mut_max_key(sd[0]));
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_vec4_tail_skips_head_launch(const rf_launch_args *a) {
  return rf_mut_launch_max_keyed(a, rf_mut_vec4_tail_skips_head_kernel);
}

extern "C" const rf_variant rf_mut_max_vec4_tail_skips_head = {
    "max/mut-vec4-tail-skips-head", RF_OP_MAX, 1, 1,
    "MUTANT float4 max whose scalar tail starts at 4*quads instead of head + 4*quads: the real "
    "tail is never read when the input is misaligned",
    RF_MUT_VEC4_CONSTRAINTS, rf_mut_vec4_configure, rf_mut_max_key_scratch, rf_mut_vec4_max_plan,
    rf_mut_vec4_tail_skips_head_launch, 0};
#endif

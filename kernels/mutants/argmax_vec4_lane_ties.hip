/* argmax/mut-vec4-lane-ties: the float4 argmax (mut_vec4_max.h, like argmax/vec4-keyed) with one
 * (value, index) chain per quad component, whose four chain winners are merged by value alone
 * with `>=`, as a scan over the lanes would: on a tie the later lane wins, so an input whose
 * maximum repeats inside a thread's quads reports the higher index (x of a quad is the lowest).
 * Exposed by any repeated maximum that one thread sees in two components: dist ones (aligned,
 * n >= 4: index 3 instead of 0), all-neg-inf, signed-zero rows, equal-max, ties
 * (kernels/mutants/cases/argmax-vec4-lane-ties.case).
 *
 * Its subtler sibling, the merge by value keeping the lower component (`>`), is right inside
 * one quad and wrong only across a thread's quads (x of a later quad against w of an earlier
 * one); at default launches a thread's quads are 4*grid*block elements apart and the generated
 * maxima rarely fall there, so only small launches (block 1, grid 1) expose it
 * (docs/MUTANTS.md, notes). */
#include "mut_vec4_max.h"

/* Next element of one component's chain (indices only grow): a larger value wins, or the
 * chain's first non-NaN element. NaN fails both tests. */
static __device__ __forceinline__ void rf_mut_lane_ties_take(float v, int i, float *bv, int *bi) {
  if (v > *bv || (v == *bv && *bi == RF_MUT_ARGMAX_NONE)) { *bv = v; *bi = i; }
}

/* Merge of two component chains' winners (o = the higher component). */
static __device__ __forceinline__ void rf_mut_lane_ties_merge(float ov, int oi, float *bv,
                                                              int *bi) {
  if (ov >= *bv) { *bv = ov; *bi = oi; }   /* BUG: value then lower index:
                                            *   rf_prim_first_max::beats(ov, oi, *bv, *bi) */
}

__global__ void rf_mut_vec4_lane_ties_kernel(const float *__restrict__ x, rf_mut_u64 n,
                                             rf_mut_u64 *key) {
  RF_SHARED(float, vals, RF_MUT_MAX_BLOCK);
  RF_SHARED(int, idxs, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 head = rf_mut_vec4_head(x, n);
  const rf_mut_u64 quads = (n - head) / 4, tail_start = head + 4 * quads;
  const float4 *x4 = reinterpret_cast<const float4 *>(x + head);
  const rf_mut_u64 g = rf_mut_gid(), stride = (rf_mut_u64)gridDim.x * blockDim.x;
  float cv[4] = {-INFINITY, -INFINITY, -INFINITY, -INFINITY};
  int ci[4] = {RF_MUT_ARGMAX_NONE, RF_MUT_ARGMAX_NONE, RF_MUT_ARGMAX_NONE, RF_MUT_ARGMAX_NONE};
  for (rf_mut_u64 j = g; j < quads; j += stride) {
    const float4 v = x4[j];
    const int first = (int)(head + 4 * j);
    rf_mut_lane_ties_take(v.x, first, &cv[0], &ci[0]);
    rf_mut_lane_ties_take(v.y, first + 1, &cv[1], &ci[1]);
    rf_mut_lane_ties_take(v.z, first + 2, &cv[2], &ci[2]);
    rf_mut_lane_ties_take(v.w, first + 3, &cv[3], &ci[3]);
  }
  rf_mut_lane_ties_merge(cv[1], ci[1], &cv[0], &ci[0]);
  rf_mut_lane_ties_merge(cv[3], ci[3], &cv[2], &ci[2]);
  rf_mut_lane_ties_merge(cv[2], ci[2], &cv[0], &ci[0]);
  float bv = cv[0];
  int bi = ci[0];
  if (g < head) {
    const float h = x[g];
    if (h == h && rf_prim_first_max::beats(h, (int)g, bv, bi)) { bv = h; bi = (int)g; }
  }
  if (g < n - tail_start) {
    const float t = x[tail_start + g];
    const int ti = (int)(tail_start + g);
    if (t == t && rf_prim_first_max::beats(t, ti, bv, bi)) { bv = t; bi = ti; }
  }
  rf_prim_block_argmax_lds<rf_prim_first_max>(vals, idxs, bv, bi);
  if (threadIdx.x == 0 && idxs[0] != RF_MUT_ARGMAX_NONE)
    atomicMax(key, rf_prim_argmax_pack(vals[0], idxs[0]));
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_vec4_lane_ties_launch(const rf_launch_args *a) {
  return rf_mut_launch_argmax_keyed(a, rf_mut_vec4_lane_ties_kernel);
}

extern "C" const rf_variant rf_mut_argmax_vec4_lane_ties = {
    .name = "argmax/mut-vec4-lane-ties",
    .op = RF_OP_ARGMAX,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT float4 argmax whose per-component winners are merged by value with >=: "
        "ties go to the later lane, not the lower index",
    .constraints = RF_MUT_VEC4_CONSTRAINTS,
    .configure = rf_mut_vec4_configure,
    .scratch_bytes = rf_mut_argmax_key_scratch,
    .plan = rf_mut_vec4_max_plan,
    .launch = rf_mut_vec4_lane_ties_launch};
#endif

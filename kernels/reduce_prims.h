/* The reduction primitives of the variant families, written once (issue 34): wave and block
 * reductions of sums, maxima, (value, index) pairs and online (max, sum) pairs, plus the
 * order-preserving key the cross-block integer atomics use.
 *
 * Each function states the plan levels it adds (include/redfuzz/plan.h; oracle/plan.c turns
 * them into the bound). The plan of a variant is the tree these functions build, so their
 * shapes are fixed: shuffle offsets lanes/2 down to 1, LDS strides blockDim.x/2 down to 1, the
 * own value on the left of every addition (v + other). A change in the order of the operations
 * changes the results' bits and the bounds derived for every variant that cites the primitive
 * (docs/KERNELS_SUM.md has the sum formulas). Wave functions must be called by the whole wave
 * (a shuffle reads registers of lanes that would otherwise be inactive), block functions by the
 * whole block (they hold barriers). `lanes` is a power of two <= warpSize, blockDim.x a power
 * of two. */
#ifndef RF_REDUCE_PRIMS_H
#define RF_REDUCE_PRIMS_H
#include "port.h"

/* ---- identities, keys and the two directions ------------------------------------------------ */

/* The identity of a fmaxf or fminf fold: both ignore a NaN operand, so fmaxf(NaN, v) = v for
 * every v, and an input of only NaN stays NaN (with -inf it would come out as -inf). Sums start
 * from -0 instead: x + (-0) = x for every x, +0 included (docs/ORACLE.md, "Sum"). */
static __device__ __forceinline__ float rf_prim_max_identity() {
  return __int_as_float(0x7fc00000);
}

/* Order-preserving key: for non-NaN floats, a < b exactly when key(a) < key(b) as unsigned
 * (with -0 < +0). Non-negative floats get the sign bit set, negative ones are inverted. Key 0
 * comes only from the NaN 0xffffffff, which is never encoded, so 0 means "nothing seen" to an
 * atomicMax that starts from it. */
static __device__ __forceinline__ unsigned rf_prim_max_key(float v) {
  const unsigned b = __float_as_uint(v);
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}
static __device__ __forceinline__ float rf_prim_max_unkey(unsigned k) {
  return __uint_as_float((k & 0x80000000u) ? (k & 0x7fffffffu) : ~k);
}

/* The direction of an extremum (max, min, argmax, argmin): every extremum kernel is one
 * template over it (kernels/extremum.h, kernels/argext.h, kernels/half/ext_half.h,
 * kernels/half/argext_half.h), so max and min differ only here. A direction gives:
 *  - fold(a, b): fmaxf / fminf; NaN operands are ignored, so the fold identity is NaN
 *    (rf_prim_max_identity) for both: an all-NaN input stays NaN (oracle/exact.h).
 *  - empty(): the result of n = 0 (-inf for max, +inf for min) and the value of an empty
 *    (value, index) slot: every real element beats {empty(), none} by value or, when equal
 *    (-inf for max, +inf for min), by its lower index.
 *  - key(v) / unkey(k): a 32-bit key whose unsigned maximum is the extremum (the
 *    order-preserving key for max, its inversion for min), so both merge blocks with one
 *    integer atomicMax. 0 is never a key of a non-NaN float ("nothing seen"): the NaN
 *    0xffffffff would be max's 0, the NaN 0x7fffffff min's.
 *  - beats(av, ai, bv, bi): the pair rule, (av, ai) replaces (bv, bi): the better value, or
 *    the equal value with the lower index (the first extremum: CUB ArgMax/ArgMin,
 *    torch.argmax/argmin). NaN never beats and is never beaten by a comparison, so callers
 *    skip NaN inputs before the first fold (oracle/exact.h). */
struct rf_dir_max {
  static __device__ __forceinline__ float fold(float a, float b) { return fmaxf(a, b); }
  static __device__ __forceinline__ float empty() { return -INFINITY; }
  static __device__ __forceinline__ unsigned key(float v) { return rf_prim_max_key(v); }
  static __device__ __forceinline__ float unkey(unsigned k) { return rf_prim_max_unkey(k); }
  template <typename I>
  static __device__ __forceinline__ bool beats(float av, I ai, float bv, I bi) {
    return av > bv || (av == bv && ai < bi);
  }
};
struct rf_dir_min {
  static __device__ __forceinline__ float fold(float a, float b) { return fminf(a, b); }
  static __device__ __forceinline__ float empty() { return INFINITY; }
  static __device__ __forceinline__ unsigned key(float v) { return ~rf_prim_max_key(v); }
  static __device__ __forceinline__ float unkey(unsigned k) { return rf_prim_max_unkey(~k); }
  template <typename I>
  static __device__ __forceinline__ bool beats(float av, I ai, float bv, I bi) {
    return av < bv || (av == bv && ai < bi);
  }
};
/* The name the argmax kernels and mutants have used for the first-maximum rule. */
typedef rf_dir_max rf_prim_first_max;

/* 64-bit (value, index) key of the first extremum of direction D: the value key high, the
 * inverted index low, so the integer maximum is the best value with the lowest index. -0 is
 * keyed as +0 so that the zeros tie and the index decides, as with ==. Every real pair has a
 * nonzero key (the value key of max's -inf, and of min's +inf, is 0x007fffff), so 0 means
 * "none". */
template <class D>
static __device__ __forceinline__ unsigned long long rf_prim_arg_pack(float v, int i) {
  const unsigned vk = D::key(v == 0.0f ? 0.0f : v);
  return ((unsigned long long)vk << 32) | (unsigned long long)(0xffffffffu - (unsigned)i);
}
static __device__ __forceinline__ unsigned long long rf_prim_argmax_pack(float v, int i) {
  return rf_prim_arg_pack<rf_dir_max>(v, i);
}
/* The index of a nonzero packed key. */
static __device__ __forceinline__ int rf_prim_arg_unpack_index(unsigned long long k) {
  return (int)(0xffffffffu - (unsigned)(k & 0xffffffffu));
}

/* The same key with a block number where the index was (the 64-bit-index argmax kernels,
 * kernels/argext.h: each block owns a contiguous chunk of the input, so among blocks whose
 * winners tie on the value the lowest block holds the lowest index). 0 means "none". */
template <class D>
static __device__ __forceinline__ unsigned long long rf_prim_arg_block_key(float v, unsigned b) {
  const unsigned vk = D::key(v == 0.0f ? 0.0f : v);
  return ((unsigned long long)vk << 32) | (unsigned long long)(0xffffffffu - b);
}
/* The block of a nonzero block key. */
static __device__ __forceinline__ unsigned rf_prim_arg_unpack_block(unsigned long long k) {
  return 0xffffffffu - (unsigned)(k & 0xffffffffu);
}

/* ---- wave reductions: plan level RF_LEVEL_WAVE, depth log2(lanes) ----------------------------- */

/* Sum, lane 0 ends with the group's sum: v += __shfl_down(v, o). Lanes above 0 hold partial
 * sums. */
static __device__ __forceinline__ float rf_prim_wave_sum_down(float v, unsigned lanes) {
  for (unsigned o = lanes / 2; o > 0; o >>= 1) v += __shfl_down(v, o);
  return v;
}

/* Sum butterfly: every lane of a group ends with the same sum (a + b and b + a round alike):
 * v += __shfl_xor(v, o). */
static __device__ __forceinline__ float rf_prim_wave_sum_xor(float v, unsigned lanes) {
  for (unsigned o = lanes / 2; o > 0; o >>= 1) v += __shfl_xor(v, (int)o);
  return v;
}

/* Extremum butterfly: every lane of a group ends with the group's D::fold (exact in any
 * order). */
template <class D>
static __device__ __forceinline__ float rf_prim_wave_ext(float v, unsigned lanes) {
  for (unsigned o = lanes / 2; o > 0; o >>= 1) v = D::fold(v, __shfl_xor(v, (int)o));
  return v;
}
static __device__ __forceinline__ float rf_prim_wave_max(float v, unsigned lanes) {
  return rf_prim_wave_ext<rf_dir_max>(v, lanes);
}

/* ---- (value, index) pairs: argmax-style, exact in any order under a total order --------------- */

/* The rules are the directions above (D::beats): the tie and NaN rules live there; the trees
 * below are the same for all. */

/* An index through __shfl_xor: an int as it is; a 64-bit index (the argmax kernels' long long,
 * past 2^31) as its two 32-bit halves, the port's wave operations taking 32-bit values only
 * (port.h). */
static __device__ __forceinline__ int rf_prim_shfl_xor_index(int i, int o) {
  return __shfl_xor(i, o);
}
static __device__ __forceinline__ long long rf_prim_shfl_xor_index(long long i, int o) {
  const unsigned long long u = (unsigned long long)i;
  const unsigned lo = __shfl_xor((unsigned)(u & 0xffffffffu), o);
  const unsigned hi = __shfl_xor((unsigned)(u >> 32), o);
  return (long long)(((unsigned long long)hi << 32) | lo);
}

/* Pair butterfly (plan: RF_LEVEL_WAVE, log2(lanes) comparisons): every lane of a group ends
 * with the same winner when the rule's order is total. I: int, or long long (64-bit indices). */
template <class Rule, typename I>
static __device__ __forceinline__ void rf_prim_wave_argmax(float *v, I *i, unsigned lanes) {
  for (unsigned o = lanes / 2; o > 0; o >>= 1) {
    const float ov = __shfl_xor(*v, (int)o);
    const I oi = rf_prim_shfl_xor_index(*i, (int)o);
    if (Rule::beats(ov, oi, *v, *i)) { *v = ov; *i = oi; }
  }
}

/* Sequential-addressing LDS tree over blockDim.x pairs (plan: RF_LEVEL_LDS, log2(blockDim.x));
 * the winner is in vals[0], idxs[0] after the last barrier. */
template <class Rule, typename I>
static __device__ __forceinline__ void rf_prim_block_argmax_lds(float *vals, I *idxs, float v,
                                                                I i) {
  const unsigned t = threadIdx.x;
  vals[t] = v;
  idxs[t] = i;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s && Rule::beats(vals[t + s], idxs[t + s], vals[t], idxs[t])) {
      vals[t] = vals[t + s];
      idxs[t] = idxs[t + s];
    }
    __syncthreads();
  }
}

/* Block winner by waves (plan: RF_LEVEL_WAVE log2(wave), then RF_LEVEL_WAVE
 * log2(blockDim.x / wave)): wave butterflies, wave winners through LDS (wv, wi: one slot a
 * wave), the first wave (whole) finishes over the waves that exist; its missing lanes bring
 * the empty slot {Rule::empty(), none}. Lane 0 of wave 0 holds the block's winner in *v, *i. */
template <class Rule, typename I>
static __device__ __forceinline__ void rf_prim_block_argmax_waves(float *wv, I *wi, float *v,
                                                                  I *i, I none) {
  const unsigned lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
  const unsigned waves = blockDim.x / warpSize;
  rf_prim_wave_argmax<Rule>(v, i, warpSize);
  if (lane == 0) {
    wv[wave] = *v;
    wi[wave] = *i;
  }
  __syncthreads();
  if (wave == 0) {
    *v = lane < waves ? wv[lane] : Rule::empty();
    *i = lane < waves ? wi[lane] : none;
    rf_prim_wave_argmax<Rule>(v, i, waves);
  }
}

/* ---- block reductions of floats --------------------------------------------------------------- */

/* Sequential-addressing LDS trees (plan: RF_LEVEL_LDS, log2(blockDim.x)): the caller wrote
 * sd[threadIdx.x]; the first barrier publishes it; the result is in sd[0] after the last one. */
static __device__ __forceinline__ void rf_prim_lds_sum_tree(float *sd) {
  const unsigned t = threadIdx.x;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) sd[t] += sd[t + s];
    __syncthreads();
  }
}
template <class D>
static __device__ __forceinline__ void rf_prim_lds_ext_tree(float *sd) {
  const unsigned t = threadIdx.x;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) sd[t] = D::fold(sd[t], sd[t + s]);
    __syncthreads();
  }
}
static __device__ __forceinline__ void rf_prim_lds_max_tree(float *sd) {
  rf_prim_lds_ext_tree<rf_dir_max>(sd);
}

/* The extremum tree over v, returned to every thread (read after the last barrier). A caller
 * that writes lds again needs a reader barrier first. */
template <class D>
static __device__ __forceinline__ float rf_prim_block_ext_lds(float *lds, float v) {
  lds[threadIdx.x] = v;
  rf_prim_lds_ext_tree<D>(lds);
  return lds[0];
}
static __device__ __forceinline__ float rf_prim_block_max_lds(float *lds, float v) {
  return rf_prim_block_ext_lds<rf_dir_max>(lds, v);
}

/* Thread 0 ends with the block's sum (plan: RF_LEVEL_WAVE log2(wave), RF_LEVEL_WAVE
 * log2(blockDim.x / wave)): a shuffle tree per wave, the wave sums through LDS (one slot a
 * wave), then the first wave shuffles them over the waves that exist only, its other lanes
 * bringing -0, so the depth is exactly log2(blockDim.x). */
static __device__ __forceinline__ float rf_prim_block_sum_waves(float *wave_sums, float v) {
  const unsigned lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
  const unsigned waves = blockDim.x / warpSize;
  v = rf_prim_wave_sum_down(v, warpSize);
  if (lane == 0) wave_sums[wave] = v;
  __syncthreads();
  float s = -0.0f;
  if (wave == 0) s = rf_prim_wave_sum_down(lane < waves ? wave_sums[lane] : -0.0f, waves);
  return s;
}

/* Thread 0 ends with the block's extremum (plan: RF_LEVEL_WAVE log2(wave), RF_LEVEL_WAVE
 * log2(blockDim.x / wave)), the same shape as rf_prim_block_sum_waves with D::fold and the NaN
 * identity. */
template <class D>
static __device__ __forceinline__ float rf_prim_block_ext_waves(float *wave_part, float v) {
  const unsigned lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
  const unsigned waves = blockDim.x / warpSize;
  v = rf_prim_wave_ext<D>(v, warpSize);
  if (lane == 0) wave_part[wave] = v;
  __syncthreads();
  float m = rf_prim_max_identity();
  if (wave == 0)
    m = rf_prim_wave_ext<D>(lane < waves ? wave_part[lane] : rf_prim_max_identity(), waves);
  return m;
}
static __device__ __forceinline__ float rf_prim_block_max_waves(float *wave_max, float v) {
  return rf_prim_block_ext_waves<rf_dir_max>(wave_max, v);
}

/* The block's maximum (IS_MAX, -inf identity: a row max) or sum (+0 identity) of v, returned to
 * every thread (plan: RF_LEVEL_WAVE log2(wave), RF_LEVEL_WAVE log2(blockDim.x / wave)):
 * butterflies per wave, wave results through wave_part (one slot a wave), the first wave
 * (whole) finishes, its lane 0 writes *slot, a barrier, every thread reads *slot. Reuse is safe
 * back to back: wave_part is written again only after the next call's shuffles, which follow
 * this call's last barrier, which follows the first wave's reads; *slot is written again only
 * after the next call's first barrier, which follows every read of it here. Masked lanes bring
 * -inf to a max (never 0: an all-negative row would get max 0) and 0 to a sum. */
template <bool IS_MAX>
static __device__ __forceinline__ float rf_prim_block_allreduce_waves(float v, float *wave_part,
                                                                      float *slot) {
  const unsigned lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
  const unsigned waves = blockDim.x / warpSize;
  v = IS_MAX ? rf_prim_wave_max(v, warpSize) : rf_prim_wave_sum_xor(v, warpSize);
  if (lane == 0) wave_part[wave] = v;
  __syncthreads();
  if (wave == 0) {   /* the whole first wave: every lane takes part in the shuffles */
    const float identity = IS_MAX ? -INFINITY : 0.0f;
    v = lane < waves ? wave_part[lane] : identity;
    v = IS_MAX ? rf_prim_wave_max(v, waves) : rf_prim_wave_sum_xor(v, waves);
    if (lane == 0) *slot = v;
  }
  __syncthreads();
  return *slot;
}

/* ---- online (max, sum) pairs: softmax, log-softmax, logsumexp --------------------------------- */

/* Online normaliser state (Milakov & Gimelshein 2018, "Online normalizer calculation for
 * softmax"): m the largest element seen, s = Σ exp(x - m) over the elements seen; empty:
 * m = -inf, s = 0. Two rules, chosen by SOFTMAX (docs/ORACLE.md has both policies):
 *  - softmax and log-softmax (SOFTMAX = true): a new maximum rescales s and adds exp(x - x),
 *    1 for finite x and NaN for +inf, which poisons the row as the policy says; -inf is
 *    skipped, so m = -inf never meets x = -inf (exp(-inf + inf) = NaN); NaN poisons s. An all
 *    -inf row ends with s = 0.
 *  - logsumexp (SOFTMAX = false): a new maximum rescales s (s * exp(m_old - x) is 0 * 0 = 0
 *    from the empty state; NaN stays NaN) and adds exactly 1; an element equal to m adds
 *    exactly 1 (so -inf elements of an all -inf row count, and two +inf give 2, not NaN); the
 *    rest, NaN included, add exp(x - m).
 * The chain is the plan's RF_LEVEL_CHAIN: one push per element, in the caller's order. */
template <bool SOFTMAX>
static __device__ __forceinline__ void rf_prim_online_push(float *m, float *s, float x) {
  if (x > *m) {
    *s = *s * expf(*m - x) + (SOFTMAX ? expf(x - x) : 1.0f);
    *m = x;
  } else if (SOFTMAX ? x != -INFINITY : x != *m) {
    *s += expf(x - *m);
  } else if (!SOFTMAX) {
    *s += 1.0f;
  }
}

/* (m, s) <- (m, s) combined with (om, os). m is never NaN: NaN never wins x > m.
 * softmax: both empty (m = om = -inf) just add (0, or NaN that must survive), no
 * exp(-inf + inf); else both sides are rescaled to the larger maximum.
 * logsumexp: only the side with the smaller maximum is rescaled; equal maxima (±inf included)
 * just add. */
template <bool SOFTMAX>
static __device__ __forceinline__ void rf_prim_online_merge(float *m, float *s, float om,
                                                            float os) {
  const float mm = fmaxf(*m, om);
  if (SOFTMAX) {
    if (mm == -INFINITY) *s = *s + os;
    else *s = *s * expf(*m - mm) + os * expf(om - mm);
  } else {
    const float a = *m == mm ? *s : *s * expf(*m - mm);
    const float b = om == mm ? os : os * expf(om - mm);
    *s = a + b;
  }
  *m = mm;
}

/* Pair butterfly (plan: RF_LEVEL_WAVE, log2(lanes) merges): every lane of a group ends with the
 * group's state. */
template <bool SOFTMAX>
static __device__ __forceinline__ void rf_prim_wave_online(float *m, float *s, unsigned lanes) {
  for (unsigned o = lanes / 2; o > 0; o >>= 1) {
    const float om = __shfl_xor(*m, (int)o), os = __shfl_xor(*s, (int)o);
    rf_prim_online_merge<SOFTMAX>(m, s, om, os);
  }
}

/* Sequential-addressing LDS tree of online pairs (plan: RF_LEVEL_LDS, log2(blockDim.x)
 * merges): the caller wrote sm[threadIdx.x], ss[threadIdx.x]; the first barrier publishes them;
 * the block's state is in sm[0], ss[0] after the last one. */
template <bool SOFTMAX>
static __device__ __forceinline__ void rf_prim_lds_online_tree(float *sm, float *ss) {
  const unsigned t = threadIdx.x;
  __syncthreads();
  for (unsigned half = blockDim.x / 2; half > 0; half >>= 1) {
    if (t < half) {
      float mine_m = sm[t], mine_s = ss[t];
      rf_prim_online_merge<SOFTMAX>(&mine_m, &mine_s, sm[t + half], ss[t + half]);
      sm[t] = mine_m;
      ss[t] = mine_s;
    }
    __syncthreads();
  }
}

#endif

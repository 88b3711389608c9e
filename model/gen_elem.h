/* The input generators as element-wise pure functions (docs/CASE_FORMAT.md, "Input
 * generation"): x_i = rf_gen_elem(params, i) depends on the case's seed streams, i, the row
 * length and the total only, never on other elements. So the host (model/gen.c) and the
 * device (kernels/harness/gen_device.hip) run the very same code and give identical bits, and any
 * element can be made alone.
 *
 * Usable from C11 and from HIP/CUDA device code: no libm, no memcpy on the device, only
 * integer arithmetic plus exact conversions (float)k with |k| <= 2^24 and exact scalings by
 * powers of two whose results stay normal. Rounding mode, FMA contraction and excess
 * precision therefore cannot change a bit. */
#ifndef RF_GEN_ELEM_H
#define RF_GEN_ELEM_H
#include <stdint.h>

#if defined(__HIPCC__) || defined(__CUDACC__) || (defined(RF_SIM) && defined(__cplusplus))
#define RF_HD __host__ __device__ static inline
#else
#define RF_HD static inline
#endif

/* Distribution numbers from the one table (model/dists.def, plain macros, fine on the device
 * where case.h is not), so they are rf_dist's by construction. */
enum {
#define RF_DIST(id, name, since, sparse, golden_1d, golden_rows, meaning) RF_GEN_##id,
#include "dists.def"
#undef RF_DIST
  RF_GEN_COUNT
};

/* Everything an element needs: plain data, passed by value to the device kernel. */
typedef struct {
  uint64_t key, aux;  /* the two streams: first two splitmix64 outputs from the seed */
  uint64_t seed;
  uint64_t len;       /* row length: cols for softmax, n for the 1-D ops */
  uint64_t total;     /* element count */
  uint32_t dist;      /* RF_GEN_* */
  uint32_t softmax;   /* 1 for softmax (rows of len), 0 for the 1-D ops (one row) */
  uint32_t dtype;     /* rf_dtype: 0 float32, 1 f16, 2 bf16 (model/gen_half.h) */
} rf_gen_params;

#define RF_GEN_GAMMA UINT64_C(0x9E3779B97F4A7C15)

/* SplitMix64 (Steele, Lea, Flood, OOPSLA 2014): output of state s (already advanced), with
 * the "Mix13" finaliser constants of Java's SplittableRandom.mix64. */
RF_HD uint64_t rf_gen_mix(uint64_t z) {
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

/* Output i (0-based) of the stream that starts at state key: random access. */
RF_HD uint64_t rf_gen_word(uint64_t key, uint64_t i) {
  return rf_gen_mix(key + (i + 1) * RF_GEN_GAMMA);
}

RF_HD float rf_gen_from_bits(uint32_t b) {
#if defined(__HIP_DEVICE_COMPILE__) || defined(__CUDA_ARCH__)
  return __uint_as_float(b);
#else
  union { uint32_t u; float f; } v;  /* C: defined; C++ host compilers: documented extension */
  v.u = b;
  return v.f;
#endif
}

/* Signed 24-bit integer in [-2^23, 2^23), signed 14-bit in [-2^13, 2^13), from top bits. */
RF_HD int32_t rf_gen_int24(uint64_t w) { return (int32_t)(w >> 40) - (1 << 23); }
RF_HD int32_t rf_gen_int14(uint64_t w) { return (int32_t)(w >> 50) - (1 << 13); }
RF_HD uint32_t rf_gen_mant(uint64_t w) { return (uint32_t)w & 0x7FFFFFu; }
RF_HD uint32_t rf_gen_sign(uint64_t w) { return (uint32_t)(w >> 63) << 31; }
RF_HD uint32_t rf_gen_mid(uint64_t w) { return (uint32_t)(w >> 23); } /* bits 23..54 */

/* [-1, 1) on the 2^-23 grid: the `uniform` value and the background of several others. */
RF_HD float rf_gen_uniform(uint64_t w) { return (float)rf_gen_int24(w) * 0x1p-23f; }

/* Per-row choice j of row r: output 16r + j of the aux stream. */
RF_HD uint64_t rf_gen_aux(const rf_gen_params *p, uint64_t r, uint64_t j) {
  return rf_gen_word(p->aux, r * 16 + j);
}

/* Number of bits of v (0 for 0). */
RF_HD uint32_t rf_gen_bits(uint64_t v) {
  uint32_t l = 0;
  while (v) { l++; v >>= 1; }
  return l;
}

/* A block or wave size per row, 32 << (0..5) = 32..1024: boundaries sit at multiples of it. */
RF_HD uint64_t rf_gen_boundary(const rf_gen_params *p, uint64_t r) {
  return UINT64_C(32) << (rf_gen_aux(p, r, 3) % 6);
}

/* A quiet NaN with a seeded sign and payload: kernels must not depend on one NaN pattern. */
RF_HD float rf_gen_nan(uint64_t w) {
  return rf_gen_from_bits(rf_gen_sign(w) | 0x7FC00000u | ((uint32_t)(w >> 20) & 0x3FFFFFu));
}

/* sorted: element i of n gets an integer key in its own interval [lo_i, hi_i) of [0, 2^24),
 * lo_i = floor(i 2^24 / n), so keys never decrease; the jitter inside the interval is seeded. */
RF_HD float rf_gen_sorted(uint64_t w, uint64_t i, uint64_t n) {
  /* i 2^24 < 2^56 for n <= 2^32 */
  uint64_t lo = (i << 24) / n, hi = ((i + 1) << 24) / n;
  uint64_t k = hi > lo ? lo + (w >> 11) % (hi - lo) : lo;
  return (float)((int32_t)k - (1 << 23)) * 0x1p-23f;
}

/* wide: random sign and mantissa, biased exponent uniform in 1..253-L, L = bit length of the
 * row length. Each |x| < 2^(127-L) and len < 2^L, so Σ|x| < 2^127: every partial sum in
 * any order, and its rounding, stays finite. For n = 1027 that is 242 binades. */
RF_HD float rf_gen_wide(uint64_t w, uint64_t len) {
  uint32_t top = 253u - rf_gen_bits(len); /* >= 220 for len < 2^33 */
  return rf_gen_from_bits(rf_gen_sign(w) | (1u + rf_gen_mid(w) % top) << 23 | rf_gen_mant(w));
}

/* The parameters of a case: the streams are the first two splitmix64 outputs from the seed;
 * len is the row length (cols for softmax, the element count for the 1-D ops). */
RF_HD rf_gen_params rf_gen_params_make(uint64_t seed, uint32_t dist, uint32_t softmax,
                                       uint64_t len, uint64_t total) {
  rf_gen_params p;
  p.key = rf_gen_word(seed, 0);
  p.aux = rf_gen_word(seed, 1);
  p.seed = seed;
  p.len = len;
  p.total = total;
  p.dist = dist;
  p.softmax = softmax;
  p.dtype = 0;   /* float32; callers set the case's type */
  return p;
}

/* What a row's elements share: derived from the aux stream at that row alone, so computing it
 * per element (the device) or once per row (the host loop) gives the same bits. */
typedef struct {
  uint64_t r;        /* row number */
  uint64_t v0, v1, v2; /* per distribution, see rf_gen_row_of */
  uint64_t B;        /* block/wave size of the row (nan-sprinkled, ties) */
} rf_gen_row;

/* The mirrored distributions (min and argmin's placements): their base distribution's
 * element negated, the row context the base's; other distributions are their own base. */
RF_HD uint32_t rf_gen_mirror_base(uint32_t d) {
  return d == RF_GEN_EQUAL_MIN ? (uint32_t)RF_GEN_EQUAL_MAX
       : d == RF_GEN_TIES_MIN  ? (uint32_t)RF_GEN_TIES
                               : d;
}

/* 1 when distribution d reads the row context. */
RF_HD int rf_gen_uses_row(uint32_t d) {
  d = rf_gen_mirror_base(d);
  return d == RF_GEN_EQUAL_MAX || d == RF_GEN_SPIKE || d == RF_GEN_NAN_SPRINKLED ||
         d == RF_GEN_INF_MIXED || d == RF_GEN_SIGNED_ZERO || d == RF_GEN_TIES;
}

RF_HD rf_gen_row rf_gen_row_of(const rf_gen_params *p, uint64_t r) {
  rf_gen_row q;
  const uint64_t len = p->len ? p->len : 1;
  q.r = r;
  q.v0 = q.v1 = q.v2 = 0;
  q.B = 32;
  switch (rf_gen_mirror_base(p->dist)) {
  case RF_GEN_EQUAL_MAX:
    /* count = 2..min(8, len) maxima (2.0) at a + k*s (mod len), k < count, with
     * 1 <= s <= len / count, so the positions are distinct and column j decides alone. */
    if (len == 1) {
      q.v0 = 1; q.v1 = 0; q.v2 = 1;
    } else {
      const uint64_t cap = len - 1 < 7 ? len - 1 : 7;
      q.v0 = 2 + rf_gen_aux(p, r, 0) % cap;                   /* count */
      q.v1 = rf_gen_aux(p, r, 1) % len;                       /* a */
      q.v2 = 1 + rf_gen_aux(p, r, 2) % (len / q.v0);          /* s */
    }
    break;
  case RF_GEN_SPIKE:
    q.v0 = rf_gen_aux(p, r, 0) % len;                         /* position */
    q.v1 = (127u + 20u) << 23 | rf_gen_mant(rf_gen_aux(p, r, 1)); /* bits in [2^20, 2^21) */
    break;
  case RF_GEN_NAN_SPRINKLED:
    q.v0 = rf_gen_aux(p, r, 0);                               /* mode bits */
    q.B = rf_gen_boundary(p, r);
    break;
  case RF_GEN_INF_MIXED:
    q.v0 = rf_gen_aux(p, r, 0) % 3;                           /* mode */
    q.v1 = rf_gen_aux(p, r, 1) % len;                         /* first infinity */
    q.v2 = rf_gen_aux(p, r, 2) % len;                         /* -inf when both signs */
    break;
  case RF_GEN_SIGNED_ZERO: q.v0 = rf_gen_aux(p, r, 0) % 4; break;
  case RF_GEN_TIES: q.B = rf_gen_boundary(p, r); break;
  default: break;
  }
  return q;
}

#include "gen_half.h"
#include "gen_markers.h"

/* Element i (column j of row q->r) of a distribution that is its own base. */
RF_HD float rf_gen_elem_base(const rf_gen_params *p, const rf_gen_row *q, uint64_t i,
                             uint64_t j) {
  if (p->dtype != 0 && rf_gen_half_own(p->dist)) return rf_gen_half_elem(p, q, i, j);
  const uint64_t w = rf_gen_word(p->key, i);
  const uint64_t len = p->len ? p->len : 1;
  switch (p->dist) {
  case RF_GEN_ALTERNATING: /* seed bit 0 set: +1 first, so seed 1 and n 1027 sum to 1 */
    return ((i & 1) == 0) == ((p->seed & 1) == 1) ? 1.0f : -1.0f;
  case RF_GEN_ONES: return 1.0f;
  case RF_GEN_WIDE: return rf_gen_wide(w, p->len);
  case RF_GEN_OVERFLOW: /* biased exponent 1..254: every finite normal binade */
    return rf_gen_from_bits(rf_gen_sign(w) | (1u + rf_gen_mid(w) % 254u) << 23 | rf_gen_mant(w));
  case RF_GEN_NEGATIVE: /* -[2^-8, 2^8) */
    return rf_gen_from_bits(1u << 31 | (119u + (rf_gen_mid(w) & 15u)) << 23 | rf_gen_mant(w));
  case RF_GEN_SHIFTED_ROWS:
    if (p->softmax) {
      /* base row on a 2^-10 grid in [-8, 8); |k| < 1008 * 2^10 < 2^24 so +-1000 is exact */
      const uint64_t r = i / len;
      const int32_t shift = r % 3 == 0 ? 0 : r % 3 == 1 ? 1000 * 1024 : -1000 * 1024;
      return (float)(rf_gen_int14(rf_gen_word(p->key, j)) + shift) * 0x1p-10f;
    }
    /* [999, 1001) on a 2^-13 grid: 1000 * 2^13 + k < 2^23, exact */
    return (float)(1000 * 8192 + rf_gen_int14(w)) * 0x1p-13f;
  case RF_GEN_INDEX_WEIGHTED: /* integers 1..7: exact sums while the sum < 2^24 */
    return (float)(1 + (i + p->seed % 7) % 7);
  case RF_GEN_SPIKE: /* the row's unique maximum at one seeded column, tiny background */
    if (j == q->v0) return rf_gen_from_bits((uint32_t)q->v1);
    return (float)rf_gen_int24(w) * 0x1p-43f; /* [-2^-20, 2^-20) */
  case RF_GEN_SUBNORMAL: return rf_gen_from_bits(rf_gen_sign(w) | (1u + rf_gen_mant(w) % 0x7FFFFFu));
  case RF_GEN_NEAR_OVERFLOW: /* biased exponent 253 or 254: [2^126, FLT_MAX] */
    return rf_gen_from_bits(rf_gen_sign(w) | (253u + (rf_gen_mid(w) & 1u)) << 23 | rf_gen_mant(w));
  case RF_GEN_EQUAL_MAX: {
    const uint64_t d = (j + len - q->v1) % len; /* distance past a, mod len */
    return d % q->v2 == 0 && d / q->v2 < q->v0 ? 2.0f : rf_gen_uniform(w);
  }
  case RF_GEN_SORTED: return rf_gen_sorted(w, i, p->total);
  case RF_GEN_NAN_SPRINKLED: {
    /* A few NaNs in a uniform row: at column 0 and/or the last column (row mode bits 0, 1),
     * and on both sides of some block boundaries (multiples of B), about one boundary in 4. */
    const uint64_t B = q->B;
    int nan = (j == 0 && (q->v0 & 1)) || (j == len - 1 && (q->v0 & 2));
    const uint64_t in_block = j & (B - 1); /* B is a power of two */
    if ((in_block == B - 1 || in_block == 0) && j + 1 >= B) {
      const uint64_t k = (j + 1) / B; /* columns kB-1 and kB belong to boundary k */
      if (rf_gen_word(p->aux ^ q->r, k) % 4 == 0) nan = 1;
    }
    return nan ? rf_gen_nan(w) : rf_gen_uniform(w);
  }
  case RF_GEN_INF_MIXED: {
    /* Row mode 0: +inf only, 1: -inf only, 2: both. One infinity at a seeded column (the
     * second sign at another), plus about 1 element in 64. */
    const uint64_t mode = q->v0;
    const uint32_t pos = 0x7F800000u, neg = 0xFF800000u;
    if (j == q->v1) return rf_gen_from_bits(mode == 1 ? neg : pos);
    if (mode == 2 && j == q->v2) return rf_gen_from_bits(neg);
    if ((w & 63) == 0)
      return rf_gen_from_bits(mode == 0 ? pos : mode == 1 ? neg : (w >> 63) ? neg : pos);
    return rf_gen_uniform(w);
  }
  case RF_GEN_SIGNED_ZERO:
    /* Row mode 0: all -0, 1: all +0, 2: random-signed zeros, 3: uniform with 1 in 8 a
     * random-signed zero. */
    if (q->v0 == 0) return rf_gen_from_bits(0x80000000u);
    if (q->v0 == 1) return rf_gen_from_bits(0);
    if (q->v0 == 2 || (w & 7) == 0) return rf_gen_from_bits(rf_gen_sign(w));
    return rf_gen_uniform(w);
  case RF_GEN_MARKERS: return rf_gen_marker_elem(p->key, len, 0, j);
  case RF_GEN_SIGNED_MARKERS: return rf_gen_marker_elem(p->key, len, 1, j);
  case RF_GEN_ALL_NAN: return rf_gen_nan(w);
  case RF_GEN_ALL_NEG_INF: return rf_gen_from_bits(0xFF800000u);
  case RF_GEN_ALL_POS_INF: return rf_gen_from_bits(0x7F800000u);
  case RF_GEN_TIES: {
    /* The row maximum 2.0 on both sides of every multiple of B (a seeded block or wave size)
     * and at the last column; the background is on a coarse grid (k/8, k in [-8, 8)), so it
     * ties too. */
    const uint64_t B = q->B, in_block = j & (B - 1); /* B is a power of two */
    if (j == len - 1 || in_block == B - 1 || (j >= B && in_block == 0)) return 2.0f;
    return (float)((int32_t)(w >> 60) - 8) * 0.125f;
  }
  case RF_GEN_UNIFORM:
  default: return rf_gen_uniform(w);
  }
}

/* Element i (column j of row q->r) given its row's context; a value of the case's type (a
 * mirrored distribution's negation of a value of the type is one too). */
RF_HD float rf_gen_elem_in_row(const rf_gen_params *p, const rf_gen_row *q, uint64_t i,
                               uint64_t j) {
  const uint32_t base = rf_gen_mirror_base(p->dist);
  if (base == p->dist) return rf_gen_elem_base(p, q, i, j);
  rf_gen_params b = *p;
  b.dist = base;
  return -rf_gen_elem_base(&b, q, i, j);
}

/* Element i alone: the row context is computed here (the device generator's path). The 1-D
 * ops have one row, so they skip the 64-bit division. */
RF_HD float rf_gen_elem(const rf_gen_params *p, uint64_t i) {
  const uint64_t len = p->len ? p->len : 1;
  const uint64_t r = p->softmax ? i / len : 0, j = p->softmax ? i - r * len : i;
  rf_gen_row q;
  if (rf_gen_uses_row(p->dist)) {
    q = rf_gen_row_of(p, r);
  } else {
    q.r = r;
    q.v0 = q.v1 = q.v2 = 0;
    q.B = 32;
  }
  return rf_gen_elem_in_row(p, &q, i, j);
}

#endif

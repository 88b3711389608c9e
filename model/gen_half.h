/* The distributions in the 16-bit types (f16, bf16): each keeps its meaning in the type's own
 * terms (docs/CASE_FORMAT.md, "Element types"): `wide` spans the type's own binades while the
 * sum of |x| stays below its overflow, `subnormal` draws its subnormals, `near-overflow` its
 * top two binades, `uniform` is [-1, 1) on the type's 2^-(p-1) grid, and so on. Every value
 * returned is exactly representable in the type, so encoding it (model/dtype_bits.h) is exact
 * and the exact oracle sees the same value as the kernel. Included by gen_elem.h only (it
 * uses its helpers); same rules: integer arithmetic and exact float operations only, so host
 * and device give the same bits. float32 keeps its own generator, its golden hashes pinned. */
#ifndef RF_GEN_HALF_H
#define RF_GEN_HALF_H
#include "dtype_bits.h"

/* The type's shape from its rf_dtype number: 1 f16 (p 11, 5 exponent bits), 2 bf16 (p 8, 8).
 * These are model/dtypes.def's p and ebits (tests/case/test_gen_props.c checks they agree). */
typedef struct { uint32_t dtype, m, ebits, bias; } rf_gen_ht;
RF_HD rf_gen_ht rf_gen_ht_of(uint32_t dtype) {
  rf_gen_ht t;
  t.dtype = dtype;
  t.m = dtype == 2u ? 7u : 10u;        /* significand field bits, p - 1 */
  t.ebits = dtype == 2u ? 8u : 5u;
  t.bias = (1u << (t.ebits - 1u)) - 1u; /* 15, 127: emax = bias, emin = 1 - bias */
  return t;
}
RF_HD float rf_gen_h(const rf_gen_ht *t, uint32_t sign, uint32_t bexp, uint32_t mant) {
  return rf_half_to_f32(t->dtype, (uint16_t)((sign ? 0x8000u : 0u) | bexp << t->m | mant));
}
RF_HD uint32_t rf_gen_hmant(const rf_gen_ht *t, uint64_t w) { return (uint32_t)w & ((1u << t->m) - 1u); }
RF_HD uint32_t rf_gen_hsign(uint64_t w) { return (uint32_t)(w >> 63); }
/* 2^e as float32, e a normal float32 exponent: scalings by it are exact. */
RF_HD float rf_gen_pow2(int32_t e) { return rf_gen_from_bits((uint32_t)(127 + e) << 23); }
/* [-1, 1) on the type's 2^-m grid: k 2^-m with k in [-2^m, 2^m) fits the type's p bits. */
RF_HD float rf_gen_huniform(const rf_gen_ht *t, uint64_t w) {
  const int32_t k = (int32_t)(w >> (63u - t->m)) - (int32_t)(1u << t->m);
  return (float)k * rf_gen_pow2(-(int32_t)t->m);
}
/* A quiet NaN of the type with a seeded sign and payload. The payload bit below the quiet bit
 * stays clear: the runner's 16-bit poison (run/buffers.h, 0x7FBA) is a quiet NaN in f16 with
 * that bit set, and a correct kernel that passes an input NaN through (float32 arithmetic and
 * the conversions keep the payload) must not write what reads as "unwritten". */
RF_HD float rf_gen_hnan(const rf_gen_ht *t, uint64_t w) {
  const uint32_t quiet = 1u << (t->m - 1u), payload = (uint32_t)(w >> 20) & (quiet / 2u - 1u);
  return rf_gen_h(t, rf_gen_hsign(w), (1u << t->ebits) - 1u, quiet | payload);
}
RF_HD float rf_gen_hinf(const rf_gen_ht *t, uint32_t neg) {
  return rf_gen_h(t, neg, (1u << t->ebits) - 1u, 0);
}

RF_HD float rf_gen_half_elem(const rf_gen_params *p, const rf_gen_row *q, uint64_t i, uint64_t j) {
  const rf_gen_ht t = rf_gen_ht_of(p->dtype);
  const uint64_t w = rf_gen_word(p->key, i);
  const uint64_t len = p->len ? p->len : 1;
  const uint32_t M = t.m, bias = t.bias, top_exp = 2u * bias; /* largest finite biased exponent */
  switch (p->dist) {
  case RF_GEN_WIDE: { /* biased exponent 1..2 bias - 1 - L: |x| < 2^(emax - L), Σ|x| < 2^emax */
    const uint32_t L = rf_gen_bits(p->len);
    const uint32_t top = top_exp - 1u > L ? top_exp - 1u - L : 1u; /* floor: one binade */
    return rf_gen_h(&t, rf_gen_hsign(w), 1u + rf_gen_mid(w) % top, rf_gen_hmant(&t, w));
  }
  case RF_GEN_OVERFLOW: /* every finite normal binade of the type */
    return rf_gen_h(&t, rf_gen_hsign(w), 1u + rf_gen_mid(w) % top_exp, rf_gen_hmant(&t, w));
  case RF_GEN_NEGATIVE: /* -[2^-8, 2^8), inside both types' normal range */
    return rf_gen_h(&t, 1u, bias - 8u + (rf_gen_mid(w) & 15u), rf_gen_hmant(&t, w));
  case RF_GEN_SHIFTED_ROWS: {
    /* The shift is 128 (exp(128) overflows float32, as exp(1000) does): rows x, x+128,
     * x-128 with x on the 2^(8-p) grid in [-8, 8), so |x +- 128| < 2^8 keeps p bits. 1-D:
     * [128, 130) on the same grid. */
    const float g = rf_gen_pow2(7 - (int32_t)M);
    if (p->softmax) {
      const uint64_t r = i / len;
      const int32_t kb = (int32_t)M - 3;                     /* k in [-2^(kb-1), 2^(kb-1)) */
      const int32_t k = (int32_t)(rf_gen_word(p->key, j) >> (64 - kb)) - (1 << (kb - 1));
      const int32_t s = 1 << M;                              /* 128 / g */
      return (float)(k + (r % 3 == 0 ? 0 : r % 3 == 1 ? s : -s)) * g;
    }
    return (float)((1 << M) + (int32_t)(rf_gen_mid(w) % (1u << (M - 6u)))) * g;
  }
  case RF_GEN_SPIKE: {
    /* the spike in [2^es, 2^(es+1)), es = min(20, emax - 2); background [-2^eb, 2^eb) on its
     * 2^(eb-m) grid, eb = max(-20, emin + m): normal or zero, and below the spike's ulp */
    const int32_t es = bias - 2u < 20u ? (int32_t)bias - 2 : 20;
    const int32_t eb = (int32_t)(1u + M) - (int32_t)bias > -20 ? (int32_t)(1u + M) - (int32_t)bias : -20;
    if (j == q->v0)
      return rf_gen_h(&t, 0, (uint32_t)(es + (int32_t)bias), rf_gen_hmant(&t, rf_gen_aux(p, q->r, 1)));
    return rf_gen_huniform(&t, w) * rf_gen_pow2(eb);
  }
  case RF_GEN_SUBNORMAL:
    return rf_gen_h(&t, rf_gen_hsign(w), 0, 1u + rf_gen_hmant(&t, w) % ((1u << M) - 1u));
  case RF_GEN_NEAR_OVERFLOW: /* the top two binades: [2^(emax-1), max] */
    return rf_gen_h(&t, rf_gen_hsign(w), top_exp - 1u + (rf_gen_mid(w) & 1u), rf_gen_hmant(&t, w));
  case RF_GEN_EQUAL_MAX: {
    const uint64_t d = (j + len - q->v1) % len;
    return d % q->v2 == 0 && d / q->v2 < q->v0 ? 2.0f : rf_gen_huniform(&t, w);
  }
  case RF_GEN_SORTED: { /* p-bit keys, never decreasing: (k - 2^m) 2^-m */
    const uint64_t n = p->total;
    const uint64_t lo = (i << (M + 1u)) / n, hi = ((i + 1) << (M + 1u)) / n;
    const uint64_t k = hi > lo ? lo + (w >> 11) % (hi - lo) : lo;
    return (float)((int32_t)k - (int32_t)(1u << M)) * rf_gen_pow2(-(int32_t)M);
  }
  case RF_GEN_NAN_SPRINKLED: {
    const uint64_t B = q->B;
    int nan = (j == 0 && (q->v0 & 1)) || (j == len - 1 && (q->v0 & 2));
    const uint64_t in_block = j & (B - 1);
    if ((in_block == B - 1 || in_block == 0) && j + 1 >= B) {
      const uint64_t k = (j + 1) / B;
      if (rf_gen_word(p->aux ^ q->r, k) % 4 == 0) nan = 1;
    }
    return nan ? rf_gen_hnan(&t, w) : rf_gen_huniform(&t, w);
  }
  case RF_GEN_INF_MIXED: {
    const uint64_t mode = q->v0;
    if (j == q->v1) return rf_gen_hinf(&t, mode == 1);
    if (mode == 2 && j == q->v2) return rf_gen_hinf(&t, 1);
    if ((w & 63) == 0) return rf_gen_hinf(&t, mode == 0 ? 0u : mode == 1 ? 1u : (uint32_t)(w >> 63));
    return rf_gen_huniform(&t, w);
  }
  case RF_GEN_SIGNED_ZERO:
    if (q->v0 == 0) return rf_gen_h(&t, 1, 0, 0);
    if (q->v0 == 1) return rf_gen_h(&t, 0, 0, 0);
    if (q->v0 == 2 || (w & 7) == 0) return rf_gen_h(&t, rf_gen_hsign(w), 0, 0);
    return rf_gen_huniform(&t, w);
  case RF_GEN_ALL_NAN: return rf_gen_hnan(&t, w);
  case RF_GEN_UNIFORM: return rf_gen_huniform(&t, w);
  /* The rest are small integers and short binary fractions (+-1, 1..7, 2.0, k/8, -inf):
   * exact in every type (+inf too), so the float32 generator's values serve as they are. */
  default: return 0.0f; /* not reached: rf_gen_elem_in_row keeps these */
  }
}

/* 1 when distribution d has its own values in the 16-bit types (else the float32 values,
 * exact in every type, are used). */
RF_HD int rf_gen_half_own(uint32_t d) {
  return !(d == RF_GEN_ALTERNATING || d == RF_GEN_ONES || d == RF_GEN_INDEX_WEIGHTED ||
           d == RF_GEN_ALL_NEG_INF || d == RF_GEN_ALL_POS_INF || d == RF_GEN_TIES ||
           d == RF_GEN_MARKERS || d == RF_GEN_SIGNED_MARKERS);
}
#endif

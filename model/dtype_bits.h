/* Bit-level conversions between float32 and the 16-bit types (f16, bf16), for host and device
 * code alike (model/gen_elem.h, the half variants in kernels/half/, the runner's uploads).
 * Integer operations only, so every backend gives the same bits whatever its float modes
 * (flush-to-zero, excess precision): to float32 is exact (every f16 and bf16 value is a
 * float32), from float32 rounds to nearest, ties to even, overflowing to infinity as IEEE
 * says; a NaN stays a quiet NaN of the same sign. Portable where port.h has no half type
 * (the simulator) and cheap everywhere (a few integer operations). */
#ifndef RF_DTYPE_BITS_H
#define RF_DTYPE_BITS_H
#include <stddef.h>
#include <stdint.h>

#if defined(__HIPCC__) || defined(__CUDACC__) || (defined(RF_SIM) && defined(__cplusplus))
#define RF_DB_HD __host__ __device__ static inline
#else
#define RF_DB_HD static inline
#endif

RF_DB_HD uint32_t rf_db_bits(float f) {
#if defined(__HIP_DEVICE_COMPILE__) || defined(__CUDA_ARCH__)
  return __float_as_uint(f);
#else
  union { float f; uint32_t u; } v;
  v.f = f;
  return v.u;
#endif
}
RF_DB_HD float rf_db_float(uint32_t b) {
#if defined(__HIP_DEVICE_COMPILE__) || defined(__CUDA_ARCH__)
  return __uint_as_float(b);
#else
  union { float f; uint32_t u; } v;
  v.u = b;
  return v.f;
#endif
}

/* ---- binary16 ---------------------------------------------------------------------------- */
RF_DB_HD uint32_t rf_f16_to_f32_bits(uint16_t h) {
  const uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 31u, m = h & 0x3FFu;
  if (e == 31) return sign | 0x7F800000u | m << 13;            /* inf, NaN (payload kept) */
  if (e != 0) return sign | (e + 112u) << 23 | m << 13;        /* normal: rebias 15 -> 127 */
  if (m == 0) return sign;                                     /* signed zero */
  /* subnormal m 2^-24: normalise the significand into a float32 normal */
  uint32_t mm = m, ee = 113u;                                  /* biased exponent of 2^-14 */
  while (!(mm & 0x400u)) { mm <<= 1; ee--; }
  return sign | ee << 23 | (mm & 0x3FFu) << 13;
}
RF_DB_HD float rf_f16_to_f32(uint16_t h) { return rf_db_float(rf_f16_to_f32_bits(h)); }

RF_DB_HD uint16_t rf_f32_to_f16(float f) {
  const uint32_t u = rf_db_bits(f), sign = (u >> 16) & 0x8000u, a = u & 0x7FFFFFFFu;
  if (a >= 0x7F800000u)                                        /* inf, or NaN made quiet */
    return (uint16_t)(sign | (a > 0x7F800000u ? 0x7E00u | ((a >> 13) & 0x3FFu) : 0x7C00u));
  if (a >= 0x477FF000u) return (uint16_t)(sign | 0x7C00u);     /* >= 65520: RN overflows */
  const uint32_t e = a >> 23;
  if (e >= 113u) {                                             /* a half normal */
    const uint32_t r = a - (112u << 23);
    return (uint16_t)(sign | ((r + 0xFFFu + ((r >> 13) & 1u)) >> 13));
  }
  if (e < 102u) return (uint16_t)sign;                         /* below 2^-25: to zero */
  const uint32_t m = (a & 0x7FFFFFu) | 0x800000u, s = 126u - e; /* s in 14..24 */
  uint32_t q = m >> s;
  const uint32_t rem = m & ((1u << s) - 1u), half = 1u << (s - 1u);
  if (rem > half || (rem == half && (q & 1u))) q++;            /* may carry into 2^-14: fine */
  return (uint16_t)(sign | q);
}

/* ---- bfloat16 ---------------------------------------------------------------------------- */
RF_DB_HD float rf_bf16_to_f32(uint16_t h) { return rf_db_float((uint32_t)h << 16); }
RF_DB_HD uint16_t rf_f32_to_bf16(float f) {
  const uint32_t u = rf_db_bits(f);
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return (uint16_t)((u >> 16) | 0x40u);   /* quiet NaN */
  return (uint16_t)((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16);
}

/* ---- by type number (rf_dtype: 1 f16, 2 bf16) ------------------------------------------------ */
RF_DB_HD float rf_half_to_f32(uint32_t dtype, uint16_t h) {
  return dtype == 2u ? rf_bf16_to_f32(h) : rf_f16_to_f32(h);
}
RF_DB_HD uint16_t rf_f32_to_half(uint32_t dtype, float f) {
  return dtype == 2u ? rf_f32_to_bf16(f) : rf_f32_to_f16(f);
}
/* Element i of a buffer of type dtype (0 f32, 1 f16, 2 bf16) as the float it is (exact): the
 * host's rf_dtype_load and the device judges (kernels/harness/softmax_device.hip, log_device.hip)
 * read inputs and outputs through this one conversion. */
RF_DB_HD float rf_db_load(const void *p, size_t i, uint32_t dtype) {
  if (dtype == 0u) return ((const float *)p)[i];
  return rf_half_to_f32(dtype, ((const uint16_t *)p)[i]);
}
#endif

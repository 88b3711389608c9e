/* The device exact oracle (oracle_device.h): bins per block, one merge block, integer
 * rounding. Written apart from every variant (no shared helper, no shared header but port.h
 * and model/dtype_bits.h, the model's exact 16-bit-to-float32 conversions that the input's
 * generator and the host's uploads use too) so that a bug in a variant's building blocks
 * cannot also be in its judge. f16 and bf16 inputs are read as the float32 values they are
 * (exactly: docs/ORACLE.md); everything after the load is the float32 oracle's. */
#include "../port.h"
#include "oracle_device.h"
#include "launch_count.h"
#include "model/dtype_bits.h"

typedef unsigned long long rfo_u64;
typedef long long rfo_i64;

#define RFO_BLOCK 256u
#define RFO_BINS 512u                    /* sign bit and 8 exponent bits */
#define RFO_COUNT_ONE (1ull << 40)       /* LDS bin: count in bits 40.., mantissa sum below */
#define RFO_FRAC_MASK (RFO_COUNT_ONE - 1)
/* Elements per block: the LDS bin fields hold 2^17 elements of one bin (2^23 * 2^17 = 2^40).
 * 4096 makes 256 blocks at n = 2^20, enough to fill a GPU. Smaller inputs get smaller chunks,
 * down to one element a thread, so that they still spread over RFO_SPREAD blocks: the LDS bin
 * adds of one block meet on a few bins (data of one scale share an exponent) and serialise,
 * (the 32 lanes of a warp adding into one bin are 32 serial adds): a 4096-element input in one
 * block is 4096 serial adds, 16 blocks share them out over 16 SMs. */
#define RFO_CHUNK_SMALL 256ull
#define RFO_SPREAD 16ull
#define RFO_CHUNK_MIN 4096ull
#define RFO_CHUNK_MAX (1ull << 17)
#define RFO_MAX_GRID 65535ull
#define RFO_DIGITS RF_ORACLE_DEV_DIGITS

/* Global meeting point of the blocks; zeroed by rfo_zero_kernel before every use. The
 * global sums cannot overflow: frac < 2^23 n < 2^55 and count <= n for n < 2^32. */
typedef struct {
  rfo_u64 count[RFO_BINS];
  rfo_u64 frac[RFO_BINS];
  rfo_u64 best;                          /* argmax key: (value key << 32) | ~index; 0 = none */
  rfo_u64 least;                         /* argmin key: (~value key << 32) | ~index; 0 = none
                                            (never 0 otherwise: n < 2^32, and no key is ~0) */
  rfo_u64 n_nan, n_pinf, n_ninf;
  unsigned low_key;                      /* 128 - min lowest-bit exponent; 0 = no nonzero */
  unsigned pos_zero;                     /* 1 when some element is +0 */
  unsigned nan_key;                      /* 0xffffffff - lowest NaN index; 0 = no NaN */
} rfo_scratch;

__global__ void rfo_zero_kernel(rfo_scratch *s) {
  for (unsigned i = threadIdx.x; i < RFO_BINS; i += blockDim.x) {
    s->count[i] = 0;
    s->frac[i] = 0;
  }
  if (threadIdx.x == 0) {
    s->best = 0;
    s->least = 0;
    s->n_nan = s->n_pinf = s->n_ninf = 0;
    s->low_key = 0;
    s->pos_zero = 0;
    s->nan_key = 0;
  }
}

/* Order-preserving key of a non-NaN float (as unsigned: a < b iff key(a) < key(b)), with -0
 * read as +0 so that IEEE's tie -0 == +0 stays a tie; never 0. */
static __device__ __forceinline__ unsigned rfo_order_key(unsigned b) {
  if ((b & 0x7fffffffu) == 0) b = 0;
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}

/* Exponent of the lowest set bit of a finite nonzero float, as 128 - e (e in [-149, 127],
 * so the key is in [1, 277] and the smallest e has the largest key). The lowest set bit of
 * the significand converts to float exactly, and its exponent field is its position. */
static __device__ __forceinline__ unsigned rfo_low_key(unsigned b) {
  const unsigned e = (b >> 23) & 0xffu;
  const unsigned m = (b & 0x7fffffu) | (e ? 0x800000u : 0u);
  const unsigned low = m & (0u - m);
  const int pos = (int)((__float_as_uint((float)low) >> 23) & 0xffu) - 127;
  const int exp = (e ? (int)e - 150 : -149) + pos;
  return (unsigned)(128 - exp);
}

/* The float32 bits of element i of an input of type dt (rf_dtype: 0 f32, 1 f16, 2 bf16):
 * exact for the 16-bit types (dtype_bits.h). dt is uniform across the grid. */
static __device__ __forceinline__ unsigned rfo_load_bits(const void *__restrict__ x, rfo_u64 i,
                                                         unsigned dt) {
  if (dt == 0u) return __float_as_uint(((const float *)x)[i]);
  const uint16_t h = ((const uint16_t *)x)[i];
  return dt == 2u ? (unsigned)h << 16 : rf_f16_to_f32_bits(h);
}

/* Block b bins x[b * chunk, min((b + 1) * chunk, n)) and adds its bins into s. */
__global__ void rfo_bins_kernel(const void *__restrict__ x, unsigned dt, rfo_u64 n,
                                rfo_u64 chunk, rfo_scratch *s) {
  RF_SHARED(rfo_u64, bins, RFO_BINS);
  RF_SHARED(rfo_u64, block_best, 1);
  RF_SHARED(rfo_u64, block_least, 1);
  RF_SHARED(rfo_u64, block_special, 3);
  RF_SHARED(unsigned, block_low, 1);
  RF_SHARED(unsigned, block_pzero, 1);
  RF_SHARED(unsigned, block_nan_key, 1);
  const unsigned t = threadIdx.x;
  for (unsigned i = t; i < RFO_BINS; i += blockDim.x) bins[i] = 0;
  if (t == 0) {
    block_best[0] = 0;
    block_least[0] = 0;
    block_special[0] = block_special[1] = block_special[2] = 0;
    block_low[0] = 0;
    block_pzero[0] = 0;
    block_nan_key[0] = 0;
  }
  __syncthreads();
  const rfo_u64 begin = (rfo_u64)blockIdx.x * chunk;
  const rfo_u64 end = begin + chunk < n ? begin + chunk : n;
  rfo_u64 best = 0, least = 0, nan = 0, pinf = 0, ninf = 0;
  unsigned low = 0, pzero = 0, nan_key = 0;
  for (rfo_u64 i = begin + t; i < end; i += blockDim.x) {
    const unsigned b = rfo_load_bits(x, i, dt);
    if (((b >> 23) & 0xffu) == 0xffu) {
      if (b & 0x7fffffu) {
        nan++;
        const unsigned k = 0xffffffffu - (unsigned)i;   /* the lowest index: the largest key */
        nan_key = k > nan_key ? k : nan_key;
        continue;
      }
      if (b >> 31) ninf++;
      else pinf++;
    } else {
      atomicAdd(&bins[b >> 23], (rfo_u64)(b & 0x7fffffu) | RFO_COUNT_ONE);
      if (b & 0x7fffffffu) {
        const unsigned k = rfo_low_key(b);
        low = k > low ? k : low;
      }
      pzero |= b == 0u;   /* +0: a sum of zeros is -0 only when no +0 is among them */
    }
    const unsigned ok = rfo_order_key(b), low_i = 0xffffffffu - (unsigned)i;
    const rfo_u64 key = ((rfo_u64)ok << 32) | low_i, lkey = ((rfo_u64)~ok << 32) | low_i;
    best = key > best ? key : best;
    least = lkey > least ? lkey : least;
  }
  if (best) atomicMax(&block_best[0], best);
  if (least) atomicMax(&block_least[0], least);
  if (low) atomicMax(&block_low[0], low);
  if (pzero) atomicMax(&block_pzero[0], 1u);
  if (nan_key) atomicMax(&block_nan_key[0], nan_key);
  if (nan) atomicAdd(&block_special[0], nan);
  if (pinf) atomicAdd(&block_special[1], pinf);
  if (ninf) atomicAdd(&block_special[2], ninf);
  __syncthreads();
  for (unsigned i = t; i < RFO_BINS; i += blockDim.x) {
    const rfo_u64 v = bins[i];
    if (v) {
      atomicAdd(&s->count[i], v >> 40);
      atomicAdd(&s->frac[i], v & RFO_FRAC_MASK);
    }
  }
  if (t == 0) {
    if (block_best[0]) atomicMax(&s->best, block_best[0]);
    if (block_least[0]) atomicMax(&s->least, block_least[0]);
    if (block_low[0]) atomicMax(&s->low_key, block_low[0]);
    if (block_pzero[0]) atomicMax(&s->pos_zero, 1u);
    if (block_nan_key[0]) atomicMax(&s->nan_key, block_nan_key[0]);
    if (block_special[0]) atomicAdd(&s->n_nan, block_special[0]);
    if (block_special[1]) atomicAdd(&s->n_pinf, block_special[1]);
    if (block_special[2]) atomicAdd(&s->n_ninf, block_special[2]);
  }
}

/* ---- integer rounding of the digits (one thread) ------------------------------------------ */
/* Carries up so that digits 0..8 are in [0, 2^32) and the top one holds the sign. */
static __device__ void rfo_normalise(rfo_i64 *w) {
  for (int i = 0; i < RFO_DIGITS - 1; i++) {
    const rfo_i64 carry = w[i] >> 32;    /* arithmetic shift on every GPU compiler */
    w[i] &= 0xffffffffll;
    w[i + 1] += carry;
  }
}

/* |value| of normalised digits as RFO_DIGITS 32-bit limbs; returns 1 when negative. The top
 * digit of any sum of < 2^32 floats is below 2^22 in magnitude, so every limb fits. */
static __device__ int rfo_magnitude(const rfo_i64 *w, unsigned *mag) {
  const int neg = w[RFO_DIGITS - 1] < 0;
  rfo_u64 carry = 1;
  for (int i = 0; i < RFO_DIGITS; i++) {
    rfo_u64 d = (rfo_u64)w[i] & 0xffffffffull;
    if (neg) {
      d = (~d & 0xffffffffull) + carry;
      carry = d >> 32;
      d &= 0xffffffffull;
    }
    mag[i] = (unsigned)d;
  }
  return neg;
}

/* The highest set bit of v != 0, by halving (no intrinsic in port.h's subset). */
static __device__ int rfo_msb32(unsigned v) {
  int b = 0;
  if (v >> 16) { v >>= 16; b += 16; }
  if (v >> 8) { v >>= 8; b += 8; }
  if (v >> 4) { v >>= 4; b += 4; }
  if (v >> 2) { v >>= 2; b += 2; }
  return b + (int)(v >> 1);
}

static __device__ int rfo_top_bit(const unsigned *mag) {
  for (int i = RFO_DIGITS - 1; i >= 0; i--)
    if (mag[i]) return 32 * i + rfo_msb32(mag[i]);
  return -1;
}

static __device__ unsigned rfo_bit(const unsigned *mag, int pos) {
  return (mag[pos >> 5] >> (pos & 31)) & 1u;
}

/* Bits pos .. pos + 63 of the magnitude (0 beyond its top limb). */
static __device__ rfo_u64 rfo_window(const unsigned *mag, int pos) {
  const int q = pos >> 5, r = pos & 31;
  const rfo_u64 lo = mag[q], mid = q + 1 < RFO_DIGITS ? mag[q + 1] : 0u,
                hi = q + 2 < RFO_DIGITS ? mag[q + 2] : 0u;
  const rfo_u64 w = (lo | mid << 32) >> r;
  return r ? w | hi << (64 - r) : w;
}

/* Any bit set below position pos. */
static __device__ int rfo_sticky(const unsigned *mag, int pos) {
  for (int i = 0; i < (pos >> 5); i++)
    if (mag[i]) return 1;
  return (pos & 31) && (mag[pos >> 5] & ((1u << (pos & 31)) - 1u)) != 0;
}

/* The magnitude rounded to `prec` significant bits with ulp at least 2^-149 (one limb unit):
 * mant * 2^(shift - 149), mant < 2^prec. up = 0: to nearest, ties to even; up = 1: away from
 * zero (towards +inf for a magnitude). Returns mant; 0 for a zero magnitude. */
static __device__ rfo_u64 rfo_round(const unsigned *mag, int prec, int up, int *shift) {
  const int top = rfo_top_bit(mag);
  *shift = 0;
  if (top < 0) return 0;
  const int sh = top - (prec - 1) > 0 ? top - (prec - 1) : 0;
  /* Bits sh..top, top - sh < prec <= 53: the window holds them, and every bit above top is 0.
   * (A loop of one bit at a time took most of rfo_final_kernel's 24,000 cycles on the H200.) */
  rfo_u64 mant = rfo_window(mag, sh);
  if (sh > 0) {
    const unsigned half = rfo_bit(mag, sh - 1);
    const int rest = rfo_sticky(mag, sh - 1);
    if (up ? (half || rest) : (half && (rest || (mant & 1u)))) mant++;
    if (mant >> prec) {                  /* rounded up to the next power of two */
      mant >>= 1;
      *shift = sh + 1;
      return mant;
    }
  }
  *shift = sh;
  return mant;
}

/* Round to float, nearest-even, overflow to inf. */
static __device__ float rfo_to_f32(const rfo_i64 *w) {
  unsigned mag[RFO_DIGITS];
  const int neg = rfo_magnitude(w, mag);
  int shift;
  const rfo_u64 mant = rfo_round(mag, 24, 0, &shift);
  unsigned bits;
  if (mant < (1ull << 23)) bits = (unsigned)mant;   /* subnormal or zero: shift is 0 */
  else if (shift + 1 >= 255) bits = 0x7f800000u;
  else bits = ((unsigned)(shift + 1) << 23) | ((unsigned)mant & 0x7fffffu);
  if (mant == 0) return 0.0f;                       /* an exact zero sum is +0 */
  return __uint_as_float(bits | (neg ? 0x80000000u : 0u));
}

/* Round to double (nearest-even, or up for a non-negative value). mant * 2^(shift - 149)
 * stays a normal double: >= 2^-149 and < 2^200. */
static __device__ double rfo_to_f64(const rfo_i64 *w, int up) {
  unsigned mag[RFO_DIGITS];
  const int neg = rfo_magnitude(w, mag);
  int shift;
  const rfo_u64 mant = rfo_round(mag, 53, up, &shift);
  if (mant == 0) return 0.0;
  /* exact: mant < 2^53 and the result a normal double */
  const double v = ldexp((double)mant, shift - 149);
  return neg ? -v : v;
}

/* One block of RFO_BINS threads: the bins into digits, then everything rounded. */
__global__ void rfo_final_kernel(const void *__restrict__ x, unsigned dt, rfo_u64 n,
                                 const rfo_scratch *s, rf_oracle_dev_out *out) {
  RF_SHARED(rfo_u64, sum_w, RFO_DIGITS);
  RF_SHARED(rfo_u64, abs_w, RFO_DIGITS);
  const unsigned t = threadIdx.x;
  if (t < RFO_DIGITS) {
    sum_w[t] = 0;
    abs_w[t] = 0;
  }
  __syncthreads();
  for (unsigned i = t; i < RFO_BINS; i += blockDim.x) {
    const rfo_u64 count = s->count[i];
    if (!count) continue;
    const unsigned e = i & 0xffu;        /* never 0xff: non-finite inputs are not binned */
    const rfo_u64 mant = s->frac[i] + (e ? count << 23 : 0);   /* < 2^56 */
    const unsigned sc = e ? e - 1 : 0, k = sc >> 5, r = sc & 31;
    const rfo_u64 low = (mant & 0xffffffffull) << r;              /* < 2^63 */
    const rfo_u64 high = ((mant >> 32) << r) + (low >> 32);       /* < 2^56 */
    const rfo_u64 part[3] = {low & 0xffffffffull, high & 0xffffffffull, high >> 32};
    const int neg = (i >> 8) != 0;
    /* Two's complement adds: the digits are read as signed, the sums stay far from 2^63. */
    for (int j = 0; j < 3; j++) {
      if (!part[j]) continue;
      atomicAdd(&sum_w[k + j], neg ? (rfo_u64)0 - part[j] : part[j]);
      atomicAdd(&abs_w[k + j], part[j]);
    }
  }
  __syncthreads();
  if (t != 0) return;
  rfo_i64 w[RFO_DIGITS], a[RFO_DIGITS];
  for (int i = 0; i < RFO_DIGITS; i++) {
    w[i] = (rfo_i64)sum_w[i];
    a[i] = (rfo_i64)abs_w[i];
  }
  rfo_normalise(w);
  rfo_normalise(a);
  for (int i = 0; i < RFO_DIGITS; i++) {
    out->sum_w[i] = w[i];
    out->abs_w[i] = a[i];
  }
  const rfo_u64 nan = s->n_nan, pinf = s->n_pinf, ninf = s->n_ninf;
  out->n_nan = nan;
  out->n_pinf = pinf;
  out->n_ninf = ninf;
  out->first_nan = s->nan_key ? (rfo_i64)(0xffffffffu - s->nan_key) : -1;
  /* IEEE: any NaN, or both infinities, give NaN; else an infinity wins. */
  const float qnan = __uint_as_float(0x7fc00000u);
  if (nan || (pinf && ninf)) {
    out->sum_f32 = qnan;
    out->sum_f64 = (double)qnan;
  } else if (pinf || ninf) {
    out->sum_f32 = pinf ? INFINITY : -INFINITY;
    out->sum_f64 = (double)out->sum_f32;
  } else {
    out->sum_f32 = rfo_to_f32(w);
    out->sum_f64 = rfo_to_f64(w, 0);
  }
  out->abs_sum_up = rfo_to_f64(a, 1);
  out->all_finite = !(nan || pinf || ninf);
  const unsigned lk = s->low_key;
  out->any_nonzero = lk != 0;
  out->min_exp = lk ? 128 - (int)lk : 0;
  const rfo_u64 best = s->best;
  if (best) {
    const rfo_i64 idx = (rfo_i64)(0xffffffffu - (unsigned)(best & 0xffffffffull));
    out->argmax_index = idx;
    /* the element itself: -0 keeps its sign */
    out->max_value = __uint_as_float(rfo_load_bits(x, (rfo_u64)idx, dt));
  } else {
    out->argmax_index = -1;
    out->max_value = nan ? qnan : -INFINITY;
  }
  const rfo_u64 least = s->least;
  if (least) {
    const rfo_i64 idx = (rfo_i64)(0xffffffffu - (unsigned)(least & 0xffffffffull));
    out->argmin_index = idx;
    out->min_value = __uint_as_float(rfo_load_bits(x, (rfo_u64)idx, dt));
  } else {
    out->argmin_index = -1;
    out->min_value = nan ? qnan : INFINITY;
  }
  /* IEEE 754-2019 §6.3: zeros of opposite signs add to +0 in round-to-nearest, -0 + -0 is -0
   * (rf_sum_facts_compute). */
  out->all_neg_zero = n > 0 && out->all_finite && !out->any_nonzero && !s->pos_zero;
}

#if !defined(__HIP_DEVICE_COMPILE__)

extern "C" size_t rf_oracle_dev_scratch_bytes(void) { return sizeof(rfo_scratch); }

extern "C" int rf_oracle_dev_launch_typed(const void *x, uint32_t dtype, uint64_t n,
                                          void *scratch, rf_oracle_dev_out *out, void *stream) {
  /* invalid value: 1 in both CUDA and HIP (not in port.h's subset) */
  if (n >> 32 || dtype > 2u) return 1;
  const hipStream_t st = (hipStream_t)stream;
  rfo_scratch *s = (rfo_scratch *)scratch;
  rfo_u64 chunk = RFO_CHUNK_SMALL;
  while (chunk < RFO_CHUNK_MIN && n > chunk * RFO_SPREAD) chunk *= 2;
  while (chunk < RFO_CHUNK_MAX && (n + chunk - 1) / chunk > RFO_MAX_GRID) chunk *= 2;
  rfo_u64 grid = (n + chunk - 1) / chunk;
  if (grid == 0) grid = 1;
  hipLaunchKernelGGL(rfo_zero_kernel, dim3(1), dim3(RFO_BLOCK), 0, st, s);
  rf_launch_count_add(1);
  int err = (int)hipGetLastError();
  if (err) return err;
  hipLaunchKernelGGL(rfo_bins_kernel, dim3((unsigned)grid), dim3(RFO_BLOCK), 0, st, x,
                     (unsigned)dtype, (rfo_u64)n, chunk, s);
  rf_launch_count_add(1);
  if ((err = (int)hipGetLastError())) return err;
  hipLaunchKernelGGL(rfo_final_kernel, dim3(1), dim3(RFO_BINS), 0, st, x, (unsigned)dtype,
                     (rfo_u64)n, (const rfo_scratch *)s, out);
  rf_launch_count_add(1);
  return (int)hipGetLastError();
}

#endif

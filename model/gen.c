/* Input generators (docs/CASE_FORMAT.md says what each distribution is for).
 *
 * Bit-identical on every platform: all randomness is integer (splitmix64), and floats are
 * made either from their bit pattern or as (float)k * 2^-e with |k| <= 2^24. Converting such
 * an integer is exact, and multiplying by a power of two is exact while the result stays
 * normal (it does here), so no rounding mode, FMA contraction or excess precision can change
 * a bit. No libm call is used.
 *
 * Element i takes the i-th output of a splitmix64 stream (random access: state key + i*gamma),
 * so the first k elements of a case do not depend on n; shrinking n keeps the prefix. */
#include "gen.h"

#include <stdlib.h>
#include <string.h>

#define GOLDEN_GAMMA UINT64_C(0x9E3779B97F4A7C15)

/* SplitMix64: Steele, Lea, Flood, "Fast splittable pseudorandom number generators",
 * OOPSLA 2014: the state advances by the odd constant gamma = 0x9E3779B97F4A7C15
 * (2^64/phi, made odd); the output is the state through a 64-bit finaliser, with the
 * shift/multiply constants of D. Stafford's "Mix13" as in Java's SplittableRandom.mix64. */
uint64_t rf_splitmix64(uint64_t *state) {
  uint64_t z = (*state += GOLDEN_GAMMA);
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

/* Output i (0-based) of the stream that starts at state key. */
static uint64_t word(uint64_t key, uint64_t i) {
  uint64_t state = key + i * GOLDEN_GAMMA;
  return rf_splitmix64(&state);
}

static float from_bits(uint32_t bits) {
  float f;
  memcpy(&f, &bits, sizeof f);
  return f;
}

/* Signed 24-bit integer in [-2^23, 2^23) from the top bits of w. */
static int32_t signed24(uint64_t w) { return (int32_t)(w >> 40) - (1 << 23); }
/* Signed 14-bit integer in [-2^13, 2^13) from the top bits of w. */
static int32_t signed14(uint64_t w) { return (int32_t)(w >> 50) - (1 << 13); }

#define MANT(w) ((uint32_t)(w) & 0x7FFFFFu)
#define SIGN(w) ((uint32_t)((w) >> 63) << 31)
/* w's bits 23..54, independent of MANT and SIGN. */
#define MID(w) ((uint32_t)((w) >> 23))

/* Per-row choices (spike and maxima positions) use a second stream, 16 words per row. */
#define AUX(r, j) word(aux, (r) * 16 + (j))

static void plant_equal_max(float *row, uint64_t len, uint64_t aux, uint64_t r) {
  if (len == 0) return;
  if (len == 1) { row[0] = 2.0f; return; }
  uint64_t count = 2 + AUX(r, 0) % (len - 1 < 7 ? len - 1 : 7); /* 2..min(8, len) */
  for (uint64_t j = 0; j < count; j++) {
    uint64_t p = AUX(r, 1 + j) % len;
    while (row[p] == 2.0f) p = p + 1 == len ? 0 : p + 1; /* background is < 1: free slot */
    row[p] = 2.0f;
  }
}

static void plant_spike(float *row, uint64_t len, uint64_t aux, uint64_t r) {
  if (len == 0) return;
  /* [2^20, 2^21): positive, so it is also the row's unique maximum */
  row[AUX(r, 0) % len] = from_bits((127u + 20u) << 23 | MANT(AUX(r, 1)));
}

static int float_order(const void *a, const void *b) {
  float x = *(const float *)a, y = *(const float *)b;
  return (x > y) - (x < y);
}

/* `sorted` values lie on the 2^-23 grid of [-1, 1), so k = x 2^23 + 2^23 is an exact 24-bit
 * key: an LSD radix sort (three 8-bit passes, O(n)) orders them ~20x faster than qsort's
 * callback per comparison. Equal keys are equal bits, so the result is the one any correct
 * sort gives. Returns -1 (nothing changed) when out of memory. */
static int sort_grid(float *x, uint64_t n) {
  uint32_t *a = malloc((size_t)n * sizeof *a), *b = malloc((size_t)n * sizeof *b);
  if (!a || !b) {
    free(a);
    free(b);
    return -1;
  }
  for (uint64_t i = 0; i < n; i++) a[i] = (uint32_t)((int32_t)(x[i] * 0x1p23f) + (1 << 23));
  for (unsigned shift = 0; shift < 24; shift += 8) {
    uint64_t start[257] = {0};
    for (uint64_t i = 0; i < n; i++) start[((a[i] >> shift) & 0xffu) + 1]++;
    for (unsigned d = 0; d < 256; d++) start[d + 1] += start[d];
    for (uint64_t i = 0; i < n; i++) b[start[(a[i] >> shift) & 0xffu]++] = a[i];
    uint32_t *t = a;
    a = b;
    b = t;
  }
  for (uint64_t i = 0; i < n; i++) x[i] = (float)((int32_t)a[i] - (1 << 23)) * 0x1p-23f;
  free(a);
  free(b);
  return 0;
}

void rf_generate(const rf_case *c, float *out) {
  uint64_t total = rf_case_elems(c);
  /* rows of len elements: softmax rows, or one row for the 1-D ops */
  uint64_t rows = c->op == RF_OP_SOFTMAX ? c->rows : (total ? 1 : 0);
  uint64_t len = c->op == RF_OP_SOFTMAX ? c->cols : total;
  uint64_t s = c->seed;
  uint64_t key = rf_splitmix64(&s), aux = rf_splitmix64(&s);

  for (uint64_t i = 0; i < total; i++) {
    uint64_t w = word(key, i);
    float x;
    switch (c->dist) {
    case RF_DIST_ALTERNATING: /* seed bit 0 set: +1 first, so seed 1 and n 1027 sum to 1 */
      x = ((i & 1) == 0) == ((c->seed & 1) == 1) ? 1.0f : -1.0f;
      break;
    case RF_DIST_ONES: x = 1.0f; break;
    case RF_DIST_WIDE: /* biased exponent 1..254: every finite normal binade */
      x = from_bits(SIGN(w) | (1u + MID(w) % 254u) << 23 | MANT(w));
      break;
    case RF_DIST_NEGATIVE: /* -[2^-8, 2^8) */
      x = from_bits(1u << 31 | (119u + (MID(w) & 15u)) << 23 | MANT(w));
      break;
    case RF_DIST_SHIFTED_ROWS:
      if (c->op == RF_OP_SOFTMAX) {
        /* base row on a 2^-10 grid in [-8, 8); |k| < 1008 * 2^10 < 2^24 so +-1000 is exact */
        static const int32_t shift[3] = {0, 1000 * 1024, -1000 * 1024};
        uint64_t col = i % len, row = i / len;
        x = (float)(signed14(word(key, col)) + shift[row % 3]) * 0x1p-10f;
      } else { /* [999, 1001) on a 2^-13 grid: 1000 * 2^13 + k < 2^23, exact */
        x = (float)(1000 * 8192 + signed14(w)) * 0x1p-13f;
      }
      break;
    case RF_DIST_INDEX_WEIGHTED: /* integers 1..7: exact sums while the sum < 2^24 */
      x = (float)(1 + (i + c->seed % 7) % 7);
      break;
    case RF_DIST_SPIKE: x = (float)signed24(w) * 0x1p-43f; break; /* [-2^-20, 2^-20) */
    case RF_DIST_SUBNORMAL: x = from_bits(SIGN(w) | (1u + MANT(w) % 0x7FFFFFu)); break;
    case RF_DIST_NEAR_OVERFLOW: /* biased exponent 253 or 254: [2^126, FLT_MAX] */
      x = from_bits(SIGN(w) | (253u + (MID(w) & 1u)) << 23 | MANT(w));
      break;
    case RF_DIST_EQUAL_MAX: /* background for the planted maxima */
    case RF_DIST_UNIFORM:
    case RF_DIST_SORTED:
    default:
      x = (float)signed24(w) * 0x1p-23f; /* [-1, 1), 24-bit grid */
      break;
    }
    out[i] = x;
  }

  for (uint64_t r = 0; r < rows; r++) {
    if (c->dist == RF_DIST_EQUAL_MAX) plant_equal_max(out + r * len, len, aux, r);
    if (c->dist == RF_DIST_SPIKE) plant_spike(out + r * len, len, aux, r);
  }
  /* Equal values here have equal bits (no -0.0 arises), so any correct sort gives the same
   * output bits. */
  if (c->dist == RF_DIST_SORTED && total > 1 && sort_grid(out, total))
    qsort(out, (size_t)total, sizeof *out, float_order);
}

/* The superaccumulator: an exact fixed-point sum over the whole binary32 range.
 *
 * A finite float is m * 2^(s - 149) with an integer m < 2^24 and 0 <= s <= 253 (s = biased
 * exponent - 1 for normals with the hidden bit set in m, s = 0 for subnormals). The sum is
 * kept as DIGITS base-2^32 digits, digit i weighing 2^(32 i - 149), each in an int64_t so
 * that digits may run out of range between normalisations. One addition places m << (s % 32)
 * (< 2^55, signed) into digit s / 32 (its low 32 bits) and the next digit (the rest): two
 * integer adds, each < 2^32 in magnitude. Carries are propagated lazily, at the latest every
 * NORMALISE_EVERY additions: after a normalisation the digits below the top are in [0, 2^32),
 * so P more additions leave |digit| < 2^32 (P + 1) <= 2^62 + 2^32 for P <= 2^30.
 * The top digit only receives carries and holds the sign. 10 digits weigh up to 2^139 before
 * the top one, whose int64 range then allows |sum| up to 2^202 > 2^64 * 2^128, so any count
 * of any finite floats is exact. */
#include <math.h>
#include <string.h>
#include <gmp.h>
#include "oracle/exact.h"
#include "oracle/ieee_round.h"

#define DIGITS 10
#define LSB_EXP (-149)
#define NORMALISE_EVERY (UINT64_C(1) << 30)
#define CHUNK ((size_t)1 << 20)   /* elements accumulated locally before folding into a->w */
#define LANES 4                   /* independent local accumulators, to overlap the adds */
#define EXACT_BITS 384            /* >= 32 * (DIGITS - 1) + 64: room for the exact value */

_Static_assert(DIGITS <= RF_XSUM_WORDS, "rf_xsum too small for the digit layout");
_Static_assert((-1 >> 1) == -1, "the carry split needs arithmetic right shifts");

typedef struct { uint64_t pinf, ninf, nan; } specials;

static uint32_t bits_of(float x) {
  uint32_t b;
  memcpy(&b, &x, sizeof b);
  return b;
}

static void count_special(specials *sp, uint32_t b) {
  if (b & 0x7fffffu) sp->nan++;
  else if (b >> 31) sp->ninf++;
  else sp->pinf++;
}

/* The hot path: a few integer operations and two adds, no carries. */
static inline void add_bits(int64_t *acc, uint32_t b, specials *sp) {
  uint32_t e = (b >> 23) & 0xffu;
  if (e == 0xffu) {
    count_special(sp, b);
    return;
  }
  uint32_t normal = e != 0;
  uint64_t m = (b & 0x7fffffu) | ((uint64_t)normal << 23);
  uint32_t s = e - normal;
  int64_t neg = -(int64_t)(b >> 31);             /* 0 or -1 */
  int64_t v = ((int64_t)(m << (s & 31)) ^ neg) - neg;
  acc[s >> 5] += v & INT64_C(0xffffffff);        /* v = (v >> 32) * 2^32 + (v & 0xffffffff) */
  acc[(s >> 5) + 1] += v >> 32;
}

static void normalise(int64_t *w) {
  for (int i = 0; i < DIGITS - 1; i++) {
    int64_t carry = w[i] >> 32;
    w[i] &= INT64_C(0xffffffff);
    w[i + 1] += carry;
  }
}

void rf_xsum_init(rf_xsum *a) { memset(a, 0, sizeof *a); }

/* Room for n more additions before the lazy-carry bound could be exceeded. */
static void reserve(rf_xsum *a, uint64_t n) {
  if (a->pending + n > NORMALISE_EVERY) {
    normalise(a->w);
    a->pending = 0;
  }
  a->pending += n;
}

/* keep = 0x7fffffff turns every input into its absolute value. */
static void add_chunk(rf_xsum *a, const float *x, size_t n, uint32_t keep) {
  int64_t acc[LANES][DIGITS];
  memset(acc, 0, sizeof acc);
  specials sp = {0, 0, 0};
  size_t i = 0;
  for (; i + LANES <= n; i += LANES) {
    add_bits(acc[0], bits_of(x[i]) & keep, &sp);
    add_bits(acc[1], bits_of(x[i + 1]) & keep, &sp);
    add_bits(acc[2], bits_of(x[i + 2]) & keep, &sp);
    add_bits(acc[3], bits_of(x[i + 3]) & keep, &sp);
  }
  for (; i < n; i++) add_bits(acc[0], bits_of(x[i]) & keep, &sp);
  /* Each element moved each digit by < 2^32 in all lanes together: n additions' worth. */
  reserve(a, n);
  for (int d = 0; d < DIGITS; d++) a->w[d] += acc[0][d] + acc[1][d] + acc[2][d] + acc[3][d];
  a->n_pinf += sp.pinf;
  a->n_ninf += sp.ninf;
  a->n_nan += sp.nan;
}

static void add_array(rf_xsum *a, const float *x, size_t n, uint32_t keep) {
  while (n > 0) {
    size_t k = n < CHUNK ? n : CHUNK;
    add_chunk(a, x, k, keep);
    x += k;
    n -= k;
  }
}

void rf_xsum_add(rf_xsum *a, const float *x, size_t n) { add_array(a, x, n, 0xffffffffu); }
void rf_xsum_add_abs(rf_xsum *a, const float *x, size_t n) { add_array(a, x, n, 0x7fffffffu); }

void rf_xsum_add1(rf_xsum *a, float x) {
  specials sp = {0, 0, 0};
  reserve(a, 1);
  add_bits(a->w, bits_of(x), &sp);
  a->n_pinf += sp.pinf;
  a->n_ninf += sp.ninf;
  a->n_nan += sp.nan;
}

/* IEEE: any NaN, or +inf together with -inf, gives NaN; otherwise an infinity wins. */
static int special_result(const rf_xsum *a, mpfr_t out) {
  if (a->n_nan || (a->n_pinf && a->n_ninf)) mpfr_set_nan(out);
  else if (a->n_pinf) mpfr_set_inf(out, 1);
  else if (a->n_ninf) mpfr_set_inf(out, -1);
  else return 0;
  return 1;
}

/* z = the normalised digits as one integer (top digit signed); the sum is z * 2^LSB_EXP. */
static void digits_to_mpz(const rf_xsum *a, mpz_t z) {
  int64_t w[DIGITS];
  memcpy(w, a->w, sizeof w);
  normalise(w);
  int64_t top = w[DIGITS - 1];
  mpz_set_si(z, (long)(top >> 32));              /* |top >> 32| < 2^31 fits any long */
  mpz_mul_2exp(z, z, 32);
  mpz_add_ui(z, z, (unsigned long)(top & INT64_C(0xffffffff)));
  for (int i = DIGITS - 2; i >= 0; i--) {
    mpz_mul_2exp(z, z, 32);
    mpz_add_ui(z, z, (unsigned long)w[i]);
  }
}

void rf_xsum_get(const rf_xsum *a, mpfr_t out) {
  if (special_result(a, out)) return;
  mpz_t z;
  mpz_init(z);
  digits_to_mpz(a, z);
  mpfr_prec_t need = (mpfr_prec_t)mpz_sizeinbase(z, 2);
  if (need < MPFR_PREC_MIN) need = MPFR_PREC_MIN;
  if (mpfr_get_prec(out) < need) mpfr_set_prec(out, need);
  mpfr_set_z_2exp(out, z, LSB_EXP, MPFR_RNDN);   /* exact: the precision holds every bit */
  mpz_clear(z);
}

float rf_xsum_round_f32(const rf_xsum *a) {
  MPFR_DECL_INIT(v, EXACT_BITS);
  rf_xsum_get(a, v);
  return rf_round_to_f32(v);
}

double rf_xsum_round_f64(const rf_xsum *a) {
  MPFR_DECL_INIT(v, EXACT_BITS);
  rf_xsum_get(a, v);
  return rf_round_to_f64(v);
}

double rf_xsum_round_up_f64(const rf_xsum *a) {
  MPFR_DECL_INIT(v, EXACT_BITS);
  rf_xsum_get(a, v);
  return mpfr_get_d(v, MPFR_RNDU);
}

double rf_xsum_abs_err_up(const rf_xsum *a, float approx) {
  if (a->n_pinf || a->n_ninf || a->n_nan || !isfinite(approx)) return INFINITY;
  rf_xsum diff = *a;
  rf_xsum_add1(&diff, -approx);                  /* exact: negating a float is exact */
  MPFR_DECL_INIT(v, EXACT_BITS);
  rf_xsum_get(&diff, v);
  mpfr_abs(v, v, MPFR_RNDN);                     /* exact */
  return mpfr_get_d(v, MPFR_RNDU);
}

float rf_oracle_sum(const float *x, size_t n) {
  rf_xsum a;
  rf_xsum_init(&a);
  rf_xsum_add(&a, x, n);
  return rf_xsum_round_f32(&a);
}

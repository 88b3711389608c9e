/* The superaccumulator: an exact fixed-point sum over the whole binary32 range.
 *
 * A finite float is m * 2^(s - 149) with an integer m < 2^24 and 0 <= s <= 253 (s = biased
 * exponent - 1 for normals with the hidden bit set in m, s = 0 for subnormals). The sum is
 * kept as DIGITS base-2^32 digits, digit i weighing 2^(32 i - 149), each in an int64_t so
 * that digits may run out of range between normalisations (carry propagation). 10 digits:
 * the top one (weight 2^139) holds the sign and, in its int64 range, |sum| up to 2^202 >
 * 2^64 * 2^128, so any count of any finite floats is exact.
 *
 * Two ways in, both exact:
 * - one at a time (add1, short arrays): m << (s % 32) (< 2^55, signed) is split over digit
 *   s / 32 (its low 32 bits) and the next digit (the rest): two adds of < 2^32 each. Carries
 *   are propagated lazily: after a normalisation the digits below the top are in [0, 2^32),
 *   so P more additions leave |digit| < 2^32 (P + 1), far inside int64 for P <= 2^20.
 * - in bulk (long arrays): first binned by the float's top 9 bits (sign and exponent), which
 *   costs a shift, a mask and one add per element. Bin (sign, e) holds in one uint64 the sum
 *   of the 23 stored mantissa bits (bits 0..39) and the element count (bits 40..63): with at
 *   most 2^17 elements per bin per chunk neither field overflows. Per chunk, each bin then
 *   goes into the digits as count * 2^23 (hidden bits, normals only) + mantissa sum, at the
 *   bin's exponent, and the digits are normalised. Several sets of bins (lanes) take
 *   elements in turn so that repeated adds to one bin do not wait on each other. */
#include <math.h>
#include <string.h>
#include <gmp.h>
#include "oracle/exact.h"
#include "oracle/ieee_round.h"

#define DIGITS 10
#define LSB_EXP (-149)
#define NORMALISE_EVERY (UINT64_C(1) << 20)   /* cheap; could be up to 2^30 */
#define EXACT_BITS 384                 /* >= 32 * (DIGITS - 1) + 64: room for the exact value */
#define LANES 8
#define CHUNK ((size_t)1 << 20)        /* per lane 2^17: the bins' field limits */
#define BULK_MIN 4096                  /* below this, emptying the bins costs more than it saves */
#define BINS 512
#define COUNT_ONE (UINT64_C(1) << 40)
#define FRAC_MASK (COUNT_ONE - 1)

_Static_assert(DIGITS == RF_XSUM_WORDS, "rf_xsum_digits exchanges exactly the digit layout");
_Static_assert((-1 >> 1) == -1, "the carry split needs arithmetic right shifts");
_Static_assert(CHUNK / LANES <= ((size_t)1 << 17), "bin fields would overflow");

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

static void add_specials(rf_xsum *a, const specials *sp) {
  a->n_pinf += sp->pinf;
  a->n_ninf += sp->ninf;
  a->n_nan += sp->nan;
}

static void normalise(int64_t *w) {
  for (int i = 0; i < DIGITS - 1; i++) {
    int64_t carry = w[i] >> 32;
    w[i] &= INT64_C(0xffffffff);
    w[i + 1] += carry;
  }
}

void rf_xsum_init(rf_xsum *a) { memset(a, 0, sizeof *a); }

/* Room for n more one-at-a-time additions within the lazy-carry bound. */
static void reserve(rf_xsum *a, uint64_t n) {
  if (a->pending + n > NORMALISE_EVERY) {
    normalise(a->w);
    a->pending = 0;
  }
  a->pending += n;
}

/* ---- one at a time ---------------------------------------------------------------------- */
static void add_one(int64_t *w, uint32_t b, specials *sp) {
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
  w[s >> 5] += v & INT64_C(0xffffffff);          /* v = (v >> 32) * 2^32 + (v & 0xffffffff) */
  w[(s >> 5) + 1] += v >> 32;
}

static void add_each(rf_xsum *a, const float *x, size_t n, uint32_t keep) {
  specials sp = {0, 0, 0};
  reserve(a, n);
  for (size_t i = 0; i < n; i++) add_one(a->w, bits_of(x[i]) & keep, &sp);
  add_specials(a, &sp);
}

/* ---- in bulk ---------------------------------------------------------------------------- */
/* mant * 2^(s - 149), mant < 2^45, with sign into the digits: three 32-bit parts. */
static void add_scaled(int64_t *w, uint64_t mant, uint32_t s, int negative) {
  uint32_t r = s & 31, k = s >> 5;
  uint64_t low = (mant & 0xffffffffu) << r;                     /* < 2^63 */
  uint64_t high = ((mant >> 32) << r) + (low >> 32);            /* < 2^45 */
  int64_t part[3] = {(int64_t)(low & 0xffffffffu), (int64_t)(high & 0xffffffffu),
                     (int64_t)(high >> 32)};
  for (int i = 0; i < 3; i++) w[k + i] += negative ? -part[i] : part[i];
}

static void add_chunk_binned(rf_xsum *a, const float *x, size_t n, uint32_t keep) {
  uint64_t bin[LANES][BINS];
  memset(bin, 0, sizeof bin);
  size_t i = 0;
  for (; i + LANES <= n; i += LANES)
    for (int l = 0; l < LANES; l++) {
      uint32_t b = bits_of(x[i + l]) & keep;
      bin[l][b >> 23] += (b & 0x7fffffu) | COUNT_ONE;
    }
  for (int l = 0; i < n; i++, l++) {
    uint32_t b = bits_of(x[i]) & keep;
    bin[l][b >> 23] += (b & 0x7fffffu) | COUNT_ONE;
  }
  normalise(a->w);                               /* headroom for the bins below */
  int any_special = 0;
  for (uint32_t idx = 0; idx < BINS; idx++) {
    uint64_t count = 0, frac = 0;                /* over the lanes: <= 2^20 and < 2^43 */
    for (int l = 0; l < LANES; l++) {
      count += bin[l][idx] >> 40;
      frac += bin[l][idx] & FRAC_MASK;
    }
    if (count == 0) continue;
    uint32_t e = idx & 0xffu;
    if (e == 0xffu) {
      any_special = 1;
    } else {
      uint64_t mant = frac + (e ? count << 23 : 0);
      add_scaled(a->w, mant, e ? e - 1 : 0, idx >> 8);
    }
  }
  normalise(a->w);
  a->pending = 0;
  if (any_special) {                             /* rare: count them exactly */
    specials sp = {0, 0, 0};
    for (i = 0; i < n; i++) {
      uint32_t b = bits_of(x[i]) & keep;
      if (((b >> 23) & 0xffu) == 0xffu) count_special(&sp, b);
    }
    add_specials(a, &sp);
  }
}

static void add_array(rf_xsum *a, const float *x, size_t n, uint32_t keep) {
  while (n > 0) {
    size_t k = n < CHUNK ? n : CHUNK;
    if (k >= BULK_MIN) add_chunk_binned(a, x, k, keep);
    else add_each(a, x, k, keep);
    x += k;
    n -= k;
  }
}

/* keep = 0x7fffffff turns every input into its absolute value. */
void rf_xsum_add(rf_xsum *a, const float *x, size_t n) { add_array(a, x, n, 0xffffffffu); }
void rf_xsum_add_abs(rf_xsum *a, const float *x, size_t n) { add_array(a, x, n, 0x7fffffffu); }

void rf_xsum_add1(rf_xsum *a, float x) {
  specials sp = {0, 0, 0};
  reserve(a, 1);
  add_one(a->w, bits_of(x), &sp);
  add_specials(a, &sp);
}

void rf_xsum_digits(const rf_xsum *a, int64_t w[RF_XSUM_WORDS]) {
  memcpy(w, a->w, sizeof a->w);
  normalise(w);
}

void rf_xsum_from_digits(rf_xsum *a, const int64_t w[RF_XSUM_WORDS], uint64_t n_pinf,
                         uint64_t n_ninf, uint64_t n_nan) {
  rf_xsum_init(a);
  memcpy(a->w, w, sizeof a->w);
  a->n_pinf = n_pinf;
  a->n_ninf = n_ninf;
  a->n_nan = n_nan;
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

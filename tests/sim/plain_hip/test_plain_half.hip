/* The simulator's __half and __hip_bfloat16 (sim/sim_half.h), against the definition of round
 * to nearest even rather than another implementation of it: a converted value is the
 * representable value nearest to the input (ties to the even significand), overflow past the
 * largest finite value plus half an ulp gives infinity, NaN stays NaN; every binary16 pattern
 * converts to float and back unchanged; each arithmetic operation is the exact result rounded
 * once; the comparisons and min/max keep IEEE's NaN rules. A kernel uses them on the device. */
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_bf16.h>
#include <math.h>
#include <stdint.h>
#include "../sim_test_util.h"

/* The neighbours of a finite 16-bit value by bits (sign-magnitude). */
template <typename H>
static double value_of(unsigned short b) {
  return static_cast<double>(static_cast<float>(H(typename std::conditional<
      std::is_same<H, __half>::value, __half_raw, __hip_bfloat16_raw>::type{b})));
}

/* Checks that h (bits) is x rounded to nearest even in the format whose largest finite
 * pattern is max_bits (0x7BFF binary16, 0x7F7F bfloat16). */
template <typename H>
static bool is_rn(double x, unsigned short h, unsigned short max_bits, double *want_out) {
  if (isnan(x)) return (h & 0x7fff) > (max_bits | 0x7f) + 1;   // any NaN pattern
  const bool neg = signbit(x);
  const double ax = fabs(x);
  // The candidate below or at |x| and the next one up, by walking magnitudes.
  const double max = value_of<H>(max_bits);
  const double ulp_max = max - value_of<H>(static_cast<unsigned short>(max_bits - 1));
  unsigned short want;
  if (ax >= max + ulp_max / 2) {
    want = static_cast<unsigned short>(max_bits + 1);   // infinity (tie at the boundary: even is inf)
  } else {
    unsigned lo = 0, hi = max_bits;   // largest magnitude pattern with value <= ax
    while (lo < hi) {
      const unsigned mid = (lo + hi + 1) / 2;
      if (value_of<H>(static_cast<unsigned short>(mid)) <= ax) lo = mid;
      else hi = mid - 1;
    }
    const double below = value_of<H>(static_cast<unsigned short>(lo));
    if (below == ax || lo == max_bits) {
      want = static_cast<unsigned short>(lo);
    } else {
      const double above = value_of<H>(static_cast<unsigned short>(lo + 1));
      const double dl = ax - below, du = above - ax;
      want = static_cast<unsigned short>(dl < du ? lo : du < dl ? lo + 1 : (lo % 2 ? lo + 1 : lo));
    }
  }
  if (neg) want = static_cast<unsigned short>(want | 0x8000u);
  *want_out = want;
  return h == want;
}

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t next32() {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return static_cast<uint32_t>(rng >> 16);
}

template <typename H>
static void test_conversions(const char *name, unsigned short max_bits, double step) {
  unsigned bad = 0;
  std::vector<float> xs = {0.0f, -0.0f, 1.0f, -1.0f, 65504.0f, 65519.99f, 65520.0f, 1e30f,
                           -1e30f, INFINITY, -INFINITY, NAN, 1e-8f, 2.9802322e-08f, 5.9604645e-08f,
                           3.0e38f, 3.3961776e38f, 3.3895314e38f, 1e-39f};
  // Exactly halfway between neighbours, and a hair either side.
  for (unsigned b = 1; b < max_bits; b += 97) {
    const double mid = (value_of<H>(static_cast<unsigned short>(b)) +
                        value_of<H>(static_cast<unsigned short>(b + 1))) / 2;
    const float fm = static_cast<float>(mid);
    xs.push_back(fm);
    xs.push_back(nextafterf(fm, 0.0f));
    xs.push_back(nextafterf(fm, INFINITY));
    xs.push_back(-fm);
  }
  for (int k = 0; k < 20000; k++) {
    uint32_t u = next32();
    float f;
    memcpy(&f, &u, 4);
    xs.push_back(f);
    xs.push_back(static_cast<float>(next32() % 200000) * static_cast<float>(step) - 100000.0f * static_cast<float>(step));
  }
  for (float x : xs) {
    const H h = H(x);
    unsigned short bits;
    memcpy(&bits, &h, 2);
    double want = 0;
    if (!is_rn<H>(x, bits, max_bits, &want)) {
      if (++bad <= 5)
        fprintf(stderr, "%s(%a) = 0x%04x, want 0x%04x\n", name, x, bits, static_cast<unsigned>(want));
    }
  }
  CHECK_MSG(bad == 0, "%s: %u of %zu conversions not rounded to nearest even", name, bad, xs.size());
}

static void test_round_trip() {
  unsigned bad = 0;
  for (unsigned b = 0; b < 65536; b++) {
    const __half h = __ushort_as_half(static_cast<unsigned short>(b));
    const float f = __half2float(h);
    const unsigned short back = __half_as_ushort(__float2half(f));
    const bool nan = (b & 0x7fff) > 0x7c00;
    if (nan ? !isnan(f) || (back & 0x7fff) <= 0x7c00 : back != b) bad++;
    const __hip_bfloat16 g = __ushort_as_bfloat16(static_cast<unsigned short>(b));
    const unsigned short gb = __bfloat16_as_ushort(__float2bfloat16(__bfloat162float(g)));
    const bool gnan = (b & 0x7fff) > 0x7f80;
    if (gnan ? (gb & 0x7fff) <= 0x7f80 : gb != b) bad++;
  }
  CHECK_MSG(bad == 0, "%u 16-bit patterns did not survive a round trip through float", bad);
}

/* Each operation is the exact result (double holds sums and products of two halves exactly)
 * rounded once; quotients by the double quotient rounded once (double's 53 bits >= 2*11+2). */
static void test_arithmetic() {
  unsigned bad = 0;
  for (int k = 0; k < 50000; k++) {
    const __half a = __ushort_as_half(static_cast<unsigned short>(next32())),
                 b = __ushort_as_half(static_cast<unsigned short>(next32()));
    const double da = __half2float(a), db = __half2float(b);
    const double exact[4] = {da + db, da - db, da * db, da / db};
    const __half got[4] = {__hadd(a, b), __hsub(a, b), __hmul(a, b), __hdiv(a, b)};
    const __half ops[4] = {a + b, a - b, a * b, a / b};
    for (int o = 0; o < 4; o++) {
      double want;
      if (!is_rn<__half>(exact[o], __half_as_ushort(got[o]), 0x7bff, &want) ||
          __half_as_ushort(got[o]) != __half_as_ushort(ops[o]))
        bad++;
    }
    const __hip_bfloat16 c = __ushort_as_bfloat16(static_cast<unsigned short>(next32())),
                         d = __ushort_as_bfloat16(static_cast<unsigned short>(next32()));
    double want;
    if (!is_rn<__hip_bfloat16>(static_cast<double>(__bfloat162float(c)) + __bfloat162float(d),
                               __bfloat16_as_ushort(__hadd(c, d)), 0x7f7f, &want))
      bad++;
  }
  CHECK_MSG(bad == 0, "%u operations not rounded once to nearest even", bad);
  const __half one = 1.0f, nan = __ushort_as_half(0x7e00), inf = __ushort_as_half(0x7c00);
  CHECK(__half2float(__hmax(one, nan)) == 1.0f && __half2float(__hmin(nan, one)) == 1.0f);
  CHECK(__hisnan(__hmax_nan(one, nan)) && __hisnan(__hmin_nan(nan, one)));
  CHECK(!__hlt(one, nan) && __hltu(one, nan) && __hlt(one, inf) && __hisinf(-inf) == -1);
  CHECK(__hge(one, one) && !__hne(one, one) && __hne(one, inf) && !__hne(one, nan) && __hneu(one, nan));
  CHECK(__half_as_ushort(-one) == 0xbc00 && __half2float(__habs(-one)) == 1.0f);
  const __half2 p = __floats2half2_rn(1.5f, -2.0f);
  const float2 q = __half22float2(__hadd2(p, p));
  CHECK(q.x == 3.0f && q.y == -4.0f && __low2float(p) == 1.5f && __high2float(p) == -2.0f);
  CHECK(__half2float(__hfma(__float2half(3.0f), __float2half(0.5f), one)) == 2.5f);
}

/* On the device: a __half array's sum in float, rounded once, and a __half shuffle. */
__global__ void half_kernel(const __half *x, __half *out) {
  float acc = __half2float(x[threadIdx.x]);
  for (int o = warpSize / 2; o > 0; o /= 2) acc += __half2float(__shfl_xor(__float2half(acc), o));
  if (threadIdx.x == 0) out[0] = __float2half(acc);
}

static void test_device() {
  std::vector<__half> hx(32);
  for (unsigned i = 0; i < 32; i++) hx[i] = __float2half(static_cast<float>(i));
  __half *x = dev_from(hx), *out = dev_alloc<__half>(1);
  rf_sim_configure(RF_SIM_SCHED_RANDOM, 4, 32);
  half_kernel<<<1, 32>>>(x, out);
  CHECK(rf_sim_take_status(nullptr, 0) == RF_SIM_OK);
  CHECK(__half2float(host_from(out, 1)[0]) == 496.0f);
  hipFree(x);
  hipFree(out);
}

int main() {
  test_conversions<__half>("__float2half", 0x7bff, 1.0 / 1024);
  test_conversions<__hip_bfloat16>("__float2bfloat16", 0x7f7f, 1.0 / 128);
  test_round_trip();
  test_arithmetic();
  test_device();
  return rf_test_done();
}

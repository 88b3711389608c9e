/* The float reference pipelines of the logsumexp / log-softmax bound tests
 * (test_lse_bound.c, test_lse_half_output_bound.c): kernels/logsumexp.hip's algorithms in
 * host float arithmetic with the host's expf / logf, and the plans they follow. Sequential
 * (the 3kernel plan), a 256-lane strided chain + tree (the block plan), and online sequential
 * (a rescale per element). */
#ifndef RF_TEST_LSE_PIPELINES_H
#define RF_TEST_LSE_PIPELINES_H
#include <math.h>
#include <stdint.h>
#include "redfuzz/plan.h"

#define CMAX 2048
#define LANES 256

static inline uint64_t next_rand(uint64_t *s) { /* splitmix64 (Steele, Lea, Flood 2014) */
  uint64_t z = (*s += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}
static inline double unit(uint64_t *s) { return (double)(next_rand(s) >> 11) * 0x1p-53; }
static inline float uniform(uint64_t *s, double lo, double hi) { return (float)(lo + (hi - lo) * unit(s)); }

typedef struct { float lse; float y[CMAX]; } outputs;

/* The exp term and online step of kernels/logsumexp.hip (logsumexp rules). */
static inline float term(float x, float m) { return x == m ? 1.0f : expf(x - m); }
static inline void finish(const float *x, uint32_t C, float m, float s, outputs *o) {
  float L = logf(s);
  o->lse = m + L;
  for (uint32_t j = 0; j < C; j++) o->y[j] = (x[j] - m) - L;
}
static inline float row_max(const float *x, uint32_t C) {
  float m = -INFINITY;
  for (uint32_t j = 0; j < C; j++) m = fmaxf(m, x[j]);
  return m;
}
static inline void seq(const float *x, uint32_t C, int drop_last, outputs *o) {
  float m = row_max(x, C), s = 0;
  for (uint32_t j = 0; j + (drop_last ? 1 : 0) < C; j++) s += term(x[j], m);
  finish(x, C, m, s, o);
}
static inline void tree(const float *x, uint32_t C, outputs *o) {
  float m = row_max(x, C), lane[LANES];
  for (int t = 0; t < LANES; t++) {
    lane[t] = 0;
    for (uint32_t j = (uint32_t)t; j < C; j += LANES) lane[t] += term(x[j], m);
  }
  for (int h = LANES / 2; h > 0; h /= 2)
    for (int t = 0; t < h; t++) lane[t] += lane[t + h];
  finish(x, C, m, lane[0], o);
}
static inline void online(const float *x, uint32_t C, outputs *o) {
  float m = -INFINITY, s = 0;
  for (uint32_t j = 0; j < C; j++) {
    if (x[j] > m) { s = s * expf(m - x[j]) + 1.0f; m = x[j]; }
    else if (x[j] == m) s += 1.0f;
    else s += expf(x[j] - m);
  }
  finish(x, C, m, s, o);
}

static inline rf_plan plan_seq(uint32_t C) { rf_plan p = {0}; rf_plan_add(&p, RF_LEVEL_CHAIN, C); return p; }
static inline rf_plan plan_tree(uint32_t C) {
  rf_plan p = {0};
  rf_plan_add(&p, RF_LEVEL_CHAIN, (C + LANES - 1) / LANES);
  rf_plan_add(&p, RF_LEVEL_LDS, 8);
  return p;
}
static inline rf_plan plan_online(uint32_t C) {
  rf_plan p = plan_seq(C);
  p.rescales = C - 1;
  return p;
}

#endif

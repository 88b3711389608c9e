/* Oracle benchmark (a program, not a test): prints figures, asserts nothing.
 *   bench_oracle [sum|softmax|all] [reps]
 * sum:     n = 2^24 floats; best-of-reps time of a naive float loop and of the exact sum
 *          (superaccumulator + final rounding) over the same data, and their ratio, for two
 *          data sets (narrow: uniform in [-1, 1); wide: random exponents over the range).
 * softmax: 4096 x 1024, wall seconds with 1 and with 2 threads, and the CPU seconds of all
 *          threads (on a busy machine, wall time alone hides whether the threads ran). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "oracle/exact.h"

static uint64_t rng_state = 2024;
static uint64_t rng(void) {   /* splitmix64 (Steele, Lea, Flood 2014) */
  uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}

static double now_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double cpu_s(void) {   /* all threads of the process */
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static volatile float sink_f;

/* Not static-inline-able away: the loop order is fixed by IEEE semantics (no fast-math). */
static float naive_sum(const float *x, size_t n) {
  float s = 0.0f;
  for (size_t i = 0; i < n; i++) s += x[i];
  return s;
}

static void bench_sum(const char *name, const float *x, size_t n, int reps) {
  double best_naive = 1e30, best_exact = 1e30;
  for (int r = 0; r < reps; r++) {
    double t0 = now_s();
    sink_f = naive_sum(x, n);
    double t1 = now_s();
    sink_f = rf_oracle_sum(x, n);
    double t2 = now_s();
    if (t1 - t0 < best_naive) best_naive = t1 - t0;
    if (t2 - t1 < best_exact) best_exact = t2 - t1;
  }
  printf("sum %-6s n=%zu naive_ms=%.2f exact_ms=%.2f ratio=%.2f exact_ns_per_elem=%.2f\n", name,
         n, 1e3 * best_naive, 1e3 * best_exact, best_exact / best_naive, 1e9 * best_exact / (double)n);
}

static void run_sum(int reps) {
  size_t n = (size_t)1 << 24;
  float *x = malloc(n * sizeof *x);
  for (size_t i = 0; i < n; i++) x[i] = (float)((int32_t)(rng() >> 40) - (1 << 23)) * 0x1p-23f;
  bench_sum("narrow", x, n, reps);
  for (size_t i = 0; i < n; i++) {
    uint32_t b = (uint32_t)rng();
    uint32_t e = (b >> 23) & 0xffu;
    if (e == 0xffu) b &= ~(1u << 30);           /* keep it finite */
    memcpy(&x[i], &b, sizeof b);
  }
  bench_sum("wide", x, n, reps);
  free(x);
}

static void run_softmax(void) {
  uint32_t rows = 4096, cols = 1024;
  size_t n = (size_t)rows * cols;
  float *x = malloc(n * sizeof *x);
  double *y = malloc(n * sizeof *y);
  float *yf = malloc(n * sizeof *yf);
  double *s = malloc(rows * sizeof *s);
  /* Logits in [-16, 16) with shifted rows (x, x + 1000, x - 1000), as the fuzzer makes. */
  for (size_t i = 0; i < n; i++) {
    float shift = (float)((int)((i / cols) % 3) - 1) * 1000.0f;
    x[i] = shift + (float)((int32_t)(rng() >> 40) - (1 << 23)) * 0x1p-19f;
  }
  for (int threads = 1; threads <= 2; threads++) {
    double t0 = now_s(), c0 = cpu_s();
    rf_oracle_softmax(x, rows, cols, y, yf, s, threads);
    double t1 = now_s(), c1 = cpu_s();
    printf("softmax rows=%u cols=%u threads=%d seconds=%.2f cpu_seconds=%.2f us_per_elem=%.3f\n",
           rows, cols, threads, t1 - t0, c1 - c0, 1e6 * (t1 - t0) / (double)n);
  }
  free(x);
  free(y);
  free(yf);
  free(s);
}

int main(int argc, char **argv) {
  const char *what = argc > 1 ? argv[1] : "all";
  int reps = argc > 2 ? atoi(argv[2]) : 5;
  if (reps < 1) reps = 1;
  if (strcmp(what, "sum") == 0 || strcmp(what, "all") == 0) run_sum(reps);
  if (strcmp(what, "softmax") == 0 || strcmp(what, "all") == 0) run_softmax();
  return 0;
}

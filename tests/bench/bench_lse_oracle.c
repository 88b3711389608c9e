/* Log-op oracle benchmark (a program, not a test): prints figures, asserts nothing.
 *   bench_lse_oracle [reps]
 * For the shapes 64x1024, 4096x1, 1x4096, 1x65536 and 256x4096 on two row kinds (uniform in
 * [-1, 1); deep: uniform in [-200, 0], many exps tiny), the best-of-reps CPU time per case and
 * per row of the MPFR oracle (rf_oracle_lse on one thread: every row in MPFR, as before the
 * double path) and of the double oracle (rf_oracle_lse_row_double per row), for logsumexp
 * (no y) and log-softmax (y). CPU time of the process, so other jobs on the machine matter
 * less than for wall time. */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "oracle/logsumexp_double.h"

static uint64_t rng_state = 4242;
static uint64_t rng(void) {   /* splitmix64 (Steele, Lea, Flood 2014) */
  uint64_t z = (rng_state += UINT64_C(0x9e3779b97f4a7c15));
  z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
  return z ^ (z >> 31);
}
static double cpu_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static volatile double sink;

/* Best-of-reps CPU seconds of one case, MPFR (mpfr = 1) or double. */
static double time_case(const float *x, uint32_t rows, uint32_t cols, rf_lse_row *out,
                        rf_lse_margin *mg, double *y, int mpfr, int reps) {
  double best = INFINITY;
  for (int k = 0; k < reps; k++) {
    double t0 = cpu_s();
    if (mpfr) {
      rf_oracle_lse(x, rows, cols, out, y, 1);
    } else {
      for (uint32_t r = 0; r < rows; r++)
        if (rf_oracle_lse_row_double(x + (size_t)r * cols, cols, &out[r], &mg[r],
                                     y ? y + (size_t)r * cols : NULL) < 0)
          rf_oracle_lse_row(x + (size_t)r * cols, cols, &out[r], y ? y + (size_t)r * cols : NULL);
    }
    double t = cpu_s() - t0;
    sink = out[rows - 1].lse;
    if (t < best) best = t;
  }
  return best;
}

int main(int argc, char **argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 3;
  if (reps < 1) reps = 1;
  static const uint32_t shapes[][2] = {{64, 1024}, {4096, 1}, {1, 4096}, {1, 65536}, {256, 4096}};
  const char *kinds[2] = {"uniform", "deep"};
  printf("log-op oracle, CPU time per case (us) and per row (us), best of %d; MPFR = every row "
         "in MPFR (before), double = the double path (after)\n", reps);
  printf("%-10s %-8s %-11s %12s %12s %12s %12s %8s\n", "shape", "rows", "op", "MPFR/case",
         "double/case", "MPFR/row", "double/row", "speed-up");
  for (size_t s = 0; s < sizeof shapes / sizeof *shapes; s++) {
    const uint32_t rows = shapes[s][0], cols = shapes[s][1];
    const size_t n = (size_t)rows * cols;
    float *x = malloc(n * sizeof *x);
    double *y = malloc(n * sizeof *y);
    rf_lse_row *out = malloc(rows * sizeof *out);
    rf_lse_margin *mg = malloc(rows * sizeof *mg);
    for (int k = 0; k < 2; k++) {
      for (size_t i = 0; i < n; i++) {
        double u = (double)(rng() >> 11) * 0x1p-53;
        x[i] = (float)(k == 0 ? 2 * u - 1 : -200 * u);
      }
      /* the big MPFR case costs seconds: one repetition of it */
      const int mreps = n > 100000 ? 1 : reps;
      for (int ls = 0; ls < 2; ls++) {
        double *yy = ls ? y : NULL;
        double tm = time_case(x, rows, cols, out, mg, yy, 1, mreps);
        double td = time_case(x, rows, cols, out, mg, yy, 0, reps);
        char shape[32];
        snprintf(shape, sizeof shape, "%ux%u", rows, cols);
        printf("%-10s %-8s %-11s %12.1f %12.2f %12.2f %12.3f %7.0fx\n", shape, kinds[k],
               ls ? "logsoftmax" : "logsumexp", tm * 1e6, td * 1e6, tm * 1e6 / rows,
               td * 1e6 / rows, tm / td);
      }
    }
    free(x);
    free(y);
    free(out);
    free(mg);
  }
  return 0;
}

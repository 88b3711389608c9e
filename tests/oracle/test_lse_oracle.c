/* The logsumexp / log-softmax oracle (oracle/logsumexp.h) against hand-computed values: exact
 * cases (one element, a lone maximum among -inf), log 2 and log 4 from equal elements,
 * x = (1, 2, 3), a row far below zero, a row near FLT_MAX, the special-value rules of
 * docs/ORACLE.md, and the weighted spread wd. Reference values: log 2 = 0.693147180559945309417,
 * log 4 = 1.386294361119890618834, log(1 + e^-1 + e^-2) = 0.407605964444380 (to 15 digits,
 * so compared within 1e-14). */
#include <float.h>
#include <math.h>
#include "oracle/logsumexp.h"
#include "rf_test.h"

#define LN2 0.693147180559945309417
#define LN4 1.386294361119890618834

static rf_lse_row row_of(const float *x, uint32_t cols, double *y) {
  rf_lse_row r;
  rf_oracle_lse_row(x, cols, &r, y);
  return r;
}

int main(void) {
  double y[8];
  /* One element: lse = x exactly, y = 0. */
  {
    float x[] = {0.0f};
    rf_lse_row r = row_of(x, 1, y);
    CHECK(r.lse == 0 && r.log_s == 0 && y[0] == 0 && r.wd < 0x1p-800);
    float x2[] = {-3.5f};
    r = row_of(x2, 1, y);
    CHECK(r.lse == -3.5 && y[0] == 0);
  }
  /* A lone maximum among -inf: exact, the -inf entries give y = -inf. */
  {
    float x[] = {-INFINITY, 2.0f, -INFINITY};
    rf_lse_row r = row_of(x, 3, y);
    CHECK(r.lse == 2.0 && r.log_s == 0);
    CHECK(y[0] == -INFINITY && y[1] == 0 && y[2] == -INFINITY);
  }
  /* Equal elements: log 2 and log 4, correctly rounded. */
  {
    float x[] = {1.0f, 1.0f};
    rf_lse_row r = row_of(x, 2, y);
    CHECK(r.log_s == LN2 && r.lse == 1 + LN2 && y[0] == -LN2 && y[1] == -LN2);
    float z[] = {0.0f, 0.0f, 0.0f, 0.0f};
    r = row_of(z, 4, y);
    CHECK(r.lse == LN4 && y[3] == -LN4);
    CHECK(r.wd < 0x1p-800);   /* every |x_j - m| is 0 */
  }
  /* (1, 2, 3): lse = 3 + log(1 + e^-1 + e^-2). */
  {
    float x[] = {1.0f, 2.0f, 3.0f};
    rf_lse_row r = row_of(x, 3, y);
    const double L = 0.407605964444380;
    CHECK(fabs(r.log_s - L) < 1e-14 && fabs(r.lse - (3 + L)) < 1e-14);
    CHECK(fabs(y[0] - (-2 - L)) < 1e-14 && fabs(y[1] - (-1 - L)) < 1e-14 &&
          fabs(y[2] - (-L)) < 1e-14);
    CHECK(y[2] == -r.log_s);   /* the maximum's y is -L, the same rounding */
    /* wd = Σ p_j |x_j - 3| = (2 e^-2 + e^-1) / (1 + e^-1 + e^-2), an upper bound close to it */
    double e1 = exp(-1.0), e2 = exp(-2.0), wd = (2 * e2 + e1) / (1 + e1 + e2);
    CHECK(r.wd >= wd && r.wd <= wd * (1 + 0x1p-17));
  }
  /* Far below zero: no underflow in the oracle. */
  {
    float x[] = {-1000.0f, -1000.0f};
    rf_lse_row r = row_of(x, 2, y);
    CHECK(r.lse == -1000 + LN2 && y[0] == -LN2);
  }
  /* Near FLT_MAX: lse = m + log 2, which rounds to m in double. */
  {
    float x[] = {FLT_MAX, FLT_MAX};
    rf_lse_row r = row_of(x, 2, y);
    CHECK(r.lse == (double)FLT_MAX && y[0] == -LN2);
    float w[] = {FLT_MAX, -FLT_MAX};   /* y_1 = -2 FLT_MAX - tiny: finite in double */
    r = row_of(w, 2, y);
    CHECK(r.lse == (double)FLT_MAX && y[0] == 0 && y[1] == -2.0 * FLT_MAX);
  }
  /* Cancellation: x = -log 2 (rounded to float) twice gives lse = log 2 - RN_f(log 2), tiny. */
  {
    float a = (float)-LN2;
    float x[] = {a, a};
    rf_lse_row r = row_of(x, 2, y);
    CHECK(r.lse != 0 && fabs(r.lse) < 1e-7 && fabs(r.lse - ((double)a + LN2)) < 1e-16);   /* LN2 as a double is within 2^-54 */
  }
  /* Special values (docs/ORACLE.md). */
  {
    float nan_row[] = {1.0f, NAN, INFINITY};
    rf_lse_row r = row_of(nan_row, 3, y);
    CHECK(isnan(r.lse) && isnan(y[0]) && isnan(y[1]) && isnan(y[2]));
    float inf_row[] = {1.0f, INFINITY, -INFINITY};
    r = row_of(inf_row, 3, y);
    CHECK(r.lse == INFINITY && isnan(y[0]) && isnan(y[1]) && isnan(y[2]));
    float ninf_row[] = {-INFINITY, -INFINITY};
    r = row_of(ninf_row, 2, y);
    CHECK(r.lse == -INFINITY && isnan(y[0]) && isnan(y[1]));
    r = row_of(ninf_row, 0, y);
    CHECK(r.lse == -INFINITY);   /* the empty sum is 0 */
  }
  /* y may be NULL. */
  {
    float x[] = {1.0f, 1.0f};
    rf_lse_row r;
    rf_oracle_lse_row(x, 2, &r, NULL);
    CHECK(r.lse == 1 + LN2);
  }
  /* Rows spread over threads: the same bits as one row at a time. */
  {
    enum { R = 9, C = 50 };
    static float xs[R * C];
    static double y1[R * C], y4[R * C];
    rf_lse_row r1[R], r4[R];
    uint32_t s = 7;
    for (int i = 0; i < R * C; i++) {
      s = s * 1664525u + 1013904223u;
      xs[i] = (float)(s >> 8) * 0x1p-20f - 8.0f;
    }
    xs[C] = NAN;                 /* a special row among them */
    for (int i = 0; i < R; i++) rf_oracle_lse_row(xs + i * C, C, &r1[i], y1 + i * C);
    rf_oracle_lse(xs, R, C, r4, y4, 4);
    int same = 1;
    for (int i = 0; i < R * C; i++) same &= y1[i] == y4[i] || (isnan(y1[i]) && isnan(y4[i]));
    for (int i = 0; i < R; i++)
      same &= (r1[i].lse == r4[i].lse || (isnan(r1[i].lse) && isnan(r4[i].lse))) &&
              r1[i].wd == r4[i].wd && r1[i].log_s == r4[i].log_s;
    CHECK(same);
  }
  return rf_test_done();
}

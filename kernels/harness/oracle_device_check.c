/* The host side of the device oracle (oracle_device.h): the host oracle's answer in the
 * device oracle's record, and the field-by-field comparison a CI test and the runner's
 * re-checks use. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "kernels/harness/oracle_device.h"
#include "oracle/bounds.h"
#include "oracle/exact.h"

_Static_assert(RF_ORACLE_DEV_DIGITS == RF_XSUM_WORDS, "device and host digits differ");

void rf_oracle_dev_host(const float *x, uint64_t n, rf_oracle_dev_out *out) {
  memset(out, 0, sizeof *out);
  rf_xsum s, a;
  rf_xsum_init(&s);
  rf_xsum_add(&s, x, (size_t)n);
  rf_xsum_init(&a);
  rf_xsum_add_abs(&a, x, (size_t)n);
  rf_xsum_digits(&s, out->sum_w);
  rf_xsum_digits(&a, out->abs_w);
  out->n_pinf = s.n_pinf;
  out->n_ninf = s.n_ninf;
  out->n_nan = s.n_nan;
  out->sum_f32 = rf_xsum_round_f32(&s);
  out->sum_f64 = rf_xsum_round_f64(&s);
  rf_sum_facts f;
  rf_sum_facts_compute(x, (size_t)n, &f);
  out->abs_sum_up = f.abs_sum_up;
  out->min_exp = f.min_exp;
  out->any_nonzero = f.any_nonzero;
  out->all_finite = f.all_finite;
  out->all_neg_zero = f.all_neg_zero;
  out->argmax_index = rf_oracle_argmax(x, (size_t)n, &out->max_value);
  out->argmin_index = rf_oracle_argmin(x, (size_t)n, &out->min_value);
  out->first_nan = rf_oracle_first_nan(x, (size_t)n);
}

/* Bits equal, or both NaN (the payload of a NaN result is not part of the answer). */
static int same_f32(float a, float b) {
  return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}
static int same_f64(double a, double b) {
  return (isnan(a) && isnan(b)) || memcmp(&a, &b, sizeof a) == 0;
}

int rf_oracle_dev_compare(const rf_oracle_dev_out *w, const rf_oracle_dev_out *g, char *msg,
                          size_t len) {
  for (int i = 0; i < RF_ORACLE_DEV_DIGITS; i++) {
    if (w->sum_w[i] != g->sum_w[i]) {
      snprintf(msg, len, "sum digit %d: host %lld, device %lld", i, (long long)w->sum_w[i],
               (long long)g->sum_w[i]);
      return -1;
    }
    if (w->abs_w[i] != g->abs_w[i]) {
      snprintf(msg, len, "|x| sum digit %d: host %lld, device %lld", i, (long long)w->abs_w[i],
               (long long)g->abs_w[i]);
      return -1;
    }
  }
#define RF_CMP_INT(f)                                                                       \
  if (w->f != g->f) {                                                                       \
    snprintf(msg, len, #f ": host %lld, device %lld", (long long)w->f, (long long)g->f);    \
    return -1;                                                                              \
  }
  RF_CMP_INT(n_pinf) RF_CMP_INT(n_ninf) RF_CMP_INT(n_nan) RF_CMP_INT(argmax_index) RF_CMP_INT(first_nan)
  RF_CMP_INT(argmin_index)
  RF_CMP_INT(min_exp) RF_CMP_INT(any_nonzero) RF_CMP_INT(all_finite) RF_CMP_INT(all_neg_zero)
#undef RF_CMP_INT
  if (!same_f32(w->sum_f32, g->sum_f32)) {
    snprintf(msg, len, "sum_f32: host %a, device %a", (double)w->sum_f32, (double)g->sum_f32);
    return -1;
  }
  if (!same_f64(w->sum_f64, g->sum_f64)) {
    snprintf(msg, len, "sum_f64: host %a, device %a", w->sum_f64, g->sum_f64);
    return -1;
  }
  if (!same_f64(w->abs_sum_up, g->abs_sum_up)) {
    snprintf(msg, len, "abs_sum_up: host %a, device %a", w->abs_sum_up, g->abs_sum_up);
    return -1;
  }
  const float *fw[2] = {&w->max_value, &w->min_value}, *fg[2] = {&g->max_value, &g->min_value};
  for (int k = 0; k < 2; k++)
    if (!same_f32(*fw[k], *fg[k])) {
      snprintf(msg, len, "%s: host %a, device %a", k ? "min_value" : "max_value",
               (double)*fw[k], (double)*fg[k]);
      return -1;
    }
  return 0;
}

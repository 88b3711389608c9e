/* Element types from their table (model/dtypes.def). */
#include "dtype.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include "dtype_bits.h"

static const rf_dtype_info table[RF_DTYPE_COUNT] = {
#define RF_DTYPE(id, name, bytes, p, ebits, emin, emax, max_finite, meaning) \
  {name, bytes, p, ebits, emin, emax, max_finite, meaning},
#include "dtypes.def"
#undef RF_DTYPE
};
/* The public enum (include/redfuzz/dtype.h) and the table agree row for row. */
enum {
#define RF_DTYPE(id, name, bytes, p, ebits, emin, emax, max_finite, meaning) RF_DT_ROW_##id,
#include "dtypes.def"
#undef RF_DTYPE
  RF_DT_ROWS
};
_Static_assert((int)RF_DT_ROWS == (int)RF_DTYPE_COUNT && (int)RF_DT_ROW_F32 == (int)RF_DTYPE_F32 &&
               (int)RF_DT_ROW_F16 == (int)RF_DTYPE_F16 && (int)RF_DT_ROW_BF16 == (int)RF_DTYPE_BF16,
               "model/dtypes.def and include/redfuzz/dtype.h disagree");

const rf_dtype_info *rf_dtype_get(rf_dtype d) {
  return (unsigned)d < RF_DTYPE_COUNT ? &table[d] : NULL;
}
const char *rf_dtype_name(rf_dtype d) { return (unsigned)d < RF_DTYPE_COUNT ? table[d].name : NULL; }
unsigned rf_dtype_bytes(rf_dtype d) { return (unsigned)d < RF_DTYPE_COUNT ? table[d].bytes : 4; }

int rf_dtype_parse(const char *s, rf_dtype *out) {
  for (int i = 0; s && i < RF_DTYPE_COUNT; i++)
    if (strcmp(s, table[i].name) == 0) { *out = (rf_dtype)i; return 0; }
  return -1;
}

const char *rf_dtype_list(void) {
  static char buf[RF_DTYPE_COUNT * 16];
  if (buf[0]) return buf;
  size_t o = 0;
  for (int i = 0; i < RF_DTYPE_COUNT && o < sizeof buf; i++)
    o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s", i ? ", " : "", table[i].name);
  return buf;
}

double rf_dtype_round(rf_dtype d, double x) {
  const rf_dtype_info *t = rf_dtype_get(d);
  if (!t || isnan(x) || isinf(x) || x == 0) return x;
  int e;
  frexp(x, &e);               /* |x| in [2^(e-1), 2^e) */
  int q = (e - 1 < t->emin ? t->emin : e - 1) - (t->p - 1);   /* the quantum's exponent */
  /* x / 2^q is exact (a power-of-two scaling of a double that stays in range here) and
   * nearbyint rounds it to nearest even in the default mode. */
  double r = ldexp(nearbyint(ldexp(x, -q)), q);
  return fabs(r) > t->max_finite ? copysign(INFINITY, x) : r;
}

float rf_dtype_load(rf_dtype d, const void *buf, uint64_t i) {
  return rf_db_load(buf, (size_t)i, (uint32_t)d);
}

void rf_dtype_store(rf_dtype d, const float *x, uint64_t n, void *out) {
  if (d == RF_DTYPE_F32) { memcpy(out, x, n * sizeof(float)); return; }
  uint16_t *o = out;
  for (uint64_t i = 0; i < n; i++) o[i] = rf_f32_to_half((uint32_t)d, x[i]);
}

/* The element types' facts from their table (model/dtypes.def): names, sizes, precision and
 * range, and host-side rounding of a real number to a type (for bounds and tests). */
#ifndef RF_MODEL_DTYPE_H
#define RF_MODEL_DTYPE_H
#include <stddef.h>
#include <stdint.h>
#include "redfuzz/dtype.h"
#ifdef __cplusplus
extern "C" {
#endif
typedef struct {
  const char *name;
  unsigned bytes;
  int p;            /* precision, hidden bit included: u = 2^-p */
  int ebits;
  int emin, emax;
  double max_finite;
  const char *meaning;
} rf_dtype_info;

/* The table row of d (NULL when out of range). */
const rf_dtype_info *rf_dtype_get(rf_dtype d);
const char *rf_dtype_name(rf_dtype d);
int rf_dtype_parse(const char *s, rf_dtype *out);
const char *rf_dtype_list(void);              /* "f32, f16, bf16" */
unsigned rf_dtype_bytes(rf_dtype d);
/* x rounded to nearest (ties to even) in type d, with d's subnormals and overflow to +-inf
 * (x at least max_finite + half an ulp of it in magnitude); NaN stays NaN. Exact: the result
 * is the value of d nearest x, computed in double (every value of each type is a double). */
double rf_dtype_round(rf_dtype d, double x);
/* The element i of a device input buffer of type d as float (exact). */
float rf_dtype_load(rf_dtype d, const void *buf, uint64_t i);
/* Encodes n float values (each representable in d) into d's device layout at out. */
void rf_dtype_store(rf_dtype d, const float *x, uint64_t n, void *out);
#ifdef __cplusplus
}
#endif
#endif

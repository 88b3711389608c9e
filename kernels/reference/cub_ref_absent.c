/* The CUB reference on backends without CUB (sim, hip): unavailable (cub_ref.h). */
#include "cub_ref.h"

int rf_cub_available(void) { return 0; }

const char *rf_cub_name(rf_op op) {
  (void)op;
  return NULL;
}

int rf_cub_reduce(rf_op op, void *tmp, size_t *tmp_bytes, const float *x, void *out,
                  uint64_t n) {
  (void)op; (void)tmp; (void)x; (void)out; (void)n;
  if (tmp_bytes) *tmp_bytes = 0;
  return -1;
}

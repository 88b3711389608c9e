/* Inputs of sparse cases (route RF_INPUT_SPARSE, route.h; model/gen_markers.h): a zeroed
 * device buffer with only the markers written (each row's, for logsumexp), then read-only.
 * On the simulator the buffer is a fresh mapping whose untouched pages are the kernel's zero page, so a case of
 * 2^32 elements costs the pages of its 16 markers, not 16 GiB; on GPUs it is one memset
 * and a few 4-byte uploads a row. The exact answer comes from the markers (op_table.c) or
 * from the one row the host holds (judge_log.c), so nothing on the host holds or passes over
 * all the elements. */
#include <stdio.h>
#include "sparse_input.h"
#include "model/dtype.h"
#include "model/gen.h"

void rf_sparse_input_free(void **buf) {
  rf_dev_free(*buf);
  *buf = NULL;
}

const char *rf_sparse_input_make(void **buf, char *msg, size_t len, batch_case *bc) {
  const rf_case *c = bc->c;
  const size_t esz = rf_dtype_bytes(c->dtype), pad = rf_input_misalign(c) * esz;
  const size_t bytes = pad + (size_t)bc->elems * esz;
  /* Up to 15 bytes of slack to the next 16-byte boundary, part of the allocation on every
   * backend (the simulator's sanitizer builds allocate exactly what is asked): they hold
   * guard values below, and AddressSanitizer bounds what lies past them. */
  const size_t slack = (16 - bytes % 16) % 16;
  rf_sparse_input_free(buf);
  void *p = NULL;
  if (rf_dev_alloc_zeroed(&p, bytes + slack)) {
    snprintf(msg, len, "cannot allocate %zu bytes on the device for "
             "the sparse input (n %llu)", bytes, (unsigned long long)bc->elems);
    return msg;
  }
  *buf = p;
  unsigned char *x = (unsigned char *)p + pad;
  uint64_t pos[RF_GEN_MARKERS_MAX];
  float val[RF_GEN_MARKERS_MAX];
  const unsigned m = rf_gen_marker_list(c, pos, val);
  unsigned char e[RF_GEN_MARKERS_MAX][4];
  for (unsigned k = 0; k < m; k++) rf_dtype_store(c->dtype, &val[k], 1, e[k]);
  /* A row case's rows all have the same markers, at the same columns (rf_gen_marker_list). */
  const uint64_t rows = rf_op_has_rows(c->op) ? c->rows : 1, stride = rows > 1 ? c->cols : 0;
  for (uint64_t r = 0; r < rows; r++)
    for (unsigned k = 0; k < m; k++)
      if (rf_dev_upload(x + (r * stride + pos[k]) * esz, e[k], esz))
        return "cannot write the sparse input's markers";
  /* The slack holds guard values (FLT_MAX, as the arena's input guards do), so a kernel that
   * reads a few elements past n sees them instead of zeros (sum/mut-vec4-overrun); on the
   * plain simulator a guard page follows it. */
  if (slack) {
    unsigned char g[16];
    for (size_t k = 0; k < slack; k++) g[k] = (unsigned char)(RF_INPUT_GUARD_BITS >> (8 * ((bytes + k) % 4)));
    if (rf_dev_upload((unsigned char *)p + bytes, g, slack)) return "cannot write the sparse input's guards";
  }
  /* A kernel that writes its input is `oob` on the simulator (sanitizer builds: it stays
   * writable, and the guards of the other buffers still hold). */
  (void)rf_dev_protect_readonly(p);
  bc->dev_x = (const float *)(const void *)x;
  return NULL;
}

/* Inputs of sparse cases (route RF_INPUT_SPARSE, route.h; model/gen_markers.h): a zeroed
 * device buffer with only the markers written (each row's, for logsumexp), then read-only.
 * On the simulator the buffer is a fresh mapping whose untouched pages are the kernel's zero page, so a case of
 * 2^32 elements costs the pages of its 16 markers, not 16 GiB; on GPUs it is one memset
 * and the markers' uploads, coalesced (below). The exact answer comes from the markers (op_table.c) or
 * from the one row the host holds (judge_log.c), so nothing on the host holds or passes over
 * all the elements. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "sparse_input.h"
#include "model/dtype.h"
#include "model/gen.h"

void rf_sparse_input_free(void **buf) {
  rf_dev_free(*buf);
  *buf = NULL;
}

/* The markers go up coalesced: markers in ascending order, each at most kGapBytes past the
 * span's end, join one upload of at most kSpanBytes with the zeros between them. One 4-byte
 * upload a marker was one driver call each: on an H100, `sweep --derived-only` spent over a
 * minute of host CPU in cudaMemcpy on one case, logsumexp 16,776,705 x 2 markers (a marker in
 * every row; docs/RESULTS.md). A gap of at most a page keeps the simulator's untouched pages
 * untouched: a span only covers the pages its markers are in and those between two markers
 * less than a page apart. */
enum { kSpanBytes = 8u << 20, kGapBytes = 4096 };
typedef struct {
  unsigned char *stage;  /* kSpanBytes: the span's bytes */
  unsigned char *dst;    /* the input's first element on the device */
  size_t start, len;     /* the span: bytes [start, start + len) of the input */
} marker_span;

static int span_flush(marker_span *s) {
  const int rc = s->len ? rf_dev_upload(s->dst + s->start, s->stage, s->len) : 0;
  s->len = 0;
  return rc;
}

/* The element of esz bytes e at byte off, off at or past the previous one's. */
static int span_add(marker_span *s, size_t off, const unsigned char *e, size_t esz) {
  const size_t end = s->start + s->len;
  if (!s->len || off > end + kGapBytes || off + esz - s->start > kSpanBytes) {
    if (span_flush(s)) return 1;
    s->start = off;
  } else if (off > end) {
    memset(s->stage + s->len, 0, off - end);
  }
  memcpy(s->stage + (off - s->start), e, esz);
  if (off + esz - s->start > s->len) s->len = off + esz - s->start;
  return 0;
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
  /* A row case's rows all have the same markers, at the same columns (rf_gen_marker_list, in
   * ascending order): every marker's offset is at or past the one before. */
  const uint64_t rows = rf_op_has_rows(c->op) ? c->rows : 1, stride = rows > 1 ? c->cols : 0;
  marker_span s = {malloc(kSpanBytes), x, 0, 0};
  if (!s.stage) return "cannot allocate the sparse input's upload buffer";
  int failed = 0;
  for (uint64_t r = 0; r < rows && !failed; r++)
    for (unsigned k = 0; k < m && !failed; k++)
      failed = span_add(&s, (size_t)(r * stride + pos[k]) * esz, e[k], esz);
  failed = failed || span_flush(&s);
  free(s.stage);
  if (failed) return "cannot write the sparse input's markers";
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

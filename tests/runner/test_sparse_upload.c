/* The sparse input of a row case with markers in every row (run/sparse_input.c): the markers
 * go up in a few coalesced uploads, not one driver call each (on an H100 a logsumexp case of
 * 16,776,705 rows of 2 spent over a minute of host CPU in cudaMemcpy: docs/RESULTS.md), and
 * the buffer holds exactly what the host generator makes of the case, element for element.
 * Planted failure: one upload a marker, rows x markers calls. */
#include <stdlib.h>
#include <string.h>
#include "rf_test.h"
#include "kernels/harness/device.h"
#include "model/case.h"
#include "model/gen.h"
#include "run/sparse_input.h"

/* Every rf_dev_upload the sparse input makes (linked with --wrap=rf_dev_upload). */
static unsigned long uploads;
int __real_rf_dev_upload(void *dst, const void *src, size_t bytes);
int __wrap_rf_dev_upload(void *dst, const void *src, size_t bytes) {
  uploads++;
  return __real_rf_dev_upload(dst, src, bytes);
}

static void check_case(uint32_t rows, uint32_t cols, uint64_t seed, unsigned long max_uploads) {
  rf_case c;
  rf_case_default(&c);
  c.op = RF_OP_LOGSUMEXP;
  c.rows = rows;
  c.cols = cols;
  c.dist = RF_DIST_MARKERS;
  c.seed = seed;
  CHECK_MSG(rf_case_is_sparse(&c), "%ux%u markers: not a sparse case", rows, cols);
  batch_case bc;
  memset(&bc, 0, sizeof bc);
  bc.c = &c;
  bc.elems = (uint64_t)rows * cols;
  void *buf = NULL;
  char msg[256];
  uploads = 0;
  const char *why = rf_sparse_input_make(&buf, msg, sizeof msg, &bc);
  CHECK_MSG(why == NULL, "%ux%u: %s", rows, cols, why ? why : "");
  if (why) return;
  CHECK_MSG(uploads <= max_uploads, "%ux%u markers: %lu uploads (at most %lu)", rows, cols, uploads,
            max_uploads);
  float *got = malloc(bc.elems * sizeof *got), *want = malloc(bc.elems * sizeof *want);
  CHECK(got && want);
  if (got && want) {
    CHECK(rf_dev_download(got, bc.dev_x, bc.elems * sizeof *got) == 0);
    rf_generate(&c, want);
    size_t differ = 0, first = 0;
    for (size_t i = 0; i < bc.elems; i++)
      if (memcmp(&got[i], &want[i], sizeof got[i]) != 0 && differ++ == 0) first = i;
    CHECK_MSG(differ == 0, "%ux%u markers: %zu of %llu elements differ from the generator, the first at %zu",
              rows, cols, differ, (unsigned long long)bc.elems, first);
  }
  free(got);
  free(want);
  rf_sparse_input_free(&buf);
}

int main(void) {
  /* 2^20 + 3 rows of 2: 8 MiB of rows, a marker in each (before: over a million uploads). */
  check_case((1u << 20) + 3, 2, 7, 8);
  /* Rows wider than a page: the markers of a row go up apart (each marker span its own). */
  check_case(5, 40000, 3, 5 * 16 + 1);
  /* One row. */
  check_case(1, 1027, 11, 17);
  return rf_test_done();
}

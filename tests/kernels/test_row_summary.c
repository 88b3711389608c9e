/* The fold of per-row judge records into a summary a variant (kernels/harness/row_summary.h) keeps
 * what the host's scan of the records in row order keeps: the first row that is not a pass and its
 * verdict, and the first row of the largest ratio (above the scan's start of -1; a NaN never
 * wins) with its whole record. Records are drawn to make the order matter: few distinct
 * ratios (ties in every block and across chunks), NaN, -1, -2 and +inf ratios, bad rows
 * anywhere or nowhere. Each case is folded in one chunk and in chunks of several sizes (one
 * row, odd sizes, a block's 256, more than the rows), each variant's summary compared with
 * the reference's field for field. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "rf_test.h"
#include "model/case.h"
#include "kernels/harness/device.h"
#include "device_io.h"
#include "kernels/harness/row_summary.h"

static uint64_t rng = 0x9e3779b97f4a7c15u;
static uint32_t draw(uint32_t n) {   /* splitmix64, then a bounded draw */
  uint64_t z = (rng += 0x9e3779b97f4a7c15u);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
  return (uint32_t)((z ^ (z >> 31)) % n);
}

/* The scan dev_verdicts.c made over the records before the summary (rows_from_records). */
static rf_rs_summary reference(const rf_smd_rec *rr, uint32_t rows) {
  rf_rs_summary s;
  memset(&s, 0, sizeof s);
  s.worst_row = s.bad_row = RF_RS_NONE;
  double best = -1;
  for (uint32_t i = 0; i < rows; i++) {
    if (s.bad_row == RF_RS_NONE && rr[i].verdict != RF_SMD_PASS) {
      s.bad_row = i;
      s.bad_verdict = rr[i].verdict;
    }
    if (rr[i].ratio > best) {
      best = rr[i].ratio;
      s.worst = rr[i];
      s.worst_row = i;
    }
  }
  return s;
}

static const double ratios[] = {0.25, 0.5, 0.5, 1.0, 0.0, -1.0, -2.0, NAN, INFINITY, 0.75};
#define N_RATIOS (sizeof ratios / sizeof ratios[0])

/* A record of row i, its ratio drawn from every value (mix 0), the first three (1: ties) or
 * the three no scan takes (2: -1, -2, NaN; no worst row); other fields tell rows apart. */
static rf_smd_rec record(uint32_t i, int bad_share, int mix) {
  rf_smd_rec r;
  memset(&r, 0, sizeof r);
  r.ratio = mix == 2 ? ratios[5 + draw(3)] : ratios[draw(mix ? 3 : N_RATIOS)];
  r.err = i + 0.5;
  r.bound = 2.0 * i;
  r.want = -(double)i;
  r.got = (float)i;
  r.col = i * 7u;
  r.verdict = bad_share && draw(1000) < (uint32_t)bad_share ? 1 + draw(3) : RF_SMD_PASS;
  return r;
}

static size_t compared;

static void same(const rf_rs_summary *got, const rf_rs_summary *want, const char *how,
                 uint32_t rows, uint32_t k) {
  const int ok = got->bad_row == want->bad_row &&
                 (want->bad_row == RF_RS_NONE || got->bad_verdict == want->bad_verdict) &&
                 got->worst_row == want->worst_row &&
                 (want->worst_row == RF_RS_NONE ||
                  memcmp(&got->worst, &want->worst, sizeof want->worst) == 0);
  CHECK_MSG(ok, "%s, %u rows, variant %u: bad row %u (%u) / %u (%u), worst row %u / %u", how,
            rows, k, got->bad_row, got->bad_verdict, want->bad_row, want->bad_verdict,
            got->worst_row, want->worst_row);
  compared++;
}

/* nv variants of rows records, folded in chunks of `chunk` rows, against the reference. */
static void one_case(uint32_t nv, uint32_t rows, int bad_share, int mix) {
  const size_t n = (size_t)nv * rows;
  rf_smd_rec *h = malloc((n ? n : 1) * sizeof *h);
  for (size_t j = 0; j < n; j++) h[j] = record((uint32_t)(j % (rows ? rows : 1)), bad_share, mix);
  rf_rs_summary *want = malloc(nv * sizeof *want), *got = malloc(nv * sizeof *got);
  for (uint32_t k = 0; k < nv; k++) want[k] = reference(h + (size_t)k * rows, rows);
  static const uint32_t chunks[] = {0, 1, 7, 256, 1000};   /* 0: every row at once */
  rf_rs_summary *dsum = dev_alloc(nv * sizeof *dsum);
  for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
    const uint32_t chunk = chunks[c] && chunks[c] < rows ? chunks[c] : rows;
    if (chunks[c] == 1 && rows > 300) continue;   /* a launch a row: a few cases are enough */
    rf_smd_rec *drec = dev_alloc(((size_t)nv * chunk ? (size_t)nv * chunk : 1) * sizeof *drec);
    uint32_t r0 = 0;
    do {   /* (a case of no row: one empty first chunk) */
      const uint32_t m = rows - r0 < chunk ? rows - r0 : chunk;
      for (uint32_t k = 0; k < nv; k++)   /* the chunk as the runner's judge leaves it */
        if (m) CHECK(rf_dev_upload(drec + (size_t)k * m, h + (size_t)k * rows + r0,
                                   m * sizeof *drec) == 0);
      CHECK(rf_rs_fold_launch(drec, nv, m, r0, dsum, NULL) == 0);
      r0 += m;
    } while (r0 < rows);
    fetch(got, dsum, nv * sizeof *got);
    for (uint32_t k = 0; k < nv; k++) same(&got[k], &want[k], chunks[c] ? "chunked" : "whole", rows, k);
    rf_dev_free(drec);
  }
  rf_dev_free(dsum);
  free(h);
  free(want);
  free(got);
}

int main(void) {
  char msg[256];
  if (rf_dev_require(msg, sizeof msg)) { fprintf(stderr, "%s\n", msg); return 2; }
  rf_dev_sim_configure(RF_SCHED_IN_ORDER, 0, 32);
  static const uint32_t rows[] = {0, 1, 2, 5, 31, 255, 256, 257, 1000, 4099};
  size_t bad_seen = 0, none_seen = 0;
  for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
    for (int mix = 0; mix <= 2; mix++)
      for (int bad = 0; bad <= 20; bad += 10) {   /* none, 1 %, 2 % of the rows bad */
        one_case(3, rows[i], bad, mix);
        bad_seen += bad && rows[i] > 300;
        none_seen += !bad;
      }
  /* One bad row only, at the last row: found across every chunk. */
  rf_smd_rec *h = malloc(600 * sizeof *h);
  for (uint32_t i = 0; i < 600; i++) h[i] = record(i, 0, 1);
  h[599].verdict = RF_SMD_UNDECIDED;
  rf_smd_rec *d = dev_alloc(600 * sizeof *d);
  rf_rs_summary *ds = dev_alloc(sizeof *ds), s, want = reference(h, 600);
  CHECK(rf_dev_upload(d, h, 600 * sizeof *d) == 0);
  CHECK(rf_rs_fold_launch(d, 1, 300, 0, ds, NULL) == 0);
  CHECK(rf_rs_fold_launch(d + 300, 1, 300, 300, ds, NULL) == 0);
  fetch(&s, ds, sizeof s);
  CHECK(s.bad_row == 599 && s.bad_verdict == RF_SMD_UNDECIDED);
  same(&s, &want, "last row bad", 600, 0);
  rf_dev_free(d);
  rf_dev_free(ds);
  free(h);
  CHECK(bad_seen > 0 && none_seen > 0);
  printf("row summaries: %zu compared\n", compared);
  return rf_test_done();
}

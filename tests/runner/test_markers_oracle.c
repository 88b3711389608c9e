/* The markers distribution (model/gen_markers.h) answered from its markers alone (run/op_table.c)
 * against the plain oracle over the generated input, at sizes where both can be computed:
 * the same exact sum, facts, maximum and argmax for every size around the places the markers
 * sit, every seed tried and each element type. And the markers do what the distribution
 * promises: distinct powers of two, a unique maximum, a dropped or doubled marker changing the
 * exact sum. */
#include <stdlib.h>
#include <string.h>
#include "rf_test.h"
#include "run/runner_internal.h"
#include "model/gen.h"
#include "oracle/logsumexp.h"

static int same_answer(const rf_case *c, const oracle_answer *a, const oracle_answer *b) {
  int64_t da[RF_XSUM_WORDS], db[RF_XSUM_WORDS];   /* one representation a value (exact.h) */
  rf_xsum_digits(&a->xs, da);
  rf_xsum_digits(&b->xs, db);
  if (c->op == RF_OP_SUM)
    return memcmp(da, db, sizeof da) == 0 &&
           a->facts.abs_sum_up == b->facts.abs_sum_up &&
           a->facts.all_finite == b->facts.all_finite &&
           a->facts.any_nonzero == b->facts.any_nonzero && a->facts.min_exp == b->facts.min_exp &&
           a->facts.all_neg_zero == b->facts.all_neg_zero;
  return a->argmax_index == b->argmax_index &&
         memcmp(&a->max_value, &b->max_value, sizeof a->max_value) == 0 &&
         a->first_nan == b->first_nan;
}

static void test_against_plain_oracle(void) {
  static const uint64_t sizes[] = {0, 1, 2, 3, 31, 254, 255, 256, 257, 1023, 1024, 1025, 4097,
                                   65536, 65537};
  rf_oracle_ctx oc;
  memset(&oc, 0, sizeof oc);
  float *x = malloc(sizeof(float) * 65537);
  CHECK(x != NULL);
  if (!x) return;
  int bad = 0, total = 0;
  for (int d = 0; d < RF_DIST_COUNT; d++)
  for (size_t s = 0; rf_dist_is_sparse((rf_dist)d) && s < sizeof sizes / sizeof sizes[0]; s++)
    for (int op = 0; op < RF_OP_COUNT; op++)
      for (int t = 0; t < 3 && !rf_op_has_rows((rf_op)op); t++)
        for (uint64_t seed = 0; seed < 5; seed++) {
          rf_case c;
          rf_case_default(&c);
          c.op = (rf_op)op;
          c.n = sizes[s];
          c.dist = (rf_dist)d;
          c.dtype = (rf_dtype)t;
          c.seed = seed * 0x9E3779B97F4A7C15u;
          oracle_answer from_markers, plain;
          memset(&from_markers, 0, sizeof from_markers);
          memset(&plain, 0, sizeof plain);
          rf_compute_oracle(&oc, &c, NULL, c.n, &from_markers);   /* reads no input */
          rf_generate(&c, x);
          /* the plain oracle: the same case under a dense distribution's path */
          rf_case dense = c;
          dense.dist = RF_DIST_UNIFORM;
          rf_compute_oracle(&oc, &dense, x, c.n, &plain);
          total++;
          if (!same_answer(&c, &from_markers, &plain) && bad++ < 5)
            fprintf(stderr, "  %s %s n=%llu dtype %d seed %llu: the markers' answer differs\n",
                    rf_dist_name(c.dist), rf_op_name(c.op), (unsigned long long)c.n, t,
                    (unsigned long long)c.seed);
        }
  CHECK_MSG(bad == 0, "%d of %d cases: the markers' answer differs from the plain oracle's",
            bad, total);
  free(x);
  rf_oracle_ctx_free(&oc);
}

/* Both sparse distributions: places, magnitudes 2^0..2^(m-1) once each (signed-markers: by
 * place), signs (signed-markers: alternating by size from +2^(m-1)), the exact sum, the argmax,
 * and the argmin (signed-markers: the marker -2^(m-2) before the last; markers: the +0
 * background at the first index without a marker). */
static void test_marker_properties(void) {
  for (int sg = 0; sg < 2; sg++)
  for (uint64_t seed = 1; seed < 64; seed++) {
    rf_case c;
    rf_case_default(&c);
    c.dist = sg ? RF_DIST_SIGNED_MARKERS : RF_DIST_MARKERS;
    c.seed = seed;
    c.n = (UINT64_C(1) << 32) + 3;
    uint64_t pos[RF_GEN_MARKERS_MAX];
    float val[RF_GEN_MARKERS_MAX];
    const unsigned m = rf_gen_marker_list(&c, pos, val);
    CHECK(m == RF_GEN_MARKERS_MAX || m == RF_GEN_MARKERS_MAX - 1);   /* the seeded one may repeat */
    unsigned mask = 0, top = 0, bottom = 0;
    double want_sum = 0;
    for (unsigned k = 0; k < m; k++) {
      CHECK(k == 0 || pos[k - 1] < pos[k]);   /* sorted, distinct, inside */
      CHECK(pos[k] < c.n);
      const float mag = val[k] < 0 ? -val[k] : val[k];
      const unsigned e = (unsigned)__builtin_ctz((unsigned)mag);
      CHECK(mag == (float)(1u << e) && !(mask & (1u << e)));
      CHECK((val[k] < 0) == (sg && ((m - 1 - e) & 1)));   /* +2^(m-1), -2^(m-2), ... */
      CHECK(!sg || e == k);   /* signed-markers: sized by place (the list is sorted) */
      mask |= 1u << e;
      want_sum += val[k];
      if (val[k] > val[top]) top = k;
      if (val[k] < val[bottom]) bottom = k;
      CHECK(rf_gen_one(&c, pos[k]) == val[k]);
    }
    CHECK(mask == (1u << m) - 1);   /* 2^0 .. 2^(m-1): the sum's binary form names each one */
    /* the places index arithmetic breaks all carry a marker */
    static const uint64_t must[] = {0, (UINT64_C(1) << 31) - 1, UINT64_C(1) << 31,
                                    (UINT64_C(1) << 32) - 1, UINT64_C(1) << 32,
                                    (UINT64_C(1) << 32) + 2};
    for (size_t i = 0; i < sizeof must / sizeof must[0]; i++) {
      int found = 0;
      for (unsigned k = 0; k < m; k++) found |= pos[k] == must[i];
      CHECK_MSG(found, "no marker at %llu", (unsigned long long)must[i]);
    }
    static const uint64_t off[] = {2, 12345, (UINT64_C(1) << 31) + 1, (UINT64_C(1) << 32) - 7};
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) {
      int marker = 0;
      for (unsigned k = 0; k < m; k++) marker |= pos[k] == off[i];
      CHECK(marker || rf_gen_one(&c, off[i]) == 0.0f);   /* the background is +0 */
    }
    /* a dropped or doubled marker changes the exact sum */
    oracle_answer o;
    rf_oracle_ctx oc;
    memset(&oc, 0, sizeof oc);
    rf_compute_oracle(&oc, &c, NULL, c.n, &o);
    double sum = 0;
    for (unsigned k = 0; k < m; k++) sum += val[k];
    CHECK(sum == want_sum && (sg || sum == (double)((1u << m) - 1)));
    for (unsigned k = 0; k < m; k++) CHECK(sum - val[k] != sum && sum + val[k] != sum);
    c.op = RF_OP_ARGMAX;
    rf_compute_oracle(&oc, &c, NULL, c.n, &o);
    CHECK(o.argmax_index == (int64_t)pos[top] && o.max_value == val[top]);
    c.op = RF_OP_ARGMIN;
    rf_compute_oracle(&oc, &c, NULL, c.n, &o);
    if (sg)   /* the maximum at the last marker, the minimum at the one before: past 2^32 */
      CHECK(top == m - 1 && bottom == m - 2 && pos[bottom] > (UINT64_C(1) << 32) &&
            val[bottom] == -(float)(1u << (m - 2)) && o.argmax_index == (int64_t)pos[bottom] &&
            o.max_value == val[bottom]);
    else   /* the +0 background at the first index without a marker: 2 */
      CHECK(o.argmax_index == 2 && o.max_value == 0.0f);
  }
}

/* A logsumexp case of the markers distribution is sparse (its rows are one row repeated):
 * its input written from the markers is the generated one, row for row; the host's answer
 * from that one row is each dense row's MPFR answer; softmax and log-softmax stay dense. */
static void test_sparse_rows(void) {
  static const uint32_t shapes[][2] = {{1, 1}, {3, 5}, {4, 257}, {7, 1025}, {2, 70000}};
  rf_oracle_ctx oc;
  memset(&oc, 0, sizeof oc);
  oc.mpfr_only = 1;
  float *x = malloc(sizeof(float) * 140000), *row = malloc(sizeof(float) * 70000);
  CHECK(x && row);
  if (!x || !row) return;
  int bad = 0, total = 0;
  for (int sg = 0; sg < 2; sg++)
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
    for (int t = 0; t < 3; t++)
      for (uint64_t seed = 0; seed < 3; seed++) {
        rf_case c;
        rf_case_default(&c);
        c.op = RF_OP_LOGSUMEXP;
        c.n = 0;
        c.rows = shapes[s][0];
        c.cols = shapes[s][1];
        c.dist = sg ? RF_DIST_SIGNED_MARKERS : RF_DIST_MARKERS;
        c.dtype = (rf_dtype)t;
        c.seed = seed * 0x9E3779B97F4A7C15u;
        CHECK(rf_case_is_sparse(&c));
        rf_case dense = c;
        dense.op = RF_OP_SOFTMAX;
        CHECK(!rf_case_is_sparse(&dense));
        dense.op = RF_OP_LOGSOFTMAX;
        CHECK(!rf_case_is_sparse(&dense));
        rf_generate(&c, x);
        uint64_t pos[RF_GEN_MARKERS_MAX];
        float val[RF_GEN_MARKERS_MAX];
        const unsigned m = rf_gen_marker_list(&c, pos, val);
        int same = m >= 1;
        for (uint32_t r = 0; r < c.rows; r++) {
          rf_generate_row(&c, r, row);
          same &= memcmp(row, x + (size_t)r * c.cols, c.cols * sizeof(float)) == 0;
          for (uint32_t j = 0; j < c.cols; j++) {   /* the markers' layout, every row */
            float want = 0.0f;
            for (unsigned k = 0; k < m; k++) if (pos[k] == j) want = val[k];
            same &= memcmp(&want, &x[(size_t)r * c.cols + j], sizeof want) == 0;
          }
        }
        oracle_answer o;
        memset(&o, 0, sizeof o);
        rf_generate_row(&c, 0, row);
        rf_compute_oracle(&oc, &c, row, rf_case_elems(&c), &o);   /* the one row held */
        same &= o.lse != NULL;
        for (uint32_t r = 0; same && r < c.rows; r++) {
          rf_lse_row want;
          rf_oracle_lse_row(x + (size_t)r * c.cols, c.cols, &want, NULL);
          same &= o.lse[r].lse == want.lse && o.lse[r].m == want.m && o.row_mpfr[r];
        }
        total++;
        if (!same && bad++ < 5)
          fprintf(stderr, "  logsumexp %ux%u dtype %d seed %llu: the sparse rows differ\n",
                  (unsigned)c.rows, (unsigned)c.cols, t, (unsigned long long)c.seed);
      }
  CHECK_MSG(bad == 0, "%d of %d cases: a sparse row case's input or answer differs", bad, total);
  free(x);
  free(row);
  rf_oracle_ctx_free(&oc);
}

int main(void) {
  test_against_plain_oracle();
  test_marker_properties();
  test_sparse_rows();
  return rf_test_done();
}

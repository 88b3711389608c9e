/* Fuzz inputs decode with their grid folded to at most RF_FUZZ_MAX_GRID blocks (a 2^31-block
 * launch costs the GPU tens of seconds of empty blocks), and grids below it unchanged. The
 * cost cap (rf_variant.fuzz_max_n) leaves a slow variant out of bigger cases only. Every op
 * of every type (the 16-bit log ops too, issue 12) is judged on the device and keeps its shape
 * up to the limits: no type or op is capped by its own cost any more. The thread cap
 * (rf_limits.max_threads) folds grids and rows that ask for more GPU threads, and leaves
 * every case within it as it was. */
#include <string.h>
#include "rf_test.h"
#include "run/fuzz_select.h"

static void cost_caps(void) {
  const rf_variant *atomic = rf_variant_find("sum/atomic");
  const rf_variant *tree = rf_variant_find("sum/two-stage-wave");
  CHECK(atomic && atomic->fuzz_max_n == (1u << 16));
  CHECK(tree && tree->fuzz_max_n == 0);
  if (!atomic || !tree) return;
  rf_case c;
  rf_case_default(&c);
  c.op = RF_OP_SUM;
  c.n = 1u << 16;
  CHECK(rf_fuzz_within_cost(atomic, &c) && rf_fuzz_within_cost(tree, &c));
  c.n = (1u << 16) + 1;
  CHECK(!rf_fuzz_within_cost(atomic, &c) && rf_fuzz_within_cost(tree, &c));
  c.n = 1u << 22;
  CHECK(!rf_fuzz_within_cost(atomic, &c) && rf_fuzz_within_cost(tree, &c));
  /* The row-per-thread variants (the 3kernel ones): rows of up to 4096 elements in all; the
   * block-per-row ones at every size. */
  size_t row_per_thread = 0;
  c.op = RF_OP_SOFTMAX;
  c.n = 0;
  for (size_t i = 0; i < rf_variant_count(); i++) {
    const rf_variant *v = rf_variant_at(i);
    if (!rf_op_has_rows(v->op) || v->is_mutant) continue;
    const int serial = strstr(v->name, "3kernel") != NULL;
    row_per_thread += serial;
    c.rows = 1;
    c.cols = 4096;
    CHECK_MSG(rf_fuzz_within_cost(v, &c), "%s", v->name);
    c.rows = 2;
    CHECK_MSG(rf_fuzz_within_cost(v, &c) == !serial, "%s", v->name);
  }
  CHECK_MSG(row_per_thread >= 3, "%zu row-per-thread variants", row_per_thread);
}

/* A case through the encoder and the fuzz decode under a thread cap (0: none), as the fuzz
 * target does. */
static rf_case decoded_capped(const rf_case *c, uint64_t max_threads) {
  uint8_t buf[RF_CASE_ENCODED_MAX];
  size_t len = rf_case_encode(c, buf);
  rf_limits lim = {1u << 22, 1u << 22, 65536, max_threads};
  rf_case d;
  rf_fuzz_decode_like_target(buf, len, &lim, "", &d);
  return d;
}

static rf_case decoded(const rf_case *c) { return decoded_capped(c, 0); }

static uint32_t decoded_grid(uint32_t grid) {
  rf_case c;
  rf_case_default(&c);
  c.op = RF_OP_SUM;
  c.n = 4096;
  c.grid = grid;
  rf_case d = decoded(&c);
  CHECK(d.n == 4096);
  return d.grid;
}

/* rows x cols of a row case (n of a 1-D one) after decoding as the fuzz target does. */
static uint64_t decoded_elems(rf_op op, rf_dtype t, uint32_t rows, uint32_t cols, uint64_t n) {
  rf_case c;
  rf_case_default(&c);
  c.op = op;
  c.dtype = t;
  c.n = rf_op_has_rows(op) ? 0 : n;
  c.rows = rf_op_has_rows(op) ? rows : 0;
  c.cols = rf_op_has_rows(op) ? cols : 0;
  rf_case d = decoded(&c);
  CHECK(d.op == op && d.dtype == t);
  if (rf_op_has_rows(op)) CHECK(d.rows == rows && d.cols == cols);   /* within the limits */
  return rf_op_has_rows(op) ? (uint64_t)d.rows * d.cols : d.n;
}

static void host_path_cap(void) {
  /* Every op of every type is made and judged on the device (issue 12: 16-bit logsumexp and
   * log-softmax joined softmax and the 1-D ops), so none is capped to the 2^16 elements that
   * cases made and judged on the host had: each keeps its size. */
  for (int op = 0; op < RF_OP_COUNT; op++)
    for (int t = 0; t < RF_DTYPE_COUNT; t++) {
      if (rf_op_has_rows((rf_op)op)) {
        CHECK(decoded_elems((rf_op)op, (rf_dtype)t, 256, 4096, 0) == (1u << 20));
        CHECK(decoded_elems((rf_op)op, (rf_dtype)t, 2, 65536, 0) == (1u << 17));
      } else {
        CHECK(decoded_elems((rf_op)op, (rf_dtype)t, 0, 0, 1u << 22) == (1u << 22));
      }
    }
  CHECK(decoded_elems(RF_OP_LOGSOFTMAX, RF_DTYPE_BF16, 3, 33, 0) == 99);
}

static void thread_cap(void) {
  rf_case c;
  rf_case_default(&c);
  c.op = RF_OP_SOFTMAX;
  c.rows = 1992;   /* a campaign's costliest shape: a 256-thread block per 2-element row */
  c.cols = 2;
  c.block = 0;
  c.grid = 0;
  rf_case d = decoded_capped(&c, 1u << 16);
  CHECK(d.rows >= 1 && d.rows * (uint64_t)RF_FUZZ_DEFAULT_BLOCK <= (1u << 16) && d.cols == 2);
  CHECK(decoded_capped(&c, 0).rows == 1992);   /* no cap: as before */
  c.block = 1024;
  c.grid = 3000;
  d = decoded_capped(&c, 1u << 16);
  CHECK(d.block == 1024 && d.rows <= 64 && d.grid >= 1 && d.grid <= 64);
  c.block = 32;   /* 1992 blocks of 32 threads are within 2^16: unchanged */
  c.grid = 0;
  d = decoded_capped(&c, 1u << 16);
  CHECK(d.rows == 1992 && d.grid == 0);
  /* 1-D: a requested grid folds, the length stays */
  rf_case s;
  rf_case_default(&s);
  s.op = RF_OP_SUM;
  s.n = 4096;
  s.block = 256;
  s.grid = 515;
  d = decoded_capped(&s, 1u << 16);
  CHECK(d.n == 4096 && d.grid == 1 + 514 % 256);
  s.grid = 256;
  CHECK(decoded_capped(&s, 1u << 16).grid == 256);
}

/* A selection over several ops: every decoded case is of a selected op (one it keeps no
 * variant of would run nothing), each selected op is reached, and a case of a selected op
 * decodes as it would with no selection. */
static void selected_ops(void) {
  const char *only = "max/lds,sum,argmin/lds";
  int seen[RF_OP_COUNT] = {0};
  for (int op = 0; op < RF_OP_COUNT; op++)
    for (uint64_t seed = 1; seed <= 12; seed++) {
      rf_case c;
      rf_case_default(&c);
      c.op = (rf_op)op;
      c.seed = seed;
      c.n = rf_op_has_rows((rf_op)op) ? 0 : 1027;
      c.rows = rf_op_has_rows((rf_op)op) ? 3 : 0;
      c.cols = rf_op_has_rows((rf_op)op) ? 33 : 0;
      uint8_t buf[RF_CASE_ENCODED_MAX];
      const size_t len = rf_case_encode(&c, buf);
      rf_limits lim = {1u << 22, 1u << 22, 65536, 0};
      rf_case d, plain;
      rf_fuzz_decode_like_target(buf, len, &lim, only, &d);
      rf_fuzz_decode_like_target(buf, len, &lim, "", &plain);
      CHECK_MSG(d.op == RF_OP_MAX || d.op == RF_OP_SUM || d.op == RF_OP_ARGMIN, "%s -> %s",
                rf_op_name(c.op), rf_op_name(d.op));
      if (c.op == RF_OP_MAX || c.op == RF_OP_SUM || c.op == RF_OP_ARGMIN)
        CHECK(rf_case_equal(&d, &plain));
      seen[d.op] = 1;
    }
  CHECK(seen[RF_OP_MAX] && seen[RF_OP_SUM] && seen[RF_OP_ARGMIN]);
}

int main(void) {
  cost_caps();
  host_path_cap();
  thread_cap();
  selected_ops();
  CHECK(decoded_grid(0) == 0);
  CHECK(decoded_grid(7) == 7);
  CHECK(decoded_grid(RF_FUZZ_MAX_GRID) == RF_FUZZ_MAX_GRID);
  uint32_t big[] = {RF_FUZZ_MAX_GRID + 1, 50331647u, 1953234944u, 2147483647u};
  for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
    uint32_t g = decoded_grid(big[i]);
    CHECK_MSG(g >= 1 && g <= RF_FUZZ_MAX_GRID, "grid %u decoded to %u", big[i], g);
  }
  return rf_test_done();
}

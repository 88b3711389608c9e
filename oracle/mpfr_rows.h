/* The rows of an MPFR row oracle spread over host threads (softmax_oracle.c,
 * logsumexp_oracle.c): the caller plus threads - 1 pthreads take rows one at a time from an
 * atomic counter (their costs vary with the data), each thread with its own workspace (MPFR
 * variables reused from row to row). The output bits do not depend on the thread count: each
 * row is computed alone. Private to oracle/. */
#ifndef RF_MPFR_ROWS_H
#define RF_MPFR_ROWS_H
#include <stddef.h>
#include <stdint.h>

/* A workspace lives on its thread's stack: at most this many bytes (callers check it with a
 * static assertion). */
#define RF_MPFR_ROWS_WS_MAX 1024

typedef struct {
  uint32_t rows, cols;
  size_t ws_size;                               /* one workspace's bytes, <= RF_MPFR_ROWS_WS_MAX */
  void (*ws_init)(void *ws, uint32_t cols);
  void (*ws_clear)(void *ws);
  void (*row)(void *ws, uint32_t r, void *ctx); /* computes row r with workspace ws */
  void *ctx;
} rf_mpfr_rows;

/* Every row of j, on min(threads, rows) threads (at least 1; 1 when MPFR is not thread-safe).
 * A thread that cannot start leaves its share to the others. */
void rf_mpfr_rows_run(const rf_mpfr_rows *j, int threads);

#endif

/* The MPFR row oracles' threads (mpfr_rows.h). */
#include "oracle/mpfr_rows.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>   /* before mpfr.h */
#include <stdlib.h>
#include <mpfr.h>

typedef struct {
  const rf_mpfr_rows *j;
  atomic_uint next_row;
} shared;

static void *worker(void *arg) {
  shared *sh = arg;
  const rf_mpfr_rows *j = sh->j;
  _Alignas(max_align_t) unsigned char buf[RF_MPFR_ROWS_WS_MAX];
  void *ws = buf;
  j->ws_init(ws, j->cols);
  for (;;) {
    unsigned r = atomic_fetch_add(&sh->next_row, 1u);
    if (r >= j->rows) break;
    j->row(ws, r, j->ctx);
  }
  j->ws_clear(ws);
  return NULL;
}

static void *worker_thread(void *arg) {
  worker(arg);
  mpfr_free_cache2(MPFR_FREE_LOCAL_CACHE);       /* this thread's constant caches (log 2) */
  return NULL;
}

void rf_mpfr_rows_run(const rf_mpfr_rows *j, int threads) {
  if (j->rows == 0) return;
  if (threads < 1) threads = 1;
  if ((uint32_t)threads > j->rows) threads = (int)j->rows;
  if (!mpfr_buildopt_tls_p()) threads = 1;       /* MPFR's state would be shared */
  shared sh = {.j = j};
  atomic_init(&sh.next_row, 0u);
  pthread_t *tid = malloc((size_t)threads * sizeof *tid);
  int started = 0;
  for (int t = 1; tid && t < threads; t++)
    if (pthread_create(&tid[started], NULL, worker_thread, &sh) == 0) started++;
  worker(&sh);                                   /* the caller works too */
  for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
  free(tid);
}

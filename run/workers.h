/* A small persistent pool of threads for the runner's verdicts: rf_workers_run calls
 * fn(ctx, i, worker) for every i in [0, count) on up to `threads` threads (the caller is
 * worker 0) and returns when all are done. Threads are started once and wait in between, so
 * a case pays a wake-up, not a thread creation. */
#ifndef RF_WORKERS_H
#define RF_WORKERS_H
#include <stddef.h>

typedef struct rf_workers rf_workers;
typedef void (*rf_work_fn)(void *ctx, size_t i, unsigned worker);

/* NULL when threads < 2 or nothing could be started (callers then loop themselves). */
rf_workers *rf_workers_create(unsigned threads);
unsigned rf_workers_count(const rf_workers *w);   /* worker ids are 0 .. count-1 */
void rf_workers_run(rf_workers *w, rf_work_fn fn, void *ctx, size_t count);
void rf_workers_destroy(rf_workers *w);
#endif

/* When a batch's launches may be replayed from a recorded launch graph (GPUs): the same
 * launches (variants, launch parameters, device pointers, streams) twice in a row are
 * recorded once, and every later batch with exactly those launches is one graph launch
 * instead of one launch call per kernel and memset. A sweep over seeds of one shape, where
 * only the input's values change, then pays ~1 µs a kernel instead of ~3 µs. The decisions
 * are pure bookkeeping (tested without a device); the runner does the device calls. */
#ifndef RF_LAUNCH_GRAPH_H
#define RF_LAUNCH_GRAPH_H
#include <stddef.h>
#include "buffers.h"
#include "redfuzz/variant.h"

/* One enqueued variant run: everything its launch function reads. */
typedef struct {
  const rf_variant *variant;
  rf_launch_cfg cfg;
  const void *x, *out, *scratch;
  unsigned stream;
} rf_launch_desc;

typedef enum { RF_GRAPH_DIRECT, RF_GRAPH_RECORD, RF_GRAPH_REPLAY } rf_graph_action;

typedef struct {
  rf_host_buf last, recorded;   /* rf_launch_desc arrays */
  size_t last_n, recorded_n;
  int last_clean;               /* the last direct batch had no failure of any kind */
  int last_refused;             /* recording the last batch's launches failed: not again */
  void *graph;                  /* executable graph of `recorded` (rf_dev_graph_*), or NULL */
} rf_graph_cache;

rf_graph_action rf_graph_decide(const rf_graph_cache *g, const rf_launch_desc *d, size_t n);
/* After a direct batch: clean = no launch-time, asynchronous or guard failure. */
void rf_graph_note_direct(rf_graph_cache *g, const rf_launch_desc *d, size_t n, int clean);
/* After recording: the graph (owned from now on), or NULL when recording failed. */
void rf_graph_note_recorded(rf_graph_cache *g, const rf_launch_desc *d, size_t n, void *graph);
/* Drops the recorded graph (a replay ended in an error). */
void rf_graph_forget(rf_graph_cache *g);
void rf_graph_cache_free(rf_graph_cache *g);
#endif

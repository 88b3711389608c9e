/* launch_graph.h: the record/replay bookkeeping. */
#include <string.h>
#include "launch_graph.h"
#include "kernels/harness/device.h"

static int same_cfg(const rf_launch_cfg *a, const rf_launch_cfg *b) {
  return a->n == b->n && a->rows == b->rows && a->cols == b->cols && a->block == b->block &&
         a->grid == b->grid && a->items == b->items && a->wave == b->wave &&
         a->num_cus == b->num_cus;
}

static int same_launches(const rf_launch_desc *a, size_t na, const rf_launch_desc *b,
                         size_t nb) {
  if (na != nb) return 0;
  for (size_t i = 0; i < na; i++)
    if (a[i].variant != b[i].variant || !same_cfg(&a[i].cfg, &b[i].cfg) || a[i].x != b[i].x ||
        a[i].out != b[i].out || a[i].scratch != b[i].scratch || a[i].stream != b[i].stream)
      return 0;
  return 1;
}

static int keep_copy(rf_host_buf *buf, size_t *n_out, const rf_launch_desc *d, size_t n) {
  rf_launch_desc *p = rf_host_buf_get(buf, n * sizeof *d);
  if (!p && n) { *n_out = 0; return -1; }
  if (n) memcpy(p, d, n * sizeof *d);
  *n_out = n;
  return 0;
}

rf_graph_action rf_graph_decide(const rf_graph_cache *g, const rf_launch_desc *d, size_t n) {
  if (!n) return RF_GRAPH_DIRECT;
  if (g->graph && same_launches(g->recorded.p, g->recorded_n, d, n)) return RF_GRAPH_REPLAY;
  if (g->last_clean && !g->last_refused && same_launches(g->last.p, g->last_n, d, n))
    return RF_GRAPH_RECORD;
  return RF_GRAPH_DIRECT;
}

void rf_graph_note_direct(rf_graph_cache *g, const rf_launch_desc *d, size_t n, int clean) {
  if (!same_launches(g->last.p, g->last_n, d, n)) g->last_refused = 0;
  g->last_clean = clean && keep_copy(&g->last, &g->last_n, d, n) == 0;
}

void rf_graph_note_recorded(rf_graph_cache *g, const rf_launch_desc *d, size_t n, void *graph) {
  if (!graph) { g->last_refused = 1; return; }
  rf_graph_forget(g);
  if (keep_copy(&g->recorded, &g->recorded_n, d, n)) { rf_dev_graph_free(graph); return; }
  g->graph = graph;
}

void rf_graph_forget(rf_graph_cache *g) {
  rf_dev_graph_free(g->graph);
  g->graph = NULL;
  g->recorded_n = 0;
}

void rf_graph_cache_free(rf_graph_cache *g) {
  rf_graph_forget(g);
  rf_host_buf_free(&g->last);
  rf_host_buf_free(&g->recorded);
  memset(g, 0, sizeof *g);
}

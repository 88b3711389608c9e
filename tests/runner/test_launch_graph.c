/* launch_graph.c's decisions: a batch is recorded only when it repeats a clean direct batch
 * exactly, replayed only while it equals the recorded one, and never recorded again after
 * recording it failed. No device: the graph handles are stand-ins (the simulator's
 * rf_dev_graph_free ignores them). */
#include <string.h>
#include "rf_test.h"
#include "run/launch_graph.h"

static rf_launch_desc desc(uintptr_t out, uint32_t block) {
  rf_launch_desc d;
  memset(&d, 0, sizeof d);
  d.variant = (const rf_variant *)(uintptr_t)0x1000;
  d.cfg.n = 4096;
  d.cfg.block = block;
  d.x = (const void *)(uintptr_t)0x2000;
  d.out = (const void *)out;
  return d;
}

int main(void) {
  static int fake_graph, other_graph;
  rf_graph_cache g;
  memset(&g, 0, sizeof g);
  rf_launch_desc a[2] = {desc(0x3000, 256), desc(0x3100, 256)};
  rf_launch_desc b[2] = {desc(0x3000, 256), desc(0x3100, 128)};   /* other launch parameters */
  rf_launch_desc c[2] = {desc(0x3000, 256), desc(0x3200, 256)};   /* another output pointer */

  CHECK(rf_graph_decide(&g, a, 2) == RF_GRAPH_DIRECT);            /* first sighting */
  CHECK(rf_graph_decide(&g, a, 0) == RF_GRAPH_DIRECT);            /* nothing to launch */
  rf_graph_note_direct(&g, a, 2, 1);
  CHECK(rf_graph_decide(&g, a, 2) == RF_GRAPH_RECORD);            /* repeated, clean */
  CHECK(rf_graph_decide(&g, a, 1) == RF_GRAPH_DIRECT);            /* a prefix is not the same */
  CHECK(rf_graph_decide(&g, b, 2) == RF_GRAPH_DIRECT);
  CHECK(rf_graph_decide(&g, c, 2) == RF_GRAPH_DIRECT);

  /* A batch with a failure is not recorded when it comes again. */
  rf_graph_note_direct(&g, b, 2, 0);
  CHECK(rf_graph_decide(&g, b, 2) == RF_GRAPH_DIRECT);
  rf_graph_note_direct(&g, b, 2, 1);
  CHECK(rf_graph_decide(&g, b, 2) == RF_GRAPH_RECORD);

  /* Recording failed: those launches run directly from then on, until others come. */
  rf_graph_note_recorded(&g, b, 2, NULL);
  CHECK(rf_graph_decide(&g, b, 2) == RF_GRAPH_DIRECT);
  rf_graph_note_direct(&g, b, 2, 1);
  CHECK(rf_graph_decide(&g, b, 2) == RF_GRAPH_DIRECT);
  rf_graph_note_direct(&g, a, 2, 1);
  rf_graph_note_direct(&g, a, 2, 1);
  CHECK(rf_graph_decide(&g, a, 2) == RF_GRAPH_RECORD);

  /* Recorded: replayed while the launches are the same, whatever ran directly in between. */
  rf_graph_note_recorded(&g, a, 2, &fake_graph);
  CHECK(g.graph == &fake_graph);
  CHECK(rf_graph_decide(&g, a, 2) == RF_GRAPH_REPLAY);
  CHECK(rf_graph_decide(&g, c, 2) == RF_GRAPH_DIRECT);
  rf_graph_note_direct(&g, c, 2, 1);
  CHECK(rf_graph_decide(&g, a, 2) == RF_GRAPH_REPLAY);
  CHECK(rf_graph_decide(&g, c, 2) == RF_GRAPH_RECORD);
  /* A new recording replaces the old one. */
  rf_graph_note_recorded(&g, c, 2, &other_graph);
  CHECK(rf_graph_decide(&g, c, 2) == RF_GRAPH_REPLAY);
  CHECK(rf_graph_decide(&g, a, 2) == RF_GRAPH_DIRECT);
  /* Forgotten after a replay that ended in an error. */
  rf_graph_forget(&g);
  CHECK(g.graph == NULL);
  CHECK(rf_graph_decide(&g, c, 2) != RF_GRAPH_REPLAY);
  rf_graph_cache_free(&g);
  return rf_test_done();
}

/* The cheap checks of a run's output after its batch (output_checks.h): its launch status,
 * the guard zones of its output and scratch, and the poison left in its output. */
#include <stdio.h>
#include "output_checks.h"
#include "buffers.h"
#include "model/dtype.h"

int rf_runner_collect_run(const rf_arena *a, const pending *p, int k, rf_result *res) {
  if (p->fail[k] != RF_V_PASS) {
    res->verdict = p->fail[k];
    snprintf(res->detail, sizeof res->detail, "%s", p->fail_detail[k]);
    return -1;
  }
  const char *where = rf_arena_check(a, p->out_slot[k]);
  if (!where && p->sb && rf_arena_check(a, p->scratch_slot[k])) where = "scratch";
  if (where) {
    res->verdict = RF_V_OOB;
    snprintf(res->detail, sizeof res->detail, "guard zone overwritten: %s", where);
    return -1;
  }
  size_t first = p->v->out_dtype == RF_DTYPE_F32 || rf_op_shape_of(p->v->op).pair
                     ? rf_find_poison(rf_arena_host(a, p->out_slot[k]), p->ob)
                     : rf_find_poison_half(rf_arena_host(a, p->out_slot[k]), p->ob);
  if (first != (size_t)-1) {
    res->verdict = RF_V_UNWRITTEN;
    snprintf(res->detail, sizeof res->detail, "output word %zu still holds the poison", first);
    return -1;
  }
  return 0;
}

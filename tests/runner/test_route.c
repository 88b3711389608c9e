/* The route of a case (run/route.h) as a truth table: (backend, settings, case) -> where the
 * input and the answer are made, how the verdicts are made, whether the case batches, and its
 * first host reason. Every field takes each of its values in some row; the rows follow the
 * rules the runner kept in five places before the route (docs/RUNNER.md, Routes). */
#include <string.h>
#include "rf_test.h"
#include "run/route.h"

enum { U = -1 };   /* a setting left unset */
enum { SIM = 1, GPU = 0 };

typedef struct {
  int is_sim, oracle, gen, verdict, serial, cross;   /* settings: U, 0 or 1; cross: mpfr */
  long long min_elems;                               /* U: the default (16384) */
  rf_op op;
  uint64_t n;
  uint32_t rows, cols;
  rf_route want;
} row;

#define IH RF_INPUT_HOST
#define ID RF_INPUT_DEVICE
#define AH RF_ANSWER_HOST
#define AD RF_ANSWER_DEVICE
#define AR RF_ANSWER_DEVICE_ROWS
#define VH RF_VERDICT_HOST
#define VR RF_VERDICT_RECORDS
#define VS RF_VERDICT_ROW_SUMMARIES

static const row table[] = {
  /* 1-D cases: the simulator's defaults are off, each stage on when asked for */
  {SIM, U, U, U, 0, 0, U, RF_OP_SUM, 100, 0, 0, {IH, AH, VH, 1, RF_HOST_OFF}},
  {SIM, 1, U, U, 0, 0, U, RF_OP_SUM, 100, 0, 0, {IH, AD, VH, 1, RF_HOST_HOST_INPUT}},
  {SIM, 1, 1, 1, 0, 0, U, RF_OP_SUM, 100, 0, 0, {ID, AD, VR, 1, RF_HOST_NONE}},
  {SIM, 1, 1, 1, 1, 0, U, RF_OP_MAX, 100, 0, 0, {ID, AD, VH, 0, RF_HOST_SERIAL}},
  {SIM, 0, 1, 1, 0, 0, U, RF_OP_ARGMAX, 100, 0, 0, {IH, AH, VR, 1, RF_HOST_OFF}},
  {SIM, 1, 0, 1, 0, 0, U, RF_OP_ARGMAX, 0, 0, 0, {IH, AD, VR, 1, RF_HOST_HOST_INPUT}},
  /* min and argmin: the device oracle answers them too (ops.def) */
  {SIM, 1, 1, 1, 0, 0, U, RF_OP_MIN, 100, 0, 0, {ID, AD, VR, 1, RF_HOST_NONE}},
  {GPU, U, U, U, 0, 0, U, RF_OP_ARGMIN, 1 << 20, 0, 0, {ID, AD, VR, 1, RF_HOST_NONE}},
  /* past the device oracle's n (2^32 - 1): the answer on the host, as the input then */
  {GPU, U, U, U, 0, 0, U, RF_OP_ARGMAX, ((uint64_t)1 << 32) + 3, 0, 0, {IH, AH, VH, 1, RF_HOST_HUGE}},
  {SIM, 1, 1, 1, 0, 0, U, RF_OP_SUM, ((uint64_t)1 << 32), 0, 0, {IH, AH, VR, 1, RF_HOST_HUGE}},
  {SIM, 1, 1, 1, 0, 0, U, RF_OP_ARGMIN, ((uint64_t)1 << 32) - 1, 0, 0, {ID, AD, VR, 1, RF_HOST_NONE}},
  /* GPUs: auto from the threshold */
  {GPU, U, U, U, 0, 0, U, RF_OP_SUM, 16384, 0, 0, {ID, AD, VR, 1, RF_HOST_NONE}},
  {GPU, U, U, U, 0, 0, U, RF_OP_SUM, 16383, 0, 0, {IH, AH, VH, 1, RF_HOST_SMALL}},
  {GPU, U, 0, U, 0, 0, U, RF_OP_MAX, 1 << 20, 0, 0, {IH, AD, VR, 1, RF_HOST_HOST_INPUT}},
  {GPU, U, U, 0, 0, 0, U, RF_OP_ARGMAX, 1 << 20, 0, 0, {ID, AD, VH, 1, RF_HOST_NONE}},
  {GPU, 0, U, U, 0, 0, U, RF_OP_SUM, 1 << 20, 0, 0, {IH, AH, VH, 1, RF_HOST_OFF}},
  {GPU, 0, 1, 1, 0, 0, U, RF_OP_SUM, 1 << 20, 0, 0, {IH, AH, VR, 1, RF_HOST_OFF}},
  {GPU, U, U, U, 0, 0, 0, RF_OP_SUM, 0, 0, 0, {ID, AD, VR, 1, RF_HOST_NONE}},
  {GPU, U, U, U, 1, 0, U, RF_OP_SUM, 1 << 20, 0, 0, {ID, AD, VH, 0, RF_HOST_SERIAL}},
  {GPU, U, U, U, 0, 1, U, RF_OP_SUM, 1 << 20, 0, 0, {ID, AD, VR, 1, RF_HOST_NONE}},
  /* row ops: alone, judged on the device from the verdict setting */
  {SIM, U, U, U, 0, 0, U, RF_OP_SOFTMAX, 0, 4, 4, {IH, AH, VH, 0, RF_HOST_OFF}},
  {SIM, 1, 1, U, 0, 0, U, RF_OP_SOFTMAX, 0, 4, 4, {IH, AH, VH, 0, RF_HOST_OFF}},
  {SIM, U, U, 1, 0, 0, U, RF_OP_SOFTMAX, 0, 4, 4, {IH, AR, VS, 0, RF_HOST_HOST_INPUT}},
  {SIM, U, 1, 1, 0, 0, U, RF_OP_LOGSOFTMAX, 0, 2, 3, {ID, AR, VS, 0, RF_HOST_NONE}},
  {SIM, U, 1, 1, 1, 0, U, RF_OP_SOFTMAX, 0, 4, 4, {IH, AH, VH, 0, RF_HOST_SERIAL}},
  {GPU, U, U, U, 0, 1, U, RF_OP_LOGSUMEXP, 0, 256, 256, {IH, AH, VH, 0, RF_HOST_CROSS_CHECK}},
  {GPU, U, U, 1, 0, 0, U, RF_OP_LOGSUMEXP, 0, 4, 0, {IH, AH, VH, 0, RF_HOST_EMPTY}},
  {GPU, U, 1, 1, 0, 0, U, RF_OP_LOGSOFTMAX, 0, 4, 0, {ID, AR, VS, 0, RF_HOST_NONE}},
  {GPU, U, 1, 1, 0, 0, U, RF_OP_SOFTMAX, 0, 0, 0, {ID, AR, VS, 0, RF_HOST_NONE}},
  {GPU, U, U, U, 0, 0, U, RF_OP_SOFTMAX, 0, 4, 4, {IH, AH, VH, 0, RF_HOST_SMALL}},
  {GPU, U, U, U, 0, 0, U, RF_OP_SOFTMAX, 0, 128, 128, {ID, AR, VS, 0, RF_HOST_NONE}},
  {GPU, U, 0, U, 0, 0, U, RF_OP_LOGSUMEXP, 0, 128, 128, {IH, AR, VS, 0, RF_HOST_HOST_INPUT}},
  {GPU, U, U, 0, 0, 0, U, RF_OP_SOFTMAX, 0, 128, 128, {IH, AH, VH, 0, RF_HOST_OFF}},
};

static void set_bool(uint64_t *v, int *given, int x) {
  if (x == U) return;
  *v = (uint64_t)x;
  *given = 1;
}

int main(void) {
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    const row *t = &table[i];
    rf_settings s;
    rf_settings_default(&s);
    set_bool(&s.device_oracle, &s.device_oracle_set, t->oracle);
    set_bool(&s.device_gen, &s.device_gen_set, t->gen);
    set_bool(&s.device_verdict, &s.device_verdict_set, t->verdict);
    s.serial = (uint64_t)t->serial;
    if (t->cross) s.softmax_oracle = RF_ORACLE_MPFR;
    if (t->min_elems != U) s.device_min_elems = (uint64_t)t->min_elems;
    rf_case c;
    memset(&c, 0, sizeof c);
    c.op = t->op;
    c.n = t->n;
    c.rows = t->rows;
    c.cols = t->cols;
    const rf_route_policy pol = rf_route_policy_make(t->is_sim, &s);
    const rf_route got = rf_route_decide(&pol, &c);
    CHECK_MSG(got.input == t->want.input, "row %zu: input %d, want %d", i, got.input, t->want.input);
    CHECK_MSG(got.answer == t->want.answer, "row %zu: answer %d, want %d", i, got.answer,
              t->want.answer);
    CHECK_MSG(got.verdict == t->want.verdict, "row %zu: verdict %d, want %d", i, got.verdict,
              t->want.verdict);
    CHECK_MSG(got.batchable == t->want.batchable, "row %zu: batchable %d, want %d", i,
              got.batchable, t->want.batchable);
    CHECK_MSG(got.host_reason == t->want.host_reason, "row %zu: reason %s, want %s", i,
              rf_host_reason_name(got.host_reason), rf_host_reason_name(t->want.host_reason));
  }
  /* rf_runner_set_serial changes the policy's serial alone: the same case stops batching. */
  rf_settings s;
  rf_settings_default(&s);
  rf_route_policy pol = rf_route_policy_make(SIM, &s);
  rf_case c;
  memset(&c, 0, sizeof c);
  c.op = RF_OP_SUM;
  c.n = 10;
  CHECK(rf_route_decide(&pol, &c).batchable);
  pol.serial = 1;
  CHECK(!rf_route_decide(&pol, &c).batchable);
  /* A sparse distribution's 1-D case (markers): its own zeroed input, answered on the host
   * from the markers, alone, whatever the device settings; a row op keeps its route. */
  for (int sim = 0; sim < 2; sim++)
    for (int on = 0; on < 2; on++) {
      rf_settings_default(&s);
      s.device_oracle = s.device_gen = s.device_verdict = (uint64_t)on;
      s.device_oracle_set = s.device_gen_set = s.device_verdict_set = 1;
      pol = rf_route_policy_make(sim, &s);
      c.op = RF_OP_ARGMAX;
      c.n = (UINT64_C(1) << 32) + 3;
      c.dist = RF_DIST_MARKERS;
      const rf_route r = rf_route_decide(&pol, &c);
      CHECK(r.input == RF_INPUT_SPARSE && r.answer == RF_ANSWER_HOST &&
            r.verdict == RF_VERDICT_HOST && !r.batchable);
      c.dist = RF_DIST_ONES;
      CHECK(rf_route_decide(&pol, &c).input != RF_INPUT_SPARSE);
    }
  c.op = RF_OP_SOFTMAX;
  c.n = 0;
  c.rows = c.cols = 4;
  c.dist = RF_DIST_MARKERS;
  CHECK(rf_route_decide(&pol, &c).input != RF_INPUT_SPARSE);
  /* logsumexp on markers: sparse past the backend's dense shapes only (within them its rows
   * go the dense way, one upload for the whole input); softmax never */
  for (int sim = 0; sim < 2; sim++) {
    rf_settings_default(&s);
    pol = rf_route_policy_make(sim, &s);
    c.op = RF_OP_LOGSUMEXP;
    c.rows = c.cols = 4;
    CHECK(rf_route_decide(&pol, &c).input != RF_INPUT_SPARSE);
    c.rows = 2049;
    c.cols = UINT32_C(1) << 20;
    const rf_route r = rf_route_decide(&pol, &c);
    CHECK(r.input == RF_INPUT_SPARSE && r.answer == RF_ANSWER_HOST &&
          r.verdict == RF_VERDICT_HOST && !r.batchable);
    c.rows = 3;
    c.cols = pol.dense.max_cols + 1;   /* a row longer than the dense ones */
    CHECK(rf_route_decide(&pol, &c).input == RF_INPUT_SPARSE);
    c.op = RF_OP_SOFTMAX;
    CHECK(rf_route_decide(&pol, &c).input != RF_INPUT_SPARSE);
    c.dist = RF_DIST_ONES;
    c.op = RF_OP_LOGSUMEXP;
    CHECK(rf_route_decide(&pol, &c).input != RF_INPUT_SPARSE);
    c.dist = RF_DIST_MARKERS;
  }
  /* A batch's verdict: records only when every case has them. */
  CHECK(rf_route_join(RF_VERDICT_RECORDS, RF_VERDICT_RECORDS) == RF_VERDICT_RECORDS);
  CHECK(rf_route_join(RF_VERDICT_RECORDS, RF_VERDICT_HOST) == RF_VERDICT_HOST);
  CHECK(rf_route_join(RF_VERDICT_HOST, RF_VERDICT_RECORDS) == RF_VERDICT_HOST);
  CHECK(rf_route_join(RF_VERDICT_ROW_SUMMARIES, RF_VERDICT_ROW_SUMMARIES) == RF_VERDICT_ROW_SUMMARIES);
  return rf_test_done();
}

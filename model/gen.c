/* Input generators (docs/CASE_FORMAT.md says what each distribution is for). Every
 * distribution is an element-wise pure function in gen_elem.h, shared with the device
 * generator (kernels/harness/gen_device.hip), so host and device give identical bits. */
#include "gen.h"

#include "gen_elem.h"

/* gen_elem.h numbers the distributions from the same table as case.h. */
_Static_assert((int)RF_GEN_COUNT == (int)RF_DIST_COUNT, "gen_elem.h and case.h disagree");

/* SplitMix64: Steele, Lea, Flood, "Fast splittable pseudorandom number generators",
 * OOPSLA 2014: the state advances by the odd constant gamma = 0x9E3779B97F4A7C15. */
uint64_t rf_splitmix64(uint64_t *state) { return rf_gen_mix(*state += RF_GEN_GAMMA); }

void rf_gen_params_of(const rf_case *c, rf_gen_params *p) {
  uint64_t total = rf_case_elems(c);
  int softmax = rf_op_has_rows(c->op);
  /* rows of len elements: softmax (or logsumexp, logsoftmax) rows, or one row for the 1-D ops */
  *p = rf_gen_params_make(c->seed, (uint32_t)c->dist, (uint32_t)softmax,
                          softmax ? c->cols : total, total);
  p->dtype = (uint32_t)c->dtype;
}

float rf_gen_one(const rf_case *c, uint64_t i) {
  rf_gen_params p;
  rf_gen_params_of(c, &p);
  return rf_gen_elem(&p, i);
}

unsigned rf_gen_marker_list(const rf_case *c, uint64_t *pos, float *val) {
  if (!rf_case_is_sparse(c)) return 0;
  rf_gen_params p;
  rf_gen_params_of(c, &p);
  const unsigned m =
      p.total ? rf_gen_markers(p.key, p.len, p.dist == RF_GEN_SIGNED_MARKERS, pos, val) : 0;
  for (unsigned i = 1; i < m; i++)   /* insertion sort: at most 16 */
    for (unsigned j = i; j > 0 && pos[j - 1] > pos[j]; j--) {
      const uint64_t tp = pos[j]; pos[j] = pos[j - 1]; pos[j - 1] = tp;
      const float tv = val[j]; val[j] = val[j - 1]; val[j - 1] = tv;
    }
  return m;
}

/* Row by row: the row context once per row, then every element of the row; the same bits as
 * rf_gen_elem(p, i) for each i (the device path), only cheaper. */
static void generate_row(const rf_gen_params *p, uint64_t r, float *row) {
  const rf_gen_row q = rf_gen_row_of(p, r);
  for (uint64_t j = 0; j < p->len; j++) row[j] = rf_gen_elem_in_row(p, &q, r * p->len + j, j);
}

void rf_generate(const rf_case *c, float *out) {
  rf_gen_params p;
  rf_gen_params_of(c, &p);
  if (!p.total) return;
  for (uint64_t r = 0; r < p.total / p.len; r++) generate_row(&p, r, out + r * p.len);
}

void rf_generate_row(const rf_case *c, uint64_t r, float *out) {
  rf_gen_params p;
  rf_gen_params_of(c, &p);
  if (p.total) generate_row(&p, r, out);
}

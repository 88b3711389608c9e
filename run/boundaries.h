/* Derived boundaries: the cases where a variant's own launch logic changes, found by probing
 * its configure(), plan() and scratch_bytes() on the host (no device, no launch) over the
 * size (n, or rows and cols), block, grid and items. docs/BOUNDARIES.md has the rules; the
 * sweep runs the cases (cli/cli_sweep_derived.c) and the fuzz target's boundary class aims
 * at them (run/fuzz_select.c).
 *
 * Probing is bounded (binary searches over quantities that grow with the size, at most
 * RF_BOUNDARY_MAX_PROBES calls of configure a variant and wave) and deterministic (the same
 * variant and environment give the same cases in the same order). It trusts nothing the
 * variant returns beyond what the runner does: a request the variant changes (asked for block
 * 96, configured 128) is not "accepted", a plan that breaks the plan rules is a refusal. */
#ifndef RF_BOUNDARIES_H
#define RF_BOUNDARIES_H
#include <stddef.h>
#include <stdint.h>
#include "model/case.h"
#include "redfuzz/variant.h"

typedef enum {
#define RF_BOUNDARY_KIND(id, name, meaning) RF_BK_##id,
#include "boundary_kinds.def"
#undef RF_BOUNDARY_KIND
  RF_BK_COUNT
} rf_boundary_kind;

/* "block-npot", ...; NULL out of range. */
const char *rf_boundary_kind_name(rf_boundary_kind k);
const char *rf_boundary_kind_meaning(rf_boundary_kind k);

/* Where the cases will run. */
typedef struct {
  uint32_t wave;          /* the case's wave size (the simulator's, or the device's) */
  uint32_t num_cus;       /* the device's compute units (configure reads them) */
  rf_limits lim;          /* the backend's dense limits: max_n, max_elems, max_cols */
  uint64_t max_threads;   /* a case whose launch has more GPU threads (grid x block) is left
                             out (0: none): the simulator's cost (cli/cli_sweep_derived.c) */
} rf_boundary_env;

/* One derived case: the size and the launch requests a case carries (0: the variant's
 * default, as in a case), what it is and why it was chosen. */
#define RF_BOUNDARY_REASON 200
typedef struct {
  uint32_t kinds;         /* bit k: rf_boundary_kind k (one case can be several) */
  uint64_t n;             /* 1-D ops */
  uint32_t rows, cols;    /* row ops */
  uint32_t block, grid, items;
  uint32_t threads_block, threads_grid;   /* the launch the variant configured (0: refused) */
  unsigned sparse : 1;    /* past the dense limits: runs on the sparse distributions only */
  unsigned huge : 1;      /* 2^31 - 1 elements or more: minutes on the simulator (sweep --huge) */
  unsigned refused : 1;   /* outside what the variant accepts: it must answer unsupported */
  char reason[RF_BOUNDARY_REASON];
} rf_boundary;

/* The most cases one variant yields for one wave, and the most configure() calls it may
 * take to find them. */
#define RF_BOUNDARY_MAX 48
#define RF_BOUNDARY_MAX_PROBES 6000u

typedef struct {
  size_t count;           /* cases in out[] */
  unsigned probes;        /* configure() calls made */
  int capped;             /* 1: the probe budget ran out (the cases found so far are kept) */
  unsigned over_cost;     /* cases left out: more GPU threads than env->max_threads */
  unsigned dropped;       /* cases left out: past the cap given to rf_boundaries_derive */
  unsigned past_limits;   /* cases left out: a case the backend's limits do not hold (softmax
                             past the dense sizes, which has no sparse input) */
  char note[160];         /* "" or why no case was derived ("refuses its default launch at
                             every probed size") */
} rf_boundary_stats;

/* Probes v under env and writes at most cap cases to out, in a fixed order (blocks, grid
 * saturation, idle grids, plan levels, strategy changes, index widths), equal cases merged
 * (their kinds and reasons joined). Returns the count. A variant whose op has rows is probed
 * over rows and cols, else over n. */
size_t rf_boundaries_derive(const rf_variant *v, const rf_boundary_env *env, rf_boundary *out,
                            size_t cap, rf_boundary_stats *st);

/* The boundary's size and launch requests set on c (op, dtype and the other fields are the
 * caller's): n or rows and cols, block, grid, items. */
void rf_boundary_apply(const rf_boundary *b, rf_case *c);

/* The dense distributions a sweep runs a derived case of op on, best first: one whose exact
 * answer changes with a dropped or doubled element (ones, bound 0; sorted for max and argmax,
 * whose maximum is then the last element), a random one, and one more (alternating; negative,
 * where a 0 start or padding wins a max). Returns the count (<= max, at most 3). */
size_t rf_boundary_dists(rf_op op, rf_dist *out, size_t max);
#endif

/* The sweep's derived cases (docs/BOUNDARIES.md): each selected variant's own boundaries
 * (run/boundaries.h), made into cases that name it, numbered after the sweep's cross product. */
#ifndef RF_CLI_SWEEP_DERIVED_H
#define RF_CLI_SWEEP_DERIVED_H
#include <stddef.h>
#include <stdint.h>
#include "model/case.h"
#include "redfuzz/variant.h"
#include "run/boundaries.h"
#include "kernels/harness/device.h"

/* What the sweep's flags ask of the derived cases. */
typedef struct {
  const int *want;                        /* want[op]: --op (or the --variant's op) */
  const uint64_t *dtypes; size_t n_dtypes;   /* --dtype */
  const uint64_t *waves; size_t n_waves;     /* --wave (the simulator's; GPUs: the device's) */
  const uint64_t *dists; size_t n_dists;     /* --dist */
  int dists_given;
  const uint64_t *misaligns; size_t n_misaligns;   /* --misalign, when given */
  uint64_t seed;                          /* the first --seed */
  rf_sched sched;                         /* the first --schedule */
  const char *variant;                    /* --variant, or "" */
  int huge;                               /* --huge: cases of 2^31 - 1 elements and more too */
  int (*keeps)(const rf_variant *v, void *ctx);   /* the sweep's selection (mutants, --skip) */
  void *keeps_ctx;
  rf_limits lim;                          /* the backend's */
} rf_sweep_derived;

/* The device facts the probing needs (its wave on GPUs, its CUs), and the simulator's cap on
 * a derived case's threads. known: the runner's device; NULL asks the device (sweep
 * --list-cases, which has no runner), and sets assumed when there is none (a GPU build on a
 * machine without its GPU: 64 CUs, wave 32, as `redfuzz list` assumes). A sweep's parent
 * process never asks: on a GPU its workers own the device (a CUDA context does not survive
 * fork). */
typedef struct {
  int is_sim;
  uint32_t wave, num_cus;
  int assumed;
  uint64_t max_threads;
} rf_sweep_derived_dev;
void rf_sweep_derived_device(rf_sweep_derived_dev *dev, const rf_device_info *known);

/* Calls head once per variant and wave (its stats: the probes, the cases left out) and fn for
 * every derived case in order, numbered from first. Stops when a call returns nonzero:
 * returns that (1: stop asked), or -1 when a case does not validate (a bug, said on stderr).
 * *count: the numbers given. */
typedef int (*rf_sweep_derived_fn)(void *ctx, const rf_case *c, long idx, const rf_boundary *b);
typedef int (*rf_sweep_derived_head_fn)(void *ctx, const rf_variant *v, uint32_t wave,
                                        const rf_boundary_stats *st);
int rf_sweep_derived_cases(const rf_sweep_derived *d, const rf_sweep_derived_dev *dev,
                           rf_sweep_derived_fn fn, rf_sweep_derived_head_fn head, void *ctx,
                           long first, long *count);

/* The kinds of b as "block-npot,plan-level" into buf. */
const char *rf_sweep_derived_kinds(const rf_boundary *b, char *buf, size_t len);
#endif

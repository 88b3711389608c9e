/* The sweep's derived cases (cli_sweep_derived.h): for each selected variant and wave, its
 * boundaries (run/boundaries.c), each on a few distributions, the first seed and schedule. */
#include <stdio.h>
#include <string.h>
#include "cli.h"
#include "cli_sweep_derived.h"
#include "run/backend.h"

/* On the simulator a derived case of more GPU threads than this is left out (listed in the
 * variant's head line): one simulated thread costs about a microsecond a barrier, and the
 * default sweep is the first command a user runs and one CI runs many times. 2^19 threads
 * keep a past-saturation case of sum/two-pass (1024 blocks of 256) and the 2^16 + 1 sizes of
 * the one-element-per-thread variants; a row variant's 65,535-block grid (16.7 M threads) is
 * left to the GPUs, and to the cross product's 65537 x 2 at one wave a block. A case past
 * REDFUZZ_SIM_MAX_THREADS would be refused by the runner anyway. */
#define DERIVED_SIM_MAX_THREADS (UINT64_C(1) << 19)
/* Sizes from 2^31 - 1 on run on the simulator as sweep --huge's own do: grid 1 x block 32
 * (cli_sweep.c, HUGE_SIM_GRID). */
#define DERIVED_HUGE_SIM_GRID 1u
#define DERIVED_HUGE_SIM_BLOCK 32u

void rf_sweep_derived_device(rf_sweep_derived_dev *dev, const rf_device_info *known) {
  memset(dev, 0, sizeof *dev);
  dev->is_sim = rf_backend.is_sim;
  char msg[256];
  rf_device_info d;
  if (known) d = *known;
  if ((known || (!rf_dev_require(msg, sizeof msg) && !rf_dev_info(&d))) && d.num_cus && d.wave) {
    dev->num_cus = d.num_cus;
    dev->wave = d.wave;
  } else {
    dev->num_cus = 64;
    dev->wave = 32;
    dev->assumed = 1;
  }
  if (dev->is_sim) {
    const uint64_t cap = rf_cli_settings.sim_max_threads;
    dev->max_threads = cap && cap < DERIVED_SIM_MAX_THREADS ? cap : DERIVED_SIM_MAX_THREADS;
  }
}

const char *rf_sweep_derived_kinds(const rf_boundary *b, char *buf, size_t len) {
  size_t o = 0;
  buf[0] = '\0';
  for (int k = 0; k < RF_BK_COUNT && o < len; k++)
    if (b->kinds & (1u << k))
      o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "," : "",
                            rf_boundary_kind_name((rf_boundary_kind)k));
  return buf;
}

static int in_list(const uint64_t *list, size_t n, uint64_t v) {
  for (size_t i = 0; i < n; i++)
    if (list[i] == v) return 1;
  return 0;
}

/* A derived case of more elements than this takes the op's first two distributions only (the
 * one that catches a dropped element exactly and the random one): the simulator's time goes
 * to the few big cases (2^16 + 1 elements, a saturated grid). */
#define DERIVED_BIG_ELEMS (UINT64_C(1) << 14)

/* The distributions a derived case runs on: a case past the dense limits (or of 2^31 - 1
 * elements and more) on the sparse ones, those of --dist when given; a refusal on one (nothing
 * launches); every other on the op's few (rf_boundary_dists; two past DERIVED_BIG_ELEMS, one
 * for a case that is only an index width: a wrapped index or count drops, doubles or misplaces
 * elements, which the first catches exactly), those --dist lists when given, or --dist's first
 * dense one when it lists none of them. */
static size_t case_dists(const rf_sweep_derived *d, rf_op op, const rf_boundary *b,
                         rf_dist *out) {
  size_t n = 0;
  if (b->sparse || b->huge) {
    for (int k = 0; k < RF_DIST_COUNT; k++)
      if (rf_dist_is_sparse((rf_dist)k) && (!d->dists_given || in_list(d->dists, d->n_dists, k)))
        out[n++] = (rf_dist)k;
    return b->refused && n ? 1 : n;
  }
  rf_dist mine[3];
  const uint64_t elems = rf_op_has_rows(op) ? (uint64_t)b->rows * b->cols : b->n;
  const size_t want = b->kinds == (1u << RF_BK_INDEX_WIDTH) ? 1
                    : elems > DERIVED_BIG_ELEMS ? 2 : 3;
  const size_t m = rf_boundary_dists(op, mine, want);
  for (size_t i = 0; i < m; i++)
    if (!d->dists_given || in_list(d->dists, d->n_dists, mine[i])) out[n++] = mine[i];
  for (size_t i = 0; !n && i < d->n_dists; i++)
    if (!rf_dist_is_sparse((rf_dist)d->dists[i])) out[n++] = (rf_dist)d->dists[i];
  return b->refused && n ? 1 : n;
}

int rf_sweep_derived_cases(const rf_sweep_derived *d, const rf_sweep_derived_dev *dev,
                           rf_sweep_derived_fn fn, rf_sweep_derived_head_fn head, void *ctx,
                           long first, long *count) {
  long idx = first;
  int rc = 0;
  /* GPUs run at the device's wave whatever the case says: one derivation, at it */
  const uint64_t dev_wave = dev->wave;
  const uint64_t *waves = dev->is_sim ? d->waves : &dev_wave;
  const size_t n_waves = dev->is_sim ? d->n_waves : 1;
  static rf_boundary bs[RF_BOUNDARY_MAX];
  for (size_t vi = 0; vi < rf_variant_count() && !rc; vi++) {
    const rf_variant *v = rf_variant_at(vi);
    if (!d->want[v->op] || !in_list(d->dtypes, d->n_dtypes, v->in_dtype)) continue;
    if (d->variant[0] ? strcmp(d->variant, v->name) != 0 : !d->keeps(v, d->keeps_ctx)) continue;
    for (size_t wi = 0; wi < n_waves && !rc; wi++) {
      rf_boundary_env env = {.wave = (uint32_t)waves[wi], .num_cus = dev->num_cus,
                             .lim = d->lim, .max_threads = dev->max_threads};
      rf_boundary_stats st;
      const size_t nb = rf_boundaries_derive(v, &env, bs, RF_BOUNDARY_MAX, &st);
      if (head && (rc = head(ctx, v, (uint32_t)waves[wi], &st)) != 0) break;
      for (size_t i = 0; i < nb && !rc; i++) {
        const rf_boundary *b = &bs[i];
        if (b->huge && !d->huge) continue;   /* sweep --huge runs them */
        rf_dist dists[RF_DIST_COUNT];
        const size_t nd = case_dists(d, v->op, b, dists);
        for (size_t k = 0; k < nd && !rc; k++) {
          rf_case c;
          rf_case_default(&c);
          c.op = v->op;
          c.dtype = v->in_dtype;
          snprintf(c.variant, sizeof c.variant, "%s", v->name);
          c.wave = (uint32_t)waves[wi];
          if (!dev->is_sim) c.wave = (uint32_t)(d->n_waves ? d->waves[0] : 32);
          c.sched = d->sched;
          c.seed = d->seed;
          c.dist = dists[k];
          rf_boundary_apply(b, &c);
          if (b->huge && dev->is_sim) {
            c.grid = DERIVED_HUGE_SIM_GRID;
            c.block = DERIVED_HUGE_SIM_BLOCK;
          }
          /* --misalign: its first value the type takes; else each in turn, as the cross
           * product's cases take them */
          const uint32_t max_mis = rf_case_misalign_max(c.dtype);
          c.misalign = (uint32_t)((unsigned long)idx % (max_mis + 1));
          if (d->n_misaligns) {
            size_t m = 0;
            while (m < d->n_misaligns && d->misaligns[m] > max_mis) m++;
            if (m == d->n_misaligns) continue;
            c.misalign = (uint32_t)d->misaligns[m];
          }
          char err[512];
          if (rf_case_validate(&c, &d->lim, err, sizeof err)) {
            fprintf(stderr, "redfuzz sweep: internal error, a derived case of %s does not "
                    "validate: %s\n", v->name, err);
            rc = -1;
            break;
          }
          rc = fn(ctx, &c, idx++, b);
        }
      }
    }
  }
  *count = idx - first;
  return rc;
}

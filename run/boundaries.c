/* Derived boundaries (boundaries.h, docs/BOUNDARIES.md): a variant's configure() and plan()
 * probed on the host, the cases where its launch changes written out with their reasons. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include "run/boundaries.h"
#include "run/case_outputs.h"
#include "run/contain.h"
#include "run/launch_prep.h"

static const char *const kind_names[RF_BK_COUNT] = {
#define RF_BOUNDARY_KIND(id, name, meaning) name,
#include "boundary_kinds.def"
#undef RF_BOUNDARY_KIND
};
static const char *const kind_meanings[RF_BK_COUNT] = {
#define RF_BOUNDARY_KIND(id, name, meaning) meaning,
#include "boundary_kinds.def"
#undef RF_BOUNDARY_KIND
};

const char *rf_boundary_kind_name(rf_boundary_kind k) {
  return (unsigned)k < RF_BK_COUNT ? kind_names[k] : NULL;
}
const char *rf_boundary_kind_meaning(rf_boundary_kind k) {
  return (unsigned)k < RF_BK_COUNT ? kind_meanings[k] : NULL;
}

/* ---- probing ------------------------------------------------------------------------------ */

/* A point of the search space: the size and the launch requests (0: the variant's default). */
typedef struct {
  uint64_t n;
  uint32_t rows, cols, block, grid, items;
} point;

typedef struct {
  const rf_variant *v;
  const rf_boundary_env *env;
  int rows;            /* a row op: probed over rows and cols */
  unsigned probes;
  int capped;
} prober;

/* What one probe saw. ok: the variant accepts the point as asked (configure says NULL, keeps
 * the requested block and grid, gives a block and a grid, and a plan the rules accept, and no
 * more scratch than the runner gives). Otherwise `no` says how: */
enum {
  NO_NONE,
  NO_REFUSED,   /* configure said why not, or the runner's own rules refuse it (a 32-bit argmax
                   index past 2^31 - 1, more scratch than it gives): `unsupported` */
  NO_CHANGED,   /* configure replaced a requested block or grid: it runs, at another launch */
  NO_BROKEN     /* a block or grid of 0, or a plan that breaks the plan rules: the runner
                   says launch-error, a finding */
};
typedef struct {
  int ok, no;
  rf_launch_cfg cfg;
  rf_plan plan;
} probe_res;

static probe_res probe(prober *p, point q) {
  probe_res r;
  memset(&r, 0, sizeof r);
  r.no = NO_REFUSED;
  if (p->probes >= RF_BOUNDARY_MAX_PROBES) {
    p->capped = 1;
    return r;
  }
  p->probes++;
  const rf_variant *v = p->v;
  rf_launch_cfg cfg = {.n = q.n, .rows = q.rows, .cols = q.cols, .block = q.block,
                       .grid = q.grid, .items = q.items, .wave = p->env->wave,
                       .num_cus = p->env->num_cus};
  /* the runner's own refusal of a 32-bit argmax index past 2^31 - 1 (run/launch_prep.c) */
  if (rf_op_shape_of(v->op).pair && q.n > rf_argmax_max_n(v->index_bits)) return r;
  /* Through run/contain.h like every call of a variant's code: a plugin that ends or crashes
   * in configure() while probed is a point with no launch here, and its verdict comes from
   * the sweep's own run of the case (a `crash` naming the function), not a dead process. */
  const char *why = NULL;
  char ended[256];
  if (rf_contained_configure(v, &cfg, &why, ended, sizeof ended)) {
    r.no = NO_BROKEN;
    return r;
  }
  if (why) return r;
  r.no = NO_CHANGED;
  if ((q.block && cfg.block != q.block) || (q.grid && cfg.grid != q.grid)) return r;
  r.no = NO_BROKEN;
  if (!cfg.block || !cfg.grid) return r;
  size_t bytes = 0;
  if (rf_contained_scratch_bytes(v, &cfg, &bytes, ended, sizeof ended)) return r;
  r.no = NO_REFUSED;
  if (bytes > RF_LAUNCH_MAX_SCRATCH_BYTES) return r;
  r.no = NO_BROKEN;
  rf_plan plan;
  if (rf_contained_plan(v, &cfg, &plan, ended, sizeof ended)) return r;
  char bad[160];
  if (rf_plan_check(&plan, bad, sizeof bad)) return r;
  r.ok = 1;
  r.no = NO_NONE;
  r.cfg = cfg;
  r.plan = plan;
  return r;
}

/* The axis a search moves along, from a base point. */
typedef enum { AX_N, AX_ROWS, AX_COLS, AX_GRID } axis;

static point at(point base, axis a, uint64_t x) {
  switch (a) {
  case AX_N: base.n = x; break;
  case AX_ROWS: base.rows = (uint32_t)x; break;
  case AX_COLS: base.cols = (uint32_t)x; break;
  case AX_GRID: base.grid = (uint32_t)x; break;
  }
  return base;
}

/* A predicate over one axis. */
typedef int (*pred_fn)(prober *p, point q, void *ctx);

/* The smallest x in (lo, hi] with pred true, given pred(lo) false and pred(hi) true: a point
 * where the predicate turns (the first, when it turns once). About log2(hi - lo) probes. */
static uint64_t bisect(prober *p, point base, axis a, uint64_t lo, uint64_t hi, pred_fn f,
                       void *ctx) {
  while (hi - lo > 1 && !p->capped) {
    const uint64_t mid = lo + (hi - lo) / 2;
    if (f(p, at(base, a, mid), ctx)) hi = mid;
    else lo = mid;
  }
  return hi;
}

static int accepted(prober *p, point q, void *ctx) {
  (void)ctx;
  return probe(p, q).ok;
}
static int refused(prober *p, point q, void *ctx) { return !accepted(p, q, ctx); }

/* The largest x in [lo, hi] the variant accepts, given it accepts lo (accepting small sizes
 * and refusing large ones: where it is not so, one refusal point of the range). */
static uint64_t largest_accepted(prober *p, point base, axis a, uint64_t lo, uint64_t hi) {
  if (accepted(p, at(base, a, hi), NULL)) return hi;
  return bisect(p, base, a, lo, hi, refused, NULL) - 1;
}

/* ---- the case list ------------------------------------------------------------------------ */

typedef struct {
  rf_boundary *out;
  size_t cap, count;
  rf_boundary_stats *st;
  prober *p;
} list;

static int past_dense(const prober *p, const point *q) {
  const rf_limits *l = &p->env->lim;
  if (!p->rows) return q->n > l->max_n;
  return q->cols > l->max_cols || (uint64_t)q->rows * q->cols > l->max_elems;
}

static uint64_t elems_of(const prober *p, const point *q) {
  return p->rows ? (uint64_t)q->rows * q->cols : q->n;
}

/* Sizes from here take minutes on the simulator: `sweep --huge` runs them. */
#define HUGE_ELEMS ((UINT64_C(1) << 31) - 1)

/* Adds the case at q of kind k with its reason (printf), unless it cannot run anywhere: past
 * the dense limits where no sparse input exists (softmax and log-softmax write every element),
 * past the model's sizes, or past env->max_threads (counted in st->over_cost). An equal case
 * (the same size and requests) takes the kind and the reason on. r: the probe at q (r->ok 0:
 * a refusal the case expects). */
static void add(list *L, rf_boundary_kind k, point q, const probe_res *r, const char *fmt, ...) {
  prober *p = L->p;
  const uint64_t elems = elems_of(p, &q);
  const int sparse = past_dense(p, &q);
  /* a case the model holds on this backend (a sparse one on a sparse distribution) */
  rf_case c;
  rf_case_default(&c);
  c.op = p->v->op;
  c.dtype = p->v->in_dtype;
  c.dist = sparse ? RF_DIST_MARKERS : RF_DIST_ONES;
  c.n = p->rows ? 0 : q.n;
  c.rows = q.rows;
  c.cols = q.cols;
  c.block = q.block;
  c.grid = q.grid;
  c.items = q.items;
  char err[256];
  if (rf_case_validate(&c, &p->env->lim, err, sizeof err)) {
    L->st->past_limits++;
    return;
  }
  const int huge = elems >= HUGE_ELEMS;
  const uint64_t threads = r->ok ? (uint64_t)r->cfg.grid * r->cfg.block : 0;
  if (!huge && p->env->max_threads && threads > p->env->max_threads) {
    L->st->over_cost++;
    return;
  }
  char reason[RF_BOUNDARY_REASON];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(reason, sizeof reason, fmt, ap);
  va_end(ap);
  for (size_t i = 0; i < L->count; i++) {
    rf_boundary *b = &L->out[i];
    if (b->n != q.n || b->rows != q.rows || b->cols != q.cols || b->block != q.block ||
        b->grid != q.grid || b->items != q.items)
      continue;
    b->kinds |= 1u << k;
    if (!strstr(b->reason, reason)) {
      const size_t len = strlen(b->reason);
      snprintf(b->reason + len, sizeof b->reason - len, "; %s", reason);
    }
    return;
  }
  if (L->count == L->cap) {
    L->st->dropped++;
    return;
  }
  rf_boundary *b = &L->out[L->count++];
  memset(b, 0, sizeof *b);
  b->kinds = 1u << k;
  b->n = q.n;
  b->rows = q.rows;
  b->cols = q.cols;
  b->block = q.block;
  b->grid = q.grid;
  b->items = q.items;
  b->threads_block = r->ok ? r->cfg.block : 0;
  b->threads_grid = r->ok ? r->cfg.grid : 0;
  b->sparse = sparse != 0;
  b->huge = huge != 0;
  b->refused = !r->ok && r->no == NO_REFUSED;
  snprintf(b->reason, sizeof b->reason, "%s", reason);
}

/* ---- sizes -------------------------------------------------------------------------------- */

static uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* The size axis of the op: n, or rows at fixed cols. */
static axis size_axis(const prober *p) { return p->rows ? AX_ROWS : AX_N; }

/* The most a size axis may reach in a probe (configure is asked; a case is then held to the
 * limits by add). */
static uint64_t size_top(const prober *p, point base) {
  if (!p->rows) return RF_CASE_MAX_N;
  const uint64_t per = base.cols ? base.cols : 1;
  return min64(UINT32_MAX, (UINT64_C(1) << 34) / per);
}

/* How much of the size axis one block covers at block b: the largest size the default grid
 * still holds in one block (at least 1). A variant whose grid is above 1 from the start, or
 * never grows from 1 (a fixed grid), gets b: a block's worth of elements. */
static int grid_at_least_two(prober *p, point q, void *ctx) {
  (void)ctx;
  probe_res r = probe(p, q);
  return r.ok && r.cfg.grid >= 2;
}
static uint64_t block_coverage(prober *p, point base, uint32_t b, uint64_t top) {
  base.block = b;
  const axis a = size_axis(p);
  if (grid_at_least_two(p, at(base, a, 1), NULL)) return b;
  if (!grid_at_least_two(p, at(base, a, top), NULL)) return b;
  return bisect(p, base, a, 1, top, grid_at_least_two, NULL) - 1;
}

/* A size where block b has work in several blocks, the last one partial: 2.5 blocks' worth
 * plus one (the row ops: rows so, and a row 2.5 blocks long, so that every thread of a row's
 * block has two or three columns). */
static point block_case(prober *p, point base, uint32_t b) {
  point q = base;
  q.block = b;
  if (p->rows) {
    const rf_limits *l = &p->env->lim;
    q.cols = (uint32_t)min64(2ull * b + b / 2 + 1, l->max_cols);
    const uint64_t top = min64(l->max_elems / q.cols, UINT32_MAX);
    const uint64_t cov = block_coverage(p, q, b, top);
    q.rows = (uint32_t)min64(max64(3, 2 * cov + cov / 2 + 1), top);
    if ((uint64_t)q.rows * q.cols > l->max_elems) q.cols = (uint32_t)(l->max_elems / q.rows);
    return q;
  }
  const uint64_t top = p->env->lim.max_n;
  const uint64_t cov = block_coverage(p, q, b, top);
  q.n = min64(2 * cov + cov / 2 + 1, top);
  return q;
}

static int is_pow2(uint64_t v) { return v && !(v & (v - 1)); }

/* ---- blocks ------------------------------------------------------------------------------- */

/* The blocks the variant accepts at base (every block 1..1024, the case model's range: 1,024
 * probes): its smallest and largest; among the accepted whole-wave blocks that are not powers
 * of two, those where the number of waves is one past or one short of a power of two (3, 5, 7,
 * 9, 15, 17, 31 waves: where a tree over the waves gains a level or fills it; the others lie
 * between the same two depths), all of them when there are at most 8, and always the
 * smallest and largest; the smallest and largest accepted blocks past one wave that are not
 * whole waves; and one just outside on each side, and the first refused whole-wave block
 * between the smallest and the largest, which must be refused, not launched. */
static void derive_blocks(list *L, point base) {
  prober *p = L->p;
  const uint32_t w = p->env->wave;
  static const uint32_t top = 1024;
  unsigned char ok[1025], said_no[1025];
  uint32_t lo = 0, hi = 0, npot = 0, kept = 0, refusals = 0;
  for (uint32_t b = 1; b <= top; b++) {
    point q = base;
    q.block = b;
    const probe_res r = probe(p, q);
    ok[b] = (unsigned char)r.ok;
    said_no[b] = r.no == NO_REFUSED;
    refusals += said_no[b];
    if (!ok[b]) continue;
    kept++;
    if (!lo) lo = b;
    hi = b;
    if (b % w == 0 && !is_pow2(b)) npot++;
  }
  /* a variant that sets its own block whatever is asked (keeping at most the one it picks,
   * refusing none) has no block boundary: its launch is the size's */
  if (!lo || (kept == 1 && !refusals)) {
    snprintf(L->st->note, sizeof L->st->note, "takes no block request (it sets its own)");
    return;
  }
  probe_res r;
  point q = block_case(p, base, lo);
  r = probe(p, q);
  add(L, RF_BK_BLOCK_SMALLEST, q, &r, "block %u: the smallest it accepts", lo);
  q = block_case(p, base, hi);
  r = probe(p, q);
  add(L, RF_BK_BLOCK_LARGEST, q, &r, "block %u: the largest it accepts", hi);
  uint32_t first_npot = 0, last_npot = 0;
  for (uint32_t b = w; b <= top; b += w)
    if (ok[b] && !is_pow2(b)) {
      if (!first_npot) first_npot = b;
      last_npot = b;
    }
  for (uint32_t b = w; b <= top; b += w) {
    if (!ok[b] || is_pow2(b)) continue;
    const uint32_t waves = b / w;
    if (npot > 8 && b != first_npot && b != last_npot && !is_pow2(waves - 1) &&
        !is_pow2(waves + 1))
      continue;
    q = block_case(p, base, b);
    r = probe(p, q);
    add(L, RF_BK_BLOCK_NPOT, q, &r, "block %u: accepted, not a power of two (%u waves of %u)",
        b, waves, w);
  }
  uint32_t part_lo = 0, part_hi = 0;
  for (uint32_t b = w + 1; b <= top; b++)
    if (ok[b] && b % w) {
      if (!part_lo) part_lo = b;
      part_hi = b;
    }
  if (part_lo) {
    q = block_case(p, base, part_lo);
    r = probe(p, q);
    add(L, RF_BK_BLOCK_PARTIAL, q, &r, "block %u: accepted, %u whole waves of %u and %u lanes",
        part_lo, part_lo / w, w, part_lo % w);
  }
  if (part_hi && part_hi != part_lo) {
    q = block_case(p, base, part_hi);
    r = probe(p, q);
    add(L, RF_BK_BLOCK_PARTIAL, q, &r, "block %u: accepted, %u whole waves of %u and %u lanes",
        part_hi, part_hi / w, w, part_hi % w);
  }
  /* just outside: refusals, which must come back unsupported */
  uint32_t gap = 0;
  for (uint32_t b = lo + 1; b < hi && !gap; b++)
    if (said_no[b] && b % w == 0) gap = b;
  for (uint32_t b = lo + 1; b < hi && !gap; b++)
    if (said_no[b]) gap = b;
  const uint32_t outside[3] = {lo > 1 ? lo - 1 : 0, gap, hi < top ? hi + 1 : 0};
  static const char *const where[3] = {
      "one below the smallest it accepts",
      ("the first refused block between the smallest and the largest"),
      "one above the largest it accepts"};
  for (int i = 0; i < 3; i++) {
    if (!outside[i]) continue;
    q = base;
    q.block = outside[i];
    r = probe(p, q);
    if (r.no != NO_REFUSED) continue;   /* a request it changes runs all the same */
    add(L, RF_BK_BLOCK_REFUSED, q, &r, "block %u: %s; it must be refused", outside[i],
        where[i]);
  }
}

/* ---- the default grid along the size: saturation ------------------------------------------ */

typedef struct { uint32_t grid; } grid_ctx;
static int grid_reaches(prober *p, point q, void *ctx) {
  const grid_ctx *g = ctx;
  probe_res r = probe(p, q);
  return r.ok && r.cfg.grid >= g->grid;
}

/* The default grid's largest value over the sizes it accepts, and the first size that reaches
 * it. A saturation when a whole grid's worth of threads past that size still has that grid:
 * then that size, one element past a whole number of elements a thread (a thread takes one
 * more: the per-thread count changes), and a remainder that is neither a multiple of the grid's
 * threads nor of the block. (A grid that grows with the size to the end has no saturation;
 * one-element-per-thread variants.) */
static void derive_saturation(list *L, point base, uint64_t acc) {
  prober *p = L->p;
  const axis a = size_axis(p);
  const probe_res top = probe(p, at(base, a, acc));
  const probe_res one = probe(p, at(base, a, 1));
  if (!top.ok || !one.ok || one.cfg.grid >= top.cfg.grid) return;
  grid_ctx g = {top.cfg.grid};
  const uint64_t s = bisect(p, base, a, 1, acc, grid_reaches, &g);
  const probe_res at_s = probe(p, at(base, a, s));
  if (!at_s.ok || at_s.cfg.grid != g.grid) return;
  const uint32_t b = at_s.cfg.block;
  /* One pass of the grid: its threads (1-D), or the rows its blocks hold at once (one a block,
   * or a block's worth for a thread a row). */
  const uint64_t unit = p->rows ? (uint64_t)g.grid * block_coverage(p, base, b, acc)
                                : (uint64_t)g.grid * b;
  if (acc - s < unit) return;   /* still growing at the end: no saturation */
  const probe_res past = probe(p, at(base, a, s + unit));
  if (!past.ok || past.cfg.grid != g.grid) return;
  const char *what = p->rows ? "rows" : "n", *items = p->rows ? "rows" : "elements";
  const char *holder = p->rows ? "pass of the grid" : "thread";
  const uint64_t per = (s + unit - 1) / unit;   /* what a thread (a grid pass) takes at s */
  add(L, RF_BK_SATURATION, at(base, a, s), &at_s, "default grid saturates at %s=%llu: grid %u "
      "x block %u, %llu %s a %s", what, (unsigned long long)s, g.grid, b,
      (unsigned long long)per, items, holder);
  /* one past a whole number a thread; a remainder that is not a multiple of the grid's
   * threads nor of the block (the rows: of the grid) */
  const uint64_t xs[2] = {unit * per + 1, unit * per + unit / 2 + (p->rows ? 1 : b / 2 + 1)};
  for (int i = 0; i < 2; i++) {
    if (xs[i] > acc) continue;
    const probe_res r = probe(p, at(base, a, xs[i]));
    if (!r.ok) continue;
    add(L, RF_BK_SATURATION, at(base, a, xs[i]), &r, "past saturation: %s=%llu = %llu x %llu + "
        "%llu (%s), %llu -> %llu %s a %s", what, (unsigned long long)xs[i],
        (unsigned long long)unit, (unsigned long long)per,
        (unsigned long long)(xs[i] - unit * per),
        i ? "not a multiple of the grid's threads nor of the block" : "one past a whole number",
        (unsigned long long)per, (unsigned long long)per + 1, items, holder);
  }
}

/* ---- idle blocks -------------------------------------------------------------------------- */

/* Where the variant takes a requested grid (it keeps two different requests), grids larger
 * than the input needs: one more block than it needs, so that at least one has no element, and
 * four times that. The 1-D ops need ceil(n / block) blocks; the row ops the larger of their
 * rows (a block a row) and their default grid (a thread a row, or a grid-stride). */
static void derive_idle(list *L, point base) {
  prober *p = L->p;
  const probe_res d = probe(p, base);
  if (!d.ok) return;
  point q = base;
  if (p->rows) {
    q.rows = 3;
    q.cols = (uint32_t)min64(2ull * d.cfg.block + d.cfg.block / 2 + 1, p->env->lim.max_cols);
  } else {
    q.n = min64(2ull * d.cfg.block + d.cfg.block / 2 + 1, p->env->lim.max_n);
  }
  const probe_res dq = probe(p, q);   /* the default launch at that size */
  if (!dq.ok) return;
  const uint32_t b = dq.cfg.block;
  const uint64_t work = p->rows ? max64(q.rows, dq.cfg.grid) : (q.n + b - 1) / b;
  if (work + 1 > INT32_MAX / 4) return;
  point t1 = q, t2 = q;
  t1.grid = (uint32_t)work + 2;
  t2.grid = (uint32_t)work + 5;
  if (!probe(p, t1).ok || !probe(p, t2).ok) return;   /* no requested grid */
  const uint32_t grids[2] = {(uint32_t)work + 1, 4 * ((uint32_t)work + 1)};
  for (int i = 0; i < 2; i++) {
    q.grid = grids[i];
    const probe_res r = probe(p, q);
    if (!r.ok) continue;
    if (p->rows)
      add(L, RF_BK_IDLE_GRID, q, &r, "grid %u for %ux%u (block %u): %llu blocks are all the "
          "rows and its default grid need, at least %llu hold none", grids[i], q.rows, q.cols,
          r.cfg.block, (unsigned long long)work, (unsigned long long)(grids[i] - work));
    else
      add(L, RF_BK_IDLE_GRID, q, &r, "grid %u for n=%llu (block %u): ceil(n/block) = %llu "
          "blocks hold every element, the other %llu hold none", grids[i],
          (unsigned long long)q.n, r.cfg.block, (unsigned long long)work,
          (unsigned long long)(grids[i] - work));
  }
}

/* ---- the plan and the default launch along an axis ---------------------------------------- */

/* The plan's shape: its levels' kinds in order (the adds aside). */
static int same_shape(const rf_plan *a, const rf_plan *b) {
  if (a->n_levels != b->n_levels) return 0;
  for (uint32_t i = 0; i < a->n_levels; i++)
    if (a->level[i].kind != b->level[i].kind) return 0;
  return 1;
}

static const char *level_name(rf_level_kind k) {
  switch (k) {
  case RF_LEVEL_CHAIN: return "chain";
  case RF_LEVEL_WAVE: return "wave";
  case RF_LEVEL_LDS: return "lds";
  case RF_LEVEL_ATOMIC: return "atomic";
  case RF_LEVEL_SECOND_KERNEL: return "second-kernel";
  case RF_LEVEL_HOST: return "host";
  }
  return "?";
}

/* What a change along an axis is measured in. */
typedef enum { M_SHAPE, M_LEVEL, M_BLOCK, M_ITEMS } measure;
typedef struct {
  measure m;
  uint32_t level;      /* M_LEVEL */
  probe_res ref;       /* the value at the start */
} change_ctx;

/* 1 when q differs from ctx->ref in the measured quantity (a refusal differs from an
 * acceptance; a level is compared only while the plan keeps its shape). */
static int differs(prober *p, point q, void *vctx) {
  const change_ctx *c = vctx;
  const probe_res r = probe(p, q);
  if (r.ok != c->ref.ok) return 1;
  if (!r.ok) return 0;
  switch (c->m) {
  case M_SHAPE: return !same_shape(&r.plan, &c->ref.plan);
  case M_LEVEL:
    return !same_shape(&r.plan, &c->ref.plan) ||
           r.plan.level[c->level].adds != c->ref.plan.level[c->level].adds;
  case M_BLOCK: return r.cfg.block != c->ref.cfg.block;
  case M_ITEMS: return r.cfg.items != c->ref.cfg.items;
  }
  return 0;
}

/* Every point in (lo, hi] where the measured quantity changes, found by bisection between
 * points that differ (a quantity that steps up along the axis has its every step found; one
 * that comes back between two points hides the steps between them), at most max of them, in
 * order; ctx->ref is set along the way. Returns the count. */
static size_t steps(prober *p, point base, axis a, uint64_t lo, uint64_t hi, change_ctx *c,
                    uint64_t *out, size_t max) {
  size_t count = 0;
  while (count < max && lo < hi && !p->capped) {
    c->ref = probe(p, at(base, a, lo));
    if (!differs(p, at(base, a, hi), c)) break;
    const uint64_t x = bisect(p, base, a, lo, hi, differs, c);
    out[count++] = x;
    lo = x;
  }
  return count;
}

/* Samples of an axis from 1 to top: 1, 2, 3, 2^k and 2^k + 1 up to top: a change of shape is
 * looked for between consecutive samples, which finds every change of a shape that changes a
 * few times over the axis. */
static size_t samples(uint64_t top, uint64_t *out, size_t max) {
  size_t c = 0;
  for (int k = 0; k < 64 && c + 2 <= max; k++) {
    const uint64_t x = UINT64_C(1) << k;
    if (x > top) break;
    out[c++] = x;
    if (x + 1 <= top) out[c++] = x + 1;
  }
  if (c < max && (!c || out[c - 1] != top)) out[c++] = top;
  return c;
}

static void describe_plan(const rf_plan *pl, char *buf, size_t len) {
  rf_plan_format(pl, buf, (unsigned)len);
}

/* Along the size axis, from 1 to hi (the default launch): where the plan's shape changes, where
 * the default block or items change (strategy), and where each level's adds first change from
 * their value at the start (a second stage's chain taking its second partial, a thread's chain
 * its second element), every change for the tree levels (wave, lds: a tree's depth). */
static void derive_plan_along(list *L, point base, axis a, uint64_t hi, const char *what) {
  prober *p = L->p;
  if (hi < 2) return;
  uint64_t xs[140];
  const size_t ns = samples(hi, xs, sizeof xs / sizeof xs[0]);
  /* shape, block and items changes: between consecutive samples */
  static const measure strat[3] = {M_SHAPE, M_BLOCK, M_ITEMS};
  for (int m = 0; m < 3; m++) {
    change_ctx c = {.m = strat[m]};
    for (size_t i = 0; i + 1 < ns && !p->capped; i++) {
      uint64_t found[16];
      const size_t k = steps(p, base, a, xs[i], xs[i + 1], &c, found, 16);
      for (size_t j = 0; j < k; j++) {
        const probe_res before = probe(p, at(base, a, found[j] - 1));
        const probe_res after = probe(p, at(base, a, found[j]));
        if (!before.ok || !after.ok) continue;   /* acceptance: index-width's question */
        char pa[160], pb[160];
        if (strat[m] == M_SHAPE) {
          describe_plan(&before.plan, pa, sizeof pa);
          describe_plan(&after.plan, pb, sizeof pb);
          add(L, RF_BK_STRATEGY, at(base, a, found[j]), &after, "plan shape changes at %s=%llu: "
              "%s -> %s", what, (unsigned long long)found[j], pa, pb);
        } else if (strat[m] == M_BLOCK) {
          add(L, RF_BK_STRATEGY, at(base, a, found[j]), &after, "default block changes at "
              "%s=%llu: %u -> %u", what, (unsigned long long)found[j], before.cfg.block,
              after.cfg.block);
        } else {
          add(L, RF_BK_STRATEGY, at(base, a, found[j]), &after, "default items change at "
              "%s=%llu: %u -> %u", what, (unsigned long long)found[j], before.cfg.items,
              after.cfg.items);
        }
      }
    }
  }
  /* levels: within the shape the axis starts with */
  const probe_res first = probe(p, at(base, a, 1));
  if (!first.ok) return;
  for (uint32_t lv = 0; lv < first.plan.n_levels && !p->capped; lv++) {
    const rf_level_kind kind = first.plan.level[lv].kind;
    const int tree = kind == RF_LEVEL_WAVE || kind == RF_LEVEL_LDS;
    change_ctx c = {.m = M_LEVEL, .level = lv};
    /* the last sample of the starting shape bounds the search */
    uint64_t end = 1;
    for (size_t i = 0; i < ns; i++) {
      const probe_res r = probe(p, at(base, a, xs[i]));
      if (!r.ok || !same_shape(&r.plan, &first.plan)) break;
      end = xs[i];
    }
    uint64_t found[12];
    const size_t k = steps(p, base, a, 1, end, &c, found, tree ? 12 : 1);
    for (size_t j = 0; j < k; j++) {
      const probe_res before = probe(p, at(base, a, found[j] - 1));
      const probe_res after = probe(p, at(base, a, found[j]));
      if (!before.ok || !after.ok || !same_shape(&after.plan, &first.plan)) continue;
      add(L, RF_BK_PLAN_LEVEL, at(base, a, found[j]), &after, "plan level %u (%s) %llu -> %llu "
          "at %s=%llu (grid %u, block %u)", lv + 1, level_name(kind),
          (unsigned long long)before.plan.level[lv].adds,
          (unsigned long long)after.plan.level[lv].adds, what, (unsigned long long)found[j],
          after.cfg.grid, after.cfg.block);
    }
  }
}

/* Along a requested grid (where the variant takes one): the first change of each level from
 * the first second-kernel or host level on (a second stage over the partials: its chain takes
 * a second partial at block + 1 blocks, or at the width it was written for). The case then
 * has work in every block: grid x block elements and a half block more. When that is past the
 * dense limit at the default block, the same search at the smallest accepted block. */
static void derive_grid_levels(list *L, point base, uint32_t small_block) {
  prober *p = L->p;
  const uint32_t blocks[2] = {0, small_block};
  for (int bi = 0; bi < 2; bi++) {
    if (bi && !small_block) break;
    point q = base;
    q.block = blocks[bi];
    point two = q;
    two.grid = 2;
    const probe_res r2 = probe(p, two);
    point three = q;
    three.grid = 3;
    if (!r2.ok || !probe(p, three).ok) return;   /* no requested grid */
    const uint32_t b = r2.cfg.block;
    uint64_t gmax = largest_accepted(p, q, AX_GRID, 2, INT32_MAX);
    if (p->env->max_threads) gmax = min64(gmax, max64(2, p->env->max_threads / b));
    int later = 0, pending = 0;
    for (uint32_t lv = 0; lv < r2.plan.n_levels && !p->capped; lv++) {
      const rf_level_kind kind = r2.plan.level[lv].kind;
      later |= kind == RF_LEVEL_SECOND_KERNEL || kind == RF_LEVEL_HOST;
      if (!later) continue;
      change_ctx c = {.m = M_LEVEL, .level = lv};
      uint64_t found[1];
      if (!steps(p, q, AX_GRID, 1, gmax, &c, found, 1)) continue;
      point s = q;
      s.grid = (uint32_t)found[0];
      s.n = (uint64_t)s.grid * b + b / 2 + 1;
      if (s.n > p->env->lim.max_n && !bi && small_block && small_block != b) {
        pending = 1;   /* try it at the smallest block */
        continue;
      }
      const probe_res before = probe(p, at(s, AX_GRID, found[0] - 1));
      const probe_res after = probe(p, s);
      if (!after.ok || !before.ok) continue;
      add(L, RF_BK_PLAN_LEVEL, s, &after, "plan level %u (%s) %llu -> %llu at grid %u (block "
          "%u): a stage over the partials takes one more", lv + 1, level_name(kind),
          (unsigned long long)before.plan.level[lv].adds,
          (unsigned long long)after.plan.level[lv].adds, s.grid, b);
    }
    if (!pending) break;
  }
}

/* ---- partials past one block's worth ------------------------------------------------------ */

/* A second stage written for one block of partials (256 or 1,024 threads, one partial each,
 * no loop) drops the rest wherever the first stage has more blocks, whatever the plan says: a
 * plan that lists one second-kernel level at every grid has no change there for the plan-level
 * search to find (a blind test's kernel, docs/log/2026-12-07-blind-test.md). So 257 and 1,025
 * blocks, each holding work (grid x block elements and a half block more): at a requested grid
 * where the variant takes one, else at the first size whose default grid reaches them; at
 * the smallest accepted block of whole waves first (the sizes stay dense), then at the default
 * block. */
static void derive_partials(list *L, point base, uint32_t small_block, uint64_t acc) {
  prober *p = L->p;
  static const uint32_t counts[2] = {257, 1025};
  const uint32_t blocks[2] = {small_block, 0};
  uint32_t done_block = 0;
  for (int bi = 0; bi < 2 && !p->capped; bi++) {
    if (bi == 0 && !small_block) continue;
    point q = base;
    q.block = blocks[bi];
    q.grid = 0;
    const probe_res d = probe(p, q);
    if (!d.ok || d.cfg.block == done_block) continue;
    const uint32_t b = d.cfg.block;
    done_block = b;
    point t2 = q, t3 = q;
    t2.grid = 2;
    t3.grid = 3;
    const int takes_grid = probe(p, t2).ok && probe(p, t3).ok;
    for (int i = 0; i < 2; i++) {
      point s = q;
      if (takes_grid) {
        s.grid = counts[i];
        s.n = (uint64_t)counts[i] * b + b / 2 + 1;
      } else {
        grid_ctx g = {counts[i]};
        if (acc <= q.n || !grid_reaches(p, at(q, AX_N, acc), &g)) continue;
        s.n = grid_reaches(p, q, &g) ? q.n : bisect(p, q, AX_N, q.n, acc, grid_reaches, &g);
      }
      const probe_res r = probe(p, s);
      if (!r.ok) continue;
      add(L, RF_BK_PARTIALS, s, &r, "%u blocks of %u (%s grid): more partials than a "
          "%u-thread stage holds", r.cfg.grid, b, takes_grid ? "requested" : "default",
          counts[i] - 1);
    }
  }
}

/* ---- items -------------------------------------------------------------------------------- */

/* Where the variant takes an items request (it keeps 1 and 3): items 1 and the most the case
 * model holds (64) or the variant accepts, at a size that gives every thread work. */
static void derive_items(list *L, point base) {
  prober *p = L->p;
  point q = base;
  q.items = 1;
  const probe_res r1 = probe(p, q);
  q.items = 3;
  const probe_res r3 = probe(p, q);
  if (!r1.ok || !r3.ok || r1.cfg.items != 1 || r3.cfg.items != 3) return;
  uint32_t top = 64;
  while (top > 1) {
    q.items = top;
    const probe_res r = probe(p, q);
    if (r.ok && r.cfg.items == top) break;
    top--;
  }
  const uint32_t its[2] = {1, top};
  for (int i = 0; i < 2; i++) {
    if (i && top == 1) break;
    q = base;
    q.items = its[i];
    const probe_res r = probe(p, q);
    if (!r.ok) continue;
    const uint32_t b = r.cfg.block;
    if (p->rows) q.cols = (uint32_t)min64(2ull * b * its[i] + b / 2 + 1, p->env->lim.max_cols);
    else q.n = min64(2ull * b * its[i] + b / 2 + 1, p->env->lim.max_n);
    const probe_res rq = probe(p, q);
    if (!rq.ok) continue;
    add(L, RF_BK_PLAN_LEVEL, q, &rq, "items %u: the %s items a thread it accepts", its[i],
        i ? "most" : "fewest");
  }
}

/* ---- index widths ------------------------------------------------------------------------- */

/* Sizes one past and one short of 16-bit and 15-bit counts (dense), and the largest size the
 * variant accepts with one past it when it refuses some size the model holds (a declared
 * width: a 32-bit argmax index stops at 2^31 - 1). The 2^31 and 2^32 sizes every variant
 * meets come from `sweep --huge`'s list. */
static void derive_index(list *L, point base, axis a, uint64_t acc, uint64_t model_top,
                         const char *what) {
  prober *p = L->p;
  static const uint64_t widths[4] = {(1u << 15) - 1, (1u << 15) + 1, (1u << 16) - 1,
                                     (1u << 16) + 1};
  static const char *const names[4] = {"2^15-1", "2^15+1", "2^16-1", "2^16+1"};
  for (int i = 0; i < 4; i++) {
    const point q = at(base, a, widths[i]);
    if (past_dense(p, &q)) continue;
    const probe_res r = probe(p, q);
    if (!r.ok) continue;
    add(L, RF_BK_INDEX_WIDTH, q, &r, "%s=%s: %s a 16-bit index or count", what, names[i],
        i & 1 ? "one past" : "the end of");
  }
  if (acc >= model_top) return;
  const point q = at(base, a, acc);
  const probe_res r = probe(p, q);
  if (r.ok)
    add(L, RF_BK_INDEX_WIDTH, q, &r, "%s=%llu: the largest it accepts", what,
        (unsigned long long)acc);
  const point over = at(base, a, acc + 1);
  const probe_res ro = probe(p, over);
  if (ro.no == NO_REFUSED)
    add(L, RF_BK_INDEX_WIDTH, over, &ro, "%s=%llu: one past the largest it accepts; it must be "
        "refused", what, (unsigned long long)(acc + 1));
  else if (ro.no == NO_BROKEN)   /* the runner says launch-error there: the variant's bug */
    add(L, RF_BK_INDEX_WIDTH, over, &ro, "%s=%llu: one past the largest it accepts, where its "
        "launch breaks the rules (a grid or block of 0, or a plan past the plan rules)", what,
        (unsigned long long)(acc + 1));
}

/* ---- the two shapes of op ----------------------------------------------------------------- */

/* A size the variant accepts at its default launch, from a short list. */
static int find_base(prober *p, point *base, const uint64_t *tries, size_t count, axis a) {
  for (size_t i = 0; i < count; i++) {
    const point q = at(*base, a, tries[i]);
    if (probe(p, q).ok) {
      *base = q;
      return 1;
    }
  }
  return 0;
}

static uint32_t smallest_wave_block(prober *p, point base) {
  for (uint32_t b = p->env->wave; b <= 1024; b += p->env->wave) {
    point q = base;
    q.block = b;
    if (probe(p, q).ok) return b;
  }
  return 0;
}

static void derive_1d(list *L) {
  prober *p = L->p;
  const uint64_t max_n = p->env->lim.max_n;
  point base = {0};
  const uint64_t tries[4] = {min64(4099, max_n), min64(1027, max_n), min64(33, max_n), 1};
  if (!find_base(p, &base, tries, 4, AX_N)) {
    snprintf(L->st->note, sizeof L->st->note, "refuses its default launch at n = 4099, 1027, "
             "33 and 1");
    return;
  }
  derive_blocks(L, base);
  const uint64_t acc = largest_accepted(p, base, AX_N, base.n, RF_CASE_MAX_N);
  derive_saturation(L, base, acc);
  derive_idle(L, base);
  derive_items(L, base);
  derive_plan_along(L, base, AX_N, acc, "n");
  const uint32_t small_block = smallest_wave_block(p, base);
  derive_grid_levels(L, base, small_block);
  derive_partials(L, base, small_block, acc);
  derive_index(L, base, AX_N, acc, RF_CASE_MAX_N, "n");
}

static void derive_rows(list *L) {
  prober *p = L->p;
  const rf_limits *l = &p->env->lim;
  point base = {0};
  base.rows = 3;
  const uint64_t tries[4] = {min64(1027, l->max_cols), min64(33, l->max_cols), 2, 1};
  if (!find_base(p, &base, tries, 4, AX_COLS)) {
    snprintf(L->st->note, sizeof L->st->note, "refuses its default launch at 3 rows of 1027, "
             "33, 2 and 1 columns");
    return;
  }
  derive_blocks(L, base);
  /* rows at two columns: the grid's cap, past it a block takes a second row */
  point narrow = base;
  narrow.cols = 2;
  if (probe(p, narrow).ok) {
    const uint64_t acc = largest_accepted(p, narrow, AX_ROWS, 3, size_top(p, narrow));
    derive_saturation(L, narrow, acc);
    derive_index(L, narrow, AX_ROWS, acc, size_top(p, narrow), "rows");
  }
  derive_idle(L, base);
  derive_items(L, base);
  /* cols at three rows: a row's chain, its block, the strategy */
  const uint64_t cols_top = min64(l->max_cols, l->max_elems / base.rows);
  const uint64_t cacc = largest_accepted(p, base, AX_COLS, base.cols,
                                         min64(UINT32_MAX, RF_CASE_MAX_SPARSE_COLS));
  derive_plan_along(L, base, AX_COLS, min64(cacc, cols_top), "cols");
  point two_rows = base;
  two_rows.rows = 2;
  derive_index(L, two_rows, AX_COLS, cacc, min64(UINT32_MAX, RF_CASE_MAX_SPARSE_COLS), "cols");
}

size_t rf_boundaries_derive(const rf_variant *v, const rf_boundary_env *env, rf_boundary *out,
                            size_t cap, rf_boundary_stats *st) {
  rf_boundary_stats local;
  if (!st) st = &local;
  memset(st, 0, sizeof *st);
  prober p = {.v = v, .env = env, .rows = rf_op_has_rows(v->op)};
  list L = {.out = out, .cap = cap, .st = st, .p = &p};
  if (p.rows) derive_rows(&L);
  else derive_1d(&L);
  st->count = L.count;
  st->probes = p.probes;
  st->capped = p.capped;
  return L.count;
}

void rf_boundary_apply(const rf_boundary *b, rf_case *c) {
  if (rf_op_has_rows(c->op)) {
    c->n = 0;
    c->rows = b->rows;
    c->cols = b->cols;
  } else {
    c->n = b->n;
    c->rows = c->cols = 0;
  }
  c->block = b->block;
  c->grid = b->grid;
  c->items = b->items;
}

/* Per op, in order: a distribution whose exact answer changes with a dropped or doubled
 * element (the sums: ones, bound 0; max and argmax: sorted, the maximum the last element; min
 * and argmin: ones and equal-min, every element or several the minimum), a random one, then
 * one more of either kind (alternating, bound 0; negative: a 0 start or padding wins a max).
 * The first two catch what the third does on the sizes and launches here; a caller short of
 * time takes them only. */
size_t rf_boundary_dists(rf_op op, rf_dist *out, size_t max) {
  rf_dist d[3];
  switch (op) {
  case RF_OP_SUM: d[0] = RF_DIST_ONES; d[1] = RF_DIST_UNIFORM; d[2] = RF_DIST_ALTERNATING; break;
  case RF_OP_MAX: d[0] = RF_DIST_SORTED; d[1] = RF_DIST_UNIFORM; d[2] = RF_DIST_NEGATIVE; break;
  case RF_OP_ARGMAX: d[0] = RF_DIST_SORTED; d[1] = RF_DIST_EQUAL_MAX; d[2] = RF_DIST_NEGATIVE; break;
  case RF_OP_MIN: d[0] = RF_DIST_ONES; d[1] = RF_DIST_UNIFORM; d[2] = RF_DIST_EQUAL_MIN; break;
  case RF_OP_ARGMIN: d[0] = RF_DIST_EQUAL_MIN; d[1] = RF_DIST_UNIFORM; d[2] = RF_DIST_ONES; break;
  default: d[0] = RF_DIST_UNIFORM; d[1] = RF_DIST_SHIFTED_ROWS; d[2] = RF_DIST_NEGATIVE; break;
  }
  size_t n = max < 3 ? max : 3;
  memcpy(out, d, n * sizeof *out);
  return n;
}

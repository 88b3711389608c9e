/* A variant's plan: the shape of its combining tree, from which its error bound follows
 * (docs/TOLERANCES.md). Levels are listed from the inputs towards the output; `adds` is
 * the number of floating-point additions (or max/exp-rescale steps) that the longest path
 * from any input to the output goes through at that level. */
#ifndef RF_PLAN_H
#define RF_PLAN_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
  RF_LEVEL_CHAIN,        /* one thread accumulates sequentially (grid-stride, unrolled loop) */
  RF_LEVEL_WAVE,         /* wave shuffle tree */
  RF_LEVEL_LDS,          /* LDS tree inside a block */
  RF_LEVEL_ATOMIC,       /* atomics into one global accumulator (order unspecified) */
  RF_LEVEL_SECOND_KERNEL,/* a second kernel combining per-block partials (its own levels follow) */
  RF_LEVEL_HOST          /* the host combines */
} rf_level_kind;

typedef enum {
  RF_DIV_IEEE,           /* y = e / s, one correctly rounded division */
  RF_DIV_RECIP_MUL,      /* r = 1 / s once, y = e * r: two roundings */
} rf_div_kind;

/* Which exponential the kernel calls (the row ops): its error model follows from it and the
 * target (docs/TOLERANCES.md, "the exponential"). */
typedef enum {
  RF_EXP_ACCURATE,       /* expf: the target's library exp, a few ulp */
  RF_EXP_FAST,           /* __expf: the target's native exp2(x * log2e), argument-dependent */
} rf_exp_kind;

#define RF_PLAN_MAX_LEVELS 8
typedef struct {
  uint32_t n_levels;
  struct { rf_level_kind kind; uint64_t adds; } level[RF_PLAN_MAX_LEVELS];
  /* the row ops only (softmax, logsumexp, log-softmax: their exp sum) */
  uint64_t rescales;     /* online softmax: longest chain of exp(m_old - m_new) rescalings */
  rf_div_kind div;
  rf_exp_kind exp;       /* last: a plugin built before it leaves it 0 (accurate) */
} rf_plan;

/* ceil(log2(v)) for v >= 1 (0 for v <= 1): the depth of a binary tree over v leaves. */
static inline uint32_t rf_ceil_log2(uint64_t v) {
  uint32_t d = 0;
  while (((uint64_t)1 << d) < v && d < 63) d++;
  return d;
}
static inline int rf_is_pow2(uint64_t v) { return v && !(v & (v - 1)); }
static inline uint64_t rf_div_ceil(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

/* h: the sum of adds over all levels. */
uint64_t rf_plan_depth(const rf_plan *p);
/* Appends a level of `adds` additions on the longest path. Returns 0 when recorded, or
 * RF_PLAN_REFUSED when adds == 0: a level that adds nothing is not a level (it would show as
 * "lds 0" and could hide a plan computed as 0 by mistake), so it is refused, the plan is left
 * unchanged, and the caller is told. Variants whose levels vanish at some sizes (a tree over
 * one element, block == wave) may ignore the return value; everything else should check it.
 * Past RF_PLAN_MAX_LEVELS levels the adds fold into the last level (depth and bound stay
 * correct; returns 0). */
#define RF_PLAN_REFUSED (-1)
int rf_plan_add(rf_plan *p, rf_level_kind kind, uint64_t adds);
/* The plan rules (include/redfuzz/plugin.h, PLAN LEVELS), checked every time a plan is made
 * (the runner, list, bench), because a bound derived from a plan that breaks them means
 * nothing: n_levels at most RF_PLAN_MAX_LEVELS; every level's kind one of rf_level_kind;
 * every level's adds 1..RF_PLAN_MAX_ADDS; rescales 0..RF_PLAN_MAX_ADDS; div one of
 * rf_div_kind; exp one of rf_exp_kind. An honest level adds at most one value per input, and
 * no case has more than 2^34 inputs (the case model's RF_CASE_MAX_N: at 2^32+3 a one-level
 * atomic sum has 2^32+3 adds, which the 2^32 here once refused), so a larger count is a bug
 * that would make the bound infinite (every result would pass). Returns 0, or -1 with the broken rule, naming the level
 * and the value, in why. */
#define RF_PLAN_MAX_ADDS (UINT64_C(1) << 34)
int rf_plan_check(const rf_plan *p, char *why, unsigned len);
/* "chain 4 > wave 5 > lds 3 > atomic 64 (h=76)" into buf. */
void rf_plan_format(const rf_plan *p, char *buf, unsigned len);

#ifdef __cplusplus
}
#endif
#endif

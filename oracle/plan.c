/* Plans: the depth of a variant's combining tree (oracle/plan.h). */
#include "redfuzz/plan.h"

#include <stdio.h>

uint64_t rf_plan_depth(const rf_plan *p) {
  uint64_t h = 0;
  for (uint32_t i = 0; i < p->n_levels && i < RF_PLAN_MAX_LEVELS; i++) {
    uint64_t a = p->level[i].adds;
    h = a > UINT64_MAX - h ? UINT64_MAX : h + a; /* saturate: a bound must never wrap small */
  }
  return h;
}

int rf_plan_add(rf_plan *p, rf_level_kind kind, uint64_t adds) {
  if (adds == 0) return RF_PLAN_REFUSED;   /* plan.h: refused, and the caller told */
  if (p->n_levels < RF_PLAN_MAX_LEVELS) {
    p->level[p->n_levels].kind = kind;
    p->level[p->n_levels].adds = adds;
    p->n_levels++;
    return 0;
  }
  /* Full: fold into the last level so the depth, and so the bound, stays correct. */
  uint64_t *last = &p->level[RF_PLAN_MAX_LEVELS - 1].adds;
  *last = adds > UINT64_MAX - *last ? UINT64_MAX : *last + adds;
  return 0;
}

int rf_plan_check(const rf_plan *p, char *why, unsigned len) {
  if (p->n_levels > RF_PLAN_MAX_LEVELS) {
    snprintf(why, len, "n_levels is %lu (allowed: 0..%d, RF_PLAN_MAX_LEVELS)",
             (unsigned long)p->n_levels, RF_PLAN_MAX_LEVELS);
    return -1;
  }
  for (uint32_t i = 0; i < p->n_levels; i++) {
    const unsigned kind = (unsigned)p->level[i].kind;
    if (kind > (unsigned)RF_LEVEL_HOST) {
      snprintf(why, len, "level %lu has kind %u (allowed: 0..%d, RF_LEVEL_CHAIN..RF_LEVEL_HOST)",
               (unsigned long)i, kind, (int)RF_LEVEL_HOST);
      return -1;
    }
    if (p->level[i].adds == 0 || p->level[i].adds > RF_PLAN_MAX_ADDS) {
      snprintf(why, len, "level %lu has adds %llu (allowed: 1..2^34)", (unsigned long)i,
               (unsigned long long)p->level[i].adds);
      return -1;
    }
  }
  if (p->rescales > RF_PLAN_MAX_ADDS) {
    snprintf(why, len, "rescales is %llu (allowed: 0..2^34)", (unsigned long long)p->rescales);
    return -1;
  }
  if ((unsigned)p->div > (unsigned)RF_DIV_RECIP_MUL) {
    snprintf(why, len, "div is %u (allowed: 0..%d, RF_DIV_IEEE..RF_DIV_RECIP_MUL)",
             (unsigned)p->div, (int)RF_DIV_RECIP_MUL);
    return -1;
  }
  if ((unsigned)p->exp > (unsigned)RF_EXP_FAST) {
    snprintf(why, len, "exp is %u (allowed: 0..%d, RF_EXP_ACCURATE..RF_EXP_FAST)",
             (unsigned)p->exp, (int)RF_EXP_FAST);
    return -1;
  }
  return 0;
}

static const char *level_name(rf_level_kind k) {
  switch (k) {
  case RF_LEVEL_CHAIN: return "chain";
  case RF_LEVEL_WAVE: return "wave";
  case RF_LEVEL_LDS: return "lds";
  case RF_LEVEL_ATOMIC: return "atomic";
  case RF_LEVEL_SECOND_KERNEL: return "kernel2";
  case RF_LEVEL_HOST: return "host";
  }
  return "?";
}

void rf_plan_format(const rf_plan *p, char *buf, unsigned len) {
  if (len == 0) return;
  buf[0] = '\0';
  size_t used = 0;
#define APPEND(...) do { \
    if (used < len) { \
      int w_ = snprintf(buf + used, len - used, __VA_ARGS__); \
      if (w_ > 0) used += (size_t)w_; \
    } \
  } while (0)
  uint32_t n = p->n_levels < RF_PLAN_MAX_LEVELS ? p->n_levels : RF_PLAN_MAX_LEVELS;
  if (n == 0) APPEND("none");
  for (uint32_t i = 0; i < n; i++)
    APPEND("%s%s %llu", i ? " > " : "", level_name(p->level[i].kind),
           (unsigned long long)p->level[i].adds);
  APPEND(" (h=%llu", (unsigned long long)rf_plan_depth(p));
  if (p->rescales) APPEND(", rescales=%llu", (unsigned long long)p->rescales);
  if (p->div == RF_DIV_RECIP_MUL) APPEND(", div=recip-mul");
  if (p->exp == RF_EXP_FAST) APPEND(", exp=fast");
  APPEND(")");
#undef APPEND
}

/* The case model: enum names, defaults, element count, validation, equality. */
#include "case.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static const char *const op_names[RF_OP_COUNT] = {"sum", "max", "argmax", "softmax"};
static const char *const dist_names[RF_DIST_COUNT] = {
    "alternating", "ones",      "wide",      "negative",      "equal-max", "shifted-rows",
    "uniform",     "index-weighted", "spike", "subnormal", "near-overflow", "sorted",
    "overflow",    "nan-sprinkled", "inf-mixed", "signed-zero", "all-nan", "all-neg-inf", "ties"};
static const char *const sched_names[RF_SCHED_COUNT] = {"in-order", "reverse", "random",
                                                        "wave-skew"};

const char *rf_op_name(rf_op op) {
  return (unsigned)op < RF_OP_COUNT ? op_names[op] : NULL;
}
const char *rf_dist_name(rf_dist d) {
  return (unsigned)d < RF_DIST_COUNT ? dist_names[d] : NULL;
}
const char *rf_sched_name(rf_sched s) {
  return (unsigned)s < RF_SCHED_COUNT ? sched_names[s] : NULL;
}

static int find_name(const char *s, const char *const *names, int count) {
  if (!s) return -1;
  for (int i = 0; i < count; i++)
    if (strcmp(s, names[i]) == 0) return i;
  return -1;
}

int rf_op_parse(const char *s, rf_op *out) {
  int i = find_name(s, op_names, RF_OP_COUNT);
  if (i < 0) return -1;
  *out = (rf_op)i;
  return 0;
}
int rf_dist_parse(const char *s, rf_dist *out) {
  int i = find_name(s, dist_names, RF_DIST_COUNT);
  if (i < 0) return -1;
  *out = (rf_dist)i;
  return 0;
}
int rf_sched_parse(const char *s, rf_sched *out) {
  int i = find_name(s, sched_names, RF_SCHED_COUNT);
  if (i < 0) return -1;
  *out = (rf_sched)i;
  return 0;
}

void rf_case_default(rf_case *c) {
  memset(c, 0, sizeof *c); /* also clears the variant's tail, so memcmp-style users agree */
  c->op = RF_OP_SUM;
  c->n = 1027;             /* seed 000's boundary length: alternating input sums to 1 */
  c->seed = 1;             /* bit 0 set: the first alternating sign is +1 */
  c->dist = RF_DIST_ALTERNATING;
  c->sched = RF_SCHED_IN_ORDER;
  c->wave = 32;
}

uint64_t rf_case_elems(const rf_case *c) {
  return c->op == RF_OP_SOFTMAX ? (uint64_t)c->rows * c->cols : c->n;
}

/* Built-in limits for lim == NULL: generous, only there to keep arithmetic bounded. */
static const rf_limits default_limits = {UINT64_C(1) << 32, UINT64_C(1) << 32, 1u << 20};

/* A variant name character: printable ASCII except space (the text form trims it) and '#'
 * (the text form starts a comment there), so every valid name survives a text round trip. */
static int name_char_ok(unsigned char ch) {
  return ch > ' ' && ch < 0x7f && ch != '#';
}

/* The name with non-printable bytes escaped, for error messages. */
static void quote_name(const char *s, size_t max, char *buf, size_t buflen) {
  size_t o = 0;
  for (size_t i = 0; i < max && s[i] && o + 5 < buflen; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (ch >= ' ' && ch < 0x7f) buf[o++] = (char)ch;
    else o += (size_t)snprintf(buf + o, buflen - o, "\\x%02x", ch);
  }
  buf[o] = '\0';
}

static int variant_ok(const rf_case *c) {
  const char *v = c->variant;
  size_t len = 0;
  while (len < RF_VARIANT_NAME_MAX && v[len]) len++;
  if (len == 0) return 1;
  if (len >= RF_VARIANT_NAME_MAX) return 0;
  for (size_t i = 0; i < len; i++)
    if (!name_char_ok((unsigned char)v[i])) return 0;
  const char *opn = rf_op_name(c->op);
  size_t oplen = strlen(opn);
  /* "<op>/<name>" with a non-empty name */
  return len > oplen + 1 && strncmp(v, opn, oplen) == 0 && v[oplen] == '/';
}

#define FAIL(...) do { snprintf(err, errlen, __VA_ARGS__); return -1; } while (0)

int rf_case_validate(const rf_case *c, const rf_limits *lim, char *err, size_t errlen) {
  char dummy[1];
  if (!err || errlen == 0) { err = dummy; errlen = sizeof dummy; }
  if (!lim) lim = &default_limits;
  err[0] = '\0';

  if ((unsigned)c->op >= RF_OP_COUNT)
    FAIL("op: %d is out of range (allowed: 0..3 = sum, max, argmax, softmax)", (int)c->op);
  const char *opn = rf_op_name(c->op);
  if (c->op == RF_OP_SOFTMAX) {
    /* Each side is also kept within max_elems on its own, so an empty shape (one side 0)
     * cannot carry an arbitrarily large launch. */
    uint64_t max_cols = lim->max_cols < lim->max_elems ? lim->max_cols : lim->max_elems;
    if (c->n != 0)
      FAIL("n: %" PRIu64 " is out of range for softmax (allowed: 0; softmax uses rows and cols)",
           c->n);
    if (c->cols > max_cols)
      FAIL("cols: %" PRIu32 " is out of range (allowed: 0..%" PRIu64 ")", c->cols, max_cols);
    if (c->rows > lim->max_elems)
      FAIL("rows: %" PRIu32 " is out of range (allowed: 0..%" PRIu64 ")", c->rows,
           lim->max_elems);
    uint64_t elems = (uint64_t)c->rows * c->cols;
    if (elems > lim->max_elems)
      FAIL("rows*cols: %" PRIu32 "*%" PRIu32 " = %" PRIu64 " is out of range (allowed: 0..%" PRIu64
           ")", c->rows, c->cols, elems, lim->max_elems);
  } else {
    if (c->n > lim->max_n)
      FAIL("n: %" PRIu64 " is out of range (allowed: 0..%" PRIu64 ")", c->n, lim->max_n);
    if (c->rows != 0)
      FAIL("rows: %" PRIu32 " is out of range for %s (allowed: 0; only softmax has rows and cols)",
           c->rows, opn);
    if (c->cols != 0)
      FAIL("cols: %" PRIu32 " is out of range for %s (allowed: 0; only softmax has rows and cols)",
           c->cols, opn);
  }
  if ((unsigned)c->dist >= RF_DIST_COUNT)
    FAIL("dist: %d is out of range (allowed: 0..%d = alternating, ones, wide, negative, "
         "equal-max, shifted-rows, uniform, index-weighted, spike, subnormal, near-overflow, "
         "sorted, overflow, nan-sprinkled, inf-mixed, signed-zero, all-nan, all-neg-inf, ties)",
         (int)c->dist, RF_DIST_COUNT - 1);
  if (c->block > 1024)
    FAIL("block: %" PRIu32 " is out of range (allowed: 0 = variant default, or 1..1024)",
         c->block);
  if (c->grid > INT32_MAX)
    FAIL("grid: %" PRIu32 " is out of range (allowed: 0 = variant default, or 1..2147483647)",
         c->grid);
  if (c->items > 64)
    FAIL("items: %" PRIu32 " is out of range (allowed: 0 = variant default, or 1..64)",
         c->items);
  if ((unsigned)c->sched >= RF_SCHED_COUNT)
    FAIL("schedule: %d is out of range (allowed: 0..3 = in-order, reverse, random, wave-skew)",
         (int)c->sched);
  if (c->wave != 32 && c->wave != 64)
    FAIL("wave: %" PRIu32 " is out of range (allowed: 32 or 64)", c->wave);
  if (!variant_ok(c)) {
    char q[4 * RF_VARIANT_NAME_MAX + 8];
    quote_name(c->variant, RF_VARIANT_NAME_MAX, q, sizeof q);
    FAIL("variant: '%s' is not a valid name (allowed: \"\" = every variant, or \"%s/<name>\", "
         "at most %d printable characters without spaces or '#')", q, opn,
         RF_VARIANT_NAME_MAX - 1);
  }
  return 0;
}

int rf_case_equal(const rf_case *a, const rf_case *b) {
  return a->op == b->op && a->n == b->n && a->rows == b->rows && a->cols == b->cols &&
         a->seed == b->seed && a->dist == b->dist && a->block == b->block &&
         a->grid == b->grid && a->items == b->items && a->sched == b->sched &&
         a->wave == b->wave && strncmp(a->variant, b->variant, RF_VARIANT_NAME_MAX) == 0;
}

/* Text form of a case: "key=value" lines, '#' comments, "expect <variant> <verdict>" lines
 * (docs/CASE_FORMAT.md). Parsing is two passes over the lines: the first reads every line
 * and reports syntax errors in line order, the second checks the expect lines against the
 * case's op, which may be set on a later line than the expects. */
#include "case.h"

#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

enum { K_OP, K_N, K_ROWS, K_COLS, K_SEED, K_DIST, K_BLOCK, K_GRID, K_ITEMS, K_SCHEDULE,
       K_WAVE, K_VARIANT, K_COUNT };

/* Keys in the canonical order; "allowed" is shown when a value is not a number. */
static const struct { const char *name; const char *allowed; } keys[K_COUNT] = {
    {"op", "sum, max, argmax, softmax"},
    {"n", "0..4294967296"},
    {"rows", "0..4294967295"},
    {"cols", "0..1048576"},
    {"seed", "decimal or 0x hex, 0..18446744073709551615"},
    {"dist", "alternating, ones, wide, negative, equal-max, shifted-rows, uniform, "
             "index-weighted, spike, subnormal, near-overflow, sorted, overflow, nan-sprinkled, "
             "inf-mixed, signed-zero, all-nan, all-neg-inf, ties"},
    {"block", "0 or 1..1024"},
    {"grid", "0 or 1..2147483647"},
    {"items", "0 or 1..64"},
    {"schedule", "in-order, reverse, random, wave-skew"},
    {"wave", "32 or 64"},
    {"variant", "\"\" or \"<op>/<name>\""},
};
#define KEY_LIST "op, n, rows, cols, seed, dist, block, grid, items, schedule, wave, variant"

static const char *const verdicts[] = {
    "pass", "wrong", "nonfinite", "unwritten", "oob", "nondeterministic", "race",
    "divergent-barrier", "launch-error", "timeout", "unsupported"};
#define VERDICTS (sizeof verdicts / sizeof verdicts[0])
#define VERDICT_LIST "pass, wrong, nonfinite, unwritten, oob, nondeterministic, race, " \
                     "divergent-barrier, launch-error, timeout, unsupported"

/* A slice of the text: not NUL-terminated. */
typedef struct { const char *p; size_t len; } span;

static int is_space(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\v' || ch == '\f';
}

static span trim(span s) {
  while (s.len && is_space(s.p[0])) { s.p++; s.len--; }
  while (s.len && is_space(s.p[s.len - 1])) s.len--;
  return s;
}

static int span_is(span s, const char *word) {
  return strlen(word) == s.len && memcmp(s.p, word, s.len) == 0;
}

/* Shown values are cut at 80 characters so a runaway line cannot drown the message. */
#define SHOW(s) (int)((s).len < 80 ? (s).len : 80), (s).p

/* Next line of the text into *line (comment and surrounding space removed); 0 at the end. */
static int next_line(const char **cursor, span *line) {
  const char *p = *cursor;
  if (!*p) return 0;
  const char *end = strchr(p, '\n');
  if (!end) end = p + strlen(p);
  *cursor = *end ? end + 1 : end;
  const char *hash = memchr(p, '#', (size_t)(end - p));
  *line = trim((span){p, (size_t)((hash ? hash : end) - p)});
  return 1;
}

static void fail(char *err, size_t errlen, unsigned line, const char *fmt, ...) {
  int o = snprintf(err, errlen, "line %u: ", line);
  if (o < 0 || (size_t)o >= errlen) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(err + o, errlen - (size_t)o, fmt, ap);
  va_end(ap);
}

/* Decimal digits (or 0x hex when hex_ok) into *out. 0 ok, -1 not a number, -2 too large. */
static int parse_u64(span s, int hex_ok, uint64_t *out) {
  unsigned base = 10;
  if (hex_ok && s.len > 2 && s.p[0] == '0' && (s.p[1] == 'x' || s.p[1] == 'X')) {
    base = 16;
    s.p += 2;
    s.len -= 2;
  }
  if (s.len == 0) return -1;
  uint64_t v = 0;
  int too_large = 0;
  for (size_t i = 0; i < s.len; i++) {
    char ch = s.p[i];
    unsigned d;
    if (ch >= '0' && ch <= '9') d = (unsigned)(ch - '0');
    else if (base == 16 && ch >= 'a' && ch <= 'f') d = 10u + (unsigned)(ch - 'a');
    else if (base == 16 && ch >= 'A' && ch <= 'F') d = 10u + (unsigned)(ch - 'A');
    else return -1;
    if (v > (UINT64_MAX - d) / base) too_large = 1;
    else v = v * base + d;
  }
  *out = v;
  return too_large ? -2 : 0;
}

static void not_a_name(int k, span v, unsigned line, char *err, size_t errlen) {
  const char *what = k == K_OP ? "an op" : k == K_DIST ? "a distribution" : "a schedule";
  fail(err, errlen, line, "key '%s': value '%.*s' is not %s (allowed: %s)", keys[k].name,
       SHOW(v), what, keys[k].allowed);
}

/* Sets one field from its value. Returns 0, or -1 with the message in err. */
static int set_field(rf_case *c, int k, span v, unsigned line, char *err, size_t errlen) {
  if (k == K_OP || k == K_DIST || k == K_SCHEDULE || k == K_VARIANT) {
    char word[RF_VARIANT_NAME_MAX];
    if (v.len >= sizeof word) {
      if (k == K_VARIANT)
        fail(err, errlen, line, "key 'variant': value '%.*s' is too long (allowed: at most %d "
             "characters)", SHOW(v), RF_VARIANT_NAME_MAX - 1);
      else
        not_a_name(k, v, line, err, errlen);
      return -1;
    }
    memcpy(word, v.p, v.len);
    word[v.len] = '\0';
    int bad = 0;
    if (k == K_OP) bad = rf_op_parse(word, &c->op);
    else if (k == K_DIST) bad = rf_dist_parse(word, &c->dist);
    else if (k == K_SCHEDULE) bad = rf_sched_parse(word, &c->sched);
    else memcpy(c->variant, word, v.len + 1);
    if (bad) not_a_name(k, v, line, err, errlen);
    return bad ? -1 : 0;
  }
  uint64_t x;
  int r = parse_u64(v, k == K_SEED, &x);
  if (r == -1) {
    fail(err, errlen, line, "key '%s': value '%.*s' is not a number (allowed: %s)",
         keys[k].name, SHOW(v), keys[k].allowed);
    return -1;
  }
  /* n and seed are 64-bit; the other numbers are 32-bit fields. Range checks beyond the
   * field's width are left to rf_case_validate so both forms report them alike. */
  if (r == -2 || (k != K_N && k != K_SEED && x > UINT32_MAX)) {
    fail(err, errlen, line, "key '%s': value '%.*s' is out of range (allowed: %s)",
         keys[k].name, SHOW(v), keys[k].allowed);
    return -1;
  }
  switch (k) {
  case K_N: c->n = x; break;
  case K_ROWS: c->rows = (uint32_t)x; break;
  case K_COLS: c->cols = (uint32_t)x; break;
  case K_SEED: c->seed = x; break;
  case K_BLOCK: c->block = (uint32_t)x; break;
  case K_GRID: c->grid = (uint32_t)x; break;
  case K_ITEMS: c->items = (uint32_t)x; break;
  default: c->wave = (uint32_t)x; break;
  }
  return 0;
}

/* "expect <variant> <verdict>": 1 when the line is an expect line (then *var and *verdict
 * are set, or *var.p is NULL when the shape is wrong). */
static int split_expect(span line, span *var, span *verdict) {
  if (line.len < 6 || memcmp(line.p, "expect", 6) != 0 ||
      (line.len > 6 && !is_space(line.p[6])))
    return 0;
  span tok[3];
  int ntok = 0;
  size_t i = 6;
  while (i < line.len) {
    while (i < line.len && is_space(line.p[i])) i++;
    if (i == line.len) break;
    size_t start = i;
    while (i < line.len && !is_space(line.p[i])) i++;
    if (ntok == 3) { ntok++; break; }
    tok[ntok++] = (span){line.p + start, i - start};
  }
  var->p = NULL;
  if (ntok == 2) { *var = tok[0]; *verdict = tok[1]; }
  return 1;
}

static int verdict_known(span v) {
  for (size_t i = 0; i < VERDICTS; i++)
    if (span_is(v, verdicts[i])) return 1;
  return 0;
}

/* Field name at the start of a validation message -> the line that set it. */
static unsigned line_of_field(const char *msg, const unsigned *key_line) {
  if (strncmp(msg, "rows*cols:", 10) == 0)
    return key_line[K_ROWS] > key_line[K_COLS] ? key_line[K_ROWS] : key_line[K_COLS];
  for (int k = 0; k < K_COUNT; k++) {
    size_t len = strlen(keys[k].name);
    if (strncmp(msg, keys[k].name, len) == 0 && msg[len] == ':') return key_line[k];
  }
  return 0;
}

/* Pass 2: every expect names a variant of the case's op, at most once. */
static int check_expects(const char *text, const rf_case *c, rf_expect *expects,
                         size_t max_expects, size_t *count, char *err, size_t errlen) {
  const char *opn = rf_op_name(c->op);
  size_t oplen = strlen(opn);
  const char *cursor = text;
  span line, var, verdict;
  unsigned lineno = 0;
  size_t n = 0;
  while (next_line(&cursor, &line)) {
    lineno++;
    if (!split_expect(line, &var, &verdict)) continue;
    int named_ok = var.len < RF_VARIANT_NAME_MAX && var.len > oplen + 1 &&
                   memcmp(var.p, opn, oplen) == 0 && var.p[oplen] == '/';
    for (size_t i = 0; named_ok && i < var.len; i++)
      if ((unsigned char)var.p[i] <= ' ' || (unsigned char)var.p[i] >= 0x7f) named_ok = 0;
    if (!named_ok) {
      fail(err, errlen, lineno, "expect: variant '%.*s' is not a variant of op %s (allowed: "
           "\"%s/<name>\", at most %d printable characters)", SHOW(var), opn, opn,
           RF_VARIANT_NAME_MAX - 1);
      return -1;
    }
    /* an earlier expect for the same variant? */
    const char *c2 = text;
    span l2, v2, d2;
    for (unsigned ln2 = 1; ln2 < lineno && next_line(&c2, &l2); ln2++) {
      if (split_expect(l2, &v2, &d2) && v2.len == var.len && memcmp(v2.p, var.p, var.len) == 0) {
        fail(err, errlen, lineno, "expect: variant '%.*s' already has an expect on line %u",
             SHOW(var), ln2);
        return -1;
      }
    }
    if (expects) {
      if (n == max_expects) {
        fail(err, errlen, lineno, "expect: too many expect lines (allowed: at most %zu)",
             max_expects);
        return -1;
      }
      memcpy(expects[n].variant, var.p, var.len);
      expects[n].variant[var.len] = '\0';
      memcpy(expects[n].verdict, verdict.p, verdict.len);
      expects[n].verdict[verdict.len] = '\0';
    }
    n++;
  }
  *count = n;
  return 0;
}

int rf_case_parse_text(const char *text, rf_case *out, rf_expect *expects, size_t max_expects,
                       size_t *n_expects, char *err, size_t errlen) {
  char dummy[1];
  if (!err || errlen == 0) { err = dummy; errlen = sizeof dummy; }
  err[0] = '\0';
  if (n_expects) *n_expects = 0;
  if (!text) text = "";

  rf_case c;
  rf_case_default(&c);
  unsigned key_line[K_COUNT] = {0};
  const char *cursor = text;
  span line, var, verdict;
  unsigned lineno = 0;
  while (next_line(&cursor, &line)) {
    lineno++;
    if (line.len == 0) continue;
    if (split_expect(line, &var, &verdict)) {
      if (!var.p) {
        fail(err, errlen, lineno, "expect: '%.*s' is not 'expect <variant> <verdict>'",
             SHOW(line));
        return -1;
      }
      if (!verdict_known(verdict)) {
        fail(err, errlen, lineno, "expect: verdict '%.*s' is unknown (allowed: " VERDICT_LIST
             ")", SHOW(verdict));
        return -1;
      }
      continue;
    }
    const char *eq = memchr(line.p, '=', line.len);
    if (!eq) {
      fail(err, errlen, lineno, "'%.*s' is not key=value (allowed: key=value, "
           "expect <variant> <verdict>, # comment)", SHOW(line));
      return -1;
    }
    span key = trim((span){line.p, (size_t)(eq - line.p)});
    span value = trim((span){eq + 1, line.len - (size_t)(eq - line.p) - 1});
    int k = 0;
    while (k < K_COUNT && !span_is(key, keys[k].name)) k++;
    if (k == K_COUNT) {
      fail(err, errlen, lineno, "unknown key '%.*s' (allowed: " KEY_LIST ")", SHOW(key));
      return -1;
    }
    if (key_line[k]) {
      fail(err, errlen, lineno, "key '%s' is repeated (first on line %u)", keys[k].name,
           key_line[k]);
      return -1;
    }
    key_line[k] = lineno;
    if (set_field(&c, k, value, lineno, err, errlen)) return -1;
  }
  /* softmax has no n: a missing n means 0 there, not the 1-D default */
  if (c.op == RF_OP_SOFTMAX && !key_line[K_N]) c.n = 0;

  char msg[512];
  if (rf_case_validate(&c, NULL, msg, sizeof msg)) {
    fail(err, errlen, line_of_field(msg, key_line), "%s", msg);
    return -1;
  }
  size_t count = 0;
  if (check_expects(text, &c, expects, max_expects, &count, err, errlen)) return -1;
  if (n_expects) *n_expects = count;
  *out = c;
  return 0;
}

void rf_case_write_text(const rf_case *c, FILE *f) {
  const char *op = rf_op_name(c->op), *dist = rf_dist_name(c->dist);
  const char *sched = rf_sched_name(c->sched);
  fprintf(f, "op=%s\nn=%" PRIu64 "\nrows=%" PRIu32 "\ncols=%" PRIu32 "\nseed=%" PRIu64 "\n",
          op ? op : "?", c->n, c->rows, c->cols, c->seed);
  fprintf(f, "dist=%s\nblock=%" PRIu32 "\ngrid=%" PRIu32 "\nitems=%" PRIu32 "\n",
          dist ? dist : "?", c->block, c->grid, c->items);
  fprintf(f, "schedule=%s\nwave=%" PRIu32 "\nvariant=%.*s\n", sched ? sched : "?", c->wave,
          RF_VARIANT_NAME_MAX - 1, c->variant);
}

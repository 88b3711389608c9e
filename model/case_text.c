/* Text form of a case: "key=value" lines, '#' comments, "expect <variant> <verdict>" lines
 * (docs/CASE_FORMAT.md). Parsing is two passes over the lines: the first reads every line
 * and reports syntax errors in line order, the second checks the expect lines against the
 * case's op, which may be set on a later line than the expects. */
#include "case.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "verdict.h"

/* Keys are the field table's (case_fields.def); K_<key> is the field's index. */
enum {
#define RF_CASE_FIELD(key, member, ctype, type, lo, hi, dflt, input, help) K_##key,
#include "case_fields.def"
#undef RF_CASE_FIELD
  K_COUNT
};

/* "op, n, rows, ..." built once from the table. */
static const char *key_list(void) {
  static char buf[RF_FIELD_COUNT * 16];
  size_t o = 0;
  if (buf[0]) return buf;
  for (int k = 0; k < K_COUNT; k++)
    o += (size_t)snprintf(buf + o, sizeof buf - o, "%s%s", k ? ", " : "", rf_fields[k].key);
  return buf;
}

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

/* Sets one field from its value. Returns 0, or -1 with the message in err. */
static int set_field(rf_case *c, int k, span v, unsigned line, char *err, size_t errlen) {
  char word[RF_CASE_LIST_MAX], why[512];
  if (v.len >= sizeof word) {
    fail(err, errlen, line, "key '%s': value '%.*s...' is too long (allowed: at most %zu "
         "characters)", rf_fields[k].key, SHOW(v), sizeof word - 1);
    return -1;
  }
  memcpy(word, v.p, v.len);
  word[v.len] = '\0';
  if (rf_field_set(c, &rf_fields[k], word, why, sizeof why) == 0) return 0;
  fail(err, errlen, line, "key '%s': value %s", rf_fields[k].key, why);
  return -1;
}

/* A name of RF_EXPECT_BACKENDS ("sim, cuda, hip"). */
static int backend_known(span b) {
  for (const char *l = RF_EXPECT_BACKENDS; *l;) {
    size_t k = strcspn(l, ", ");
    if (k == b.len && memcmp(l, b.p, k) == 0) return 1;
    l += k;
    while (*l == ',' || *l == ' ') l++;
  }
  return 0;
}

/* "expect <variant> <verdict> [on <backend>]": 1 when the line is an expect line (then *var,
 * *verdict and *scope are set, scope empty without "on", or *var.p is NULL when the shape is
 * wrong or the backend unknown). */
static int split_expect(span line, span *var, span *verdict, span *scope) {
  if (line.len < 6 || memcmp(line.p, "expect", 6) != 0 ||
      (line.len > 6 && !is_space(line.p[6])))
    return 0;
  span tok[5];
  int ntok = 0;
  size_t i = 6;
  while (i < line.len) {
    while (i < line.len && is_space(line.p[i])) i++;
    if (i == line.len) break;
    size_t start = i;
    while (i < line.len && !is_space(line.p[i])) i++;
    if (ntok == 5) { ntok++; break; }
    tok[ntok++] = (span){line.p + start, i - start};
  }
  var->p = NULL;
  *scope = (span){line.p, 0};
  if (ntok == 4 && !(span_is(tok[2], "on") && backend_known(tok[3]))) return 1;
  if (ntok == 2 || ntok == 4) { *var = tok[0]; *verdict = tok[1]; }
  if (ntok == 4) *scope = tok[3];
  return 1;
}

int rf_expect_applies(const rf_expect *e, const char *backend, int is_sim) {
  if (e->backend[0]) return strcmp(e->backend, backend) == 0;
  rf_verdict v;
  return is_sim || rf_verdict_parse(e->verdict, &v) != 0 || !rf_verdict_sim_only(v);
}

int rf_expect_overridden(const rf_expect *ex, size_t n, size_t i, const char *backend) {
  if (ex[i].backend[0]) return 0;
  for (size_t k = 0; k < n; k++)
    if (k != i && strcmp(ex[k].backend, backend) == 0 &&
        strcmp(ex[k].variant, ex[i].variant) == 0)
      return 1;
  return 0;
}

int rf_expect_matches(const rf_expect *e, rf_verdict v) {
  if (strcmp(e->verdict, RF_EXPECT_FAIL) == 0) return rf_verdict_is_failure(v);
  return strcmp(e->verdict, rf_verdict_name(v)) == 0;
}

int rf_expect_wants_failure(const rf_expect *e) {
  rf_verdict v;
  if (strcmp(e->verdict, RF_EXPECT_FAIL) == 0) return 1;
  return rf_verdict_parse(e->verdict, &v) == 0 && rf_verdict_is_failure(v);
}

static int verdict_known(span v) {
  char word[32];
  rf_verdict unused;
  if (v.len >= sizeof word) return 0;
  memcpy(word, v.p, v.len);
  word[v.len] = '\0';
  return rf_verdict_parse(word, &unused) == 0 || strcmp(word, RF_EXPECT_FAIL) == 0;
}

/* Field name at the start of a validation message -> the line that set it. */
static unsigned line_of_field(const char *msg, const unsigned *key_line) {
  if (strncmp(msg, "rows*cols:", 10) == 0)
    return key_line[K_rows] > key_line[K_cols] ? key_line[K_rows] : key_line[K_cols];
  for (int k = 0; k < K_COUNT; k++) {
    size_t len = strlen(rf_fields[k].key);
    if (strncmp(msg, rf_fields[k].key, len) == 0 && msg[len] == ':') return key_line[k];
  }
  return 0;
}

/* Pass 2: every expect names a variant of the case's op, at most once per scope (one line for
 * every backend, and one per backend named by "on": rf_expect_overridden). Duplicates are found
 * by sorting the (name, scope) pairs (n log n): a pairwise scan took a minute on 80,000
 * expect lines. */
typedef struct { span var, scope; unsigned line; } named;

static int span_cmp(span a, span b) {
  size_t m = a.len < b.len ? a.len : b.len;
  int c = memcmp(a.p, b.p, m);
  if (c) return c;
  return a.len == b.len ? 0 : a.len < b.len ? -1 : 1;
}

static int same_key(const named *a, const named *b) {
  return span_cmp(a->var, b->var) == 0 && span_cmp(a->scope, b->scope) == 0;
}

static int named_cmp(const void *pa, const void *pb) {
  const named *a = pa, *b = pb;
  int c = span_cmp(a->var, b->var);
  if (!c) c = span_cmp(a->scope, b->scope);
  if (c) return c;
  return (a->line > b->line) - (a->line < b->line);
}

static int check_expects(const char *text, const rf_case *c, rf_expect *expects,
                         size_t max_expects, size_t *count, char *err, size_t errlen) {
  const char *opn = rf_op_name(c->op);
  size_t oplen = strlen(opn);
  const char *cursor = text;
  span line, var, verdict, scope;
  unsigned lineno = 0;
  size_t n = 0, cap = 0;
  named *all = NULL;
  int rc = 0;
  while (rc == 0 && next_line(&cursor, &line)) {
    lineno++;
    if (!split_expect(line, &var, &verdict, &scope)) continue;
    int named_ok = var.len < RF_VARIANT_NAME_MAX && var.len > oplen + 1 &&
                   memcmp(var.p, opn, oplen) == 0 && var.p[oplen] == '/';
    for (size_t i = 0; named_ok && i < var.len; i++)
      if (!rf_name_char_ok((unsigned char)var.p[i])) named_ok = 0;
    if (!named_ok) {
      fail(err, errlen, lineno, "expect: variant '%.*s' is not a variant of op %s (allowed: "
           "\"%s/<name>\", at most %d printable characters)", SHOW(var), opn, opn,
           RF_VARIANT_NAME_MAX - 1);
      rc = -1;
      break;
    }
    if (expects && n == max_expects) {
      fail(err, errlen, lineno, "expect: too many expect lines (allowed: at most %zu)",
           max_expects);
      rc = -1;
      break;
    }
    if (n == cap) {
      size_t ncap = cap ? 2 * cap : 64;
      named *na = realloc(all, ncap * sizeof *na);
      if (!na) { fail(err, errlen, lineno, "expect: out of memory"); rc = -1; break; }
      all = na;
      cap = ncap;
    }
    all[n] = (named){var, scope, lineno};
    if (expects) {
      memcpy(expects[n].variant, var.p, var.len);
      expects[n].variant[var.len] = '\0';
      memcpy(expects[n].verdict, verdict.p, verdict.len);
      expects[n].verdict[verdict.len] = '\0';
      memcpy(expects[n].backend, scope.p, scope.len);   /* "sim", "cuda", "hip" or nothing */
      expects[n].backend[scope.len] = '\0';
    }
    n++;
  }
  if (rc == 0 && n > 1) {
    qsort(all, n, sizeof *all, named_cmp);
    const named *dup = NULL, *first = NULL;
    for (size_t i = 1; i < n; i++)
      if (same_key(&all[i], &all[i - 1]) && (!dup || all[i].line < dup->line)) {
        dup = &all[i];
        first = &all[i - 1];
        while (first > all && same_key(&first[-1], dup)) first--;
      }
    if (dup) {
      fail(err, errlen, dup->line, "expect: variant '%.*s' already has an expect%s%.*s on line %u",
           SHOW(dup->var), dup->scope.len ? " on " : "", SHOW(dup->scope), first->line);
      rc = -1;
    }
  }
  free(all);
  if (rc == 0) *count = n;
  return rc;
}

int rf_case_parse_text(const char *text, rf_case *out, rf_expect *expects, size_t max_expects,
                       size_t *n_expects, char *err, size_t errlen) {
  return rf_case_parse_text_len(text, text ? strlen(text) : 0, out, expects, max_expects,
                                n_expects, err, errlen);
}

int rf_case_parse_text_len(const char *text, size_t len, rf_case *out, rf_expect *expects,
                           size_t max_expects, size_t *n_expects, char *err, size_t errlen) {
  char dummy[1];
  if (!err || errlen == 0) { err = dummy; errlen = sizeof dummy; }
  err[0] = '\0';
  if (n_expects) *n_expects = 0;
  if (!text) text = "";
  /* Text only: a NUL byte would end the parse early and silently drop what follows, and
   * control bytes mean a binary fuzz input (redfuzz decode turns one into a case). */
  for (size_t i = 0; i < len; i++) {
    unsigned char ch = (unsigned char)text[i];
    if (ch == 0 || (ch < 32 && ch != '\n' && ch != '\t' && ch != '\r' && ch != '\v' &&
                    ch != '\f') || ch == 0x7f) {
      unsigned line = 1;
      for (size_t j = 0; j < i; j++) line += text[j] == '\n';
      fail(err, errlen, line, "byte 0x%02x at offset %zu is not text (allowed: a text case, "
           "key=value lines; a binary fuzz input is read with 'redfuzz decode')", ch, i);
      return -1;
    }
  }
  /* A UTF-8 byte-order mark (editors on some systems write one) is not part of the first
   * key. */
  if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) text += 3;

  rf_case c;
  rf_case_default(&c);
  unsigned key_line[K_COUNT] = {0};
  const char *cursor = text;
  span line, var, verdict, scope;
  unsigned lineno = 0;
  while (next_line(&cursor, &line)) {
    lineno++;
    if (line.len == 0) continue;
    if (split_expect(line, &var, &verdict, &scope)) {
      if (!var.p) {
        fail(err, errlen, lineno, "expect: '%.*s' is not 'expect <variant> <verdict>' or "
             "'expect <variant> <verdict> on <backend>' (backends: " RF_EXPECT_BACKENDS ")",
             SHOW(line));
        return -1;
      }
      if (!verdict_known(verdict)) {
        fail(err, errlen, lineno, "expect: verdict '%.*s' is unknown (allowed: %s, or the class "
             RF_EXPECT_FAIL ")", SHOW(verdict), rf_verdict_list());
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
    while (k < K_COUNT && !span_is(key, rf_fields[k].key)) k++;
    if (k == K_COUNT) {
      fail(err, errlen, lineno, "unknown key '%.*s' (allowed: %s)", SHOW(key), key_list());
      return -1;
    }
    if (key_line[k]) {
      fail(err, errlen, lineno, "key '%s' is repeated (first on line %u)", rf_fields[k].key,
           key_line[k]);
      return -1;
    }
    key_line[k] = lineno;
    if (set_field(&c, k, value, lineno, err, errlen)) return -1;
  }
  /* the row ops have no n: a missing n means 0 there, not the 1-D default */
  if (rf_op_has_rows(c.op) && !key_line[K_n]) c.n = 0;
  /* Before the misalign key, the runner misaligned every input by seed bits 62..63: a file
   * without the key keeps that meaning. */
  if (!key_line[K_misalign]) c.misalign = RF_CASE_LEGACY_MISALIGN(c.seed);

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
  for (int k = 0; k < K_COUNT; k++) {
    char v[RF_FIELD_TEXT_MAX];
    if (!rf_field_shown(c, &rf_fields[k])) continue;   /* an empty list: as before it existed */
    rf_field_format(c, &rf_fields[k], v, sizeof v);
    fprintf(f, "%s=%s\n", rf_fields[k].key, v);
  }
}

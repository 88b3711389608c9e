/* The case model, driven by its tables (case_fields.def, dists.def, schedules.def): names,
 * defaults, the field table, setting and printing fields, validation, equality, JSON. */
#include "case.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include "number.h"
#include "dtype.h"

static const char *const op_names[RF_OP_COUNT] = {"sum",       "max",        "argmax",
                                                    "softmax",   "logsumexp",  "logsoftmax",
                                                    "min",       "argmin"};
static const char *const dist_names[RF_DIST_COUNT] = {
#define RF_DIST(id, name, since, sparse, golden_1d, golden_rows, meaning) name,
#include "dists.def"
#undef RF_DIST
};
static const char *const dist_meanings[RF_DIST_COUNT] = {
#define RF_DIST(id, name, since, sparse, golden_1d, golden_rows, meaning) meaning,
#include "dists.def"
#undef RF_DIST
};
static const unsigned char dist_sparse[RF_DIST_COUNT] = {
#define RF_DIST(id, name, since, sparse, golden_1d, golden_rows, meaning) sparse,
#include "dists.def"
#undef RF_DIST
};
static const char *const sched_names[RF_SCHED_COUNT] = {
#define RF_SCHED(id, name, meaning) name,
#include "schedules.def"
#undef RF_SCHED
};

const rf_field rf_fields[RF_FIELD_COUNT] = {
#define RF_CASE_FIELD(key, member, ctype, type, lo, hi, dflt, input, help) \
  {#key, type, (uint64_t)(lo), (uint64_t)(hi), (uint64_t)(dflt), input, help,     \
   offsetof(rf_case, member)},
#include "case_fields.def"
#undef RF_CASE_FIELD
};

const char *rf_op_name(rf_op op) { return (unsigned)op < RF_OP_COUNT ? op_names[op] : NULL; }
const char *rf_dist_name(rf_dist d) { return (unsigned)d < RF_DIST_COUNT ? dist_names[d] : NULL; }
const char *rf_dist_meaning(rf_dist d) {
  return (unsigned)d < RF_DIST_COUNT ? dist_meanings[d] : NULL;
}
int rf_dist_is_sparse(rf_dist d) { return (unsigned)d < RF_DIST_COUNT && dist_sparse[d]; }

int rf_case_is_sparse(const rf_case *c) {
  return rf_dist_is_sparse(c->dist) && (!rf_op_has_rows(c->op) || c->op == RF_OP_LOGSUMEXP);
}
const char *rf_sched_name(rf_sched s) {
  return (unsigned)s < RF_SCHED_COUNT ? sched_names[s] : NULL;
}

static int find_name(const char *s, const char *const *names, int count) {
  for (int i = 0; s && i < count; i++)
    if (strcmp(s, names[i]) == 0) return i;
  return -1;
}
#define PARSER(fn, type, names, count)            \
  int fn(const char *s, type *out) {              \
    int i = find_name(s, names, count);           \
    if (i < 0) return -1;                         \
    *out = (type)i;                               \
    return 0;                                     \
  }
PARSER(rf_op_parse, rf_op, op_names, RF_OP_COUNT)
PARSER(rf_dist_parse, rf_dist, dist_names, RF_DIST_COUNT)
PARSER(rf_sched_parse, rf_sched, sched_names, RF_SCHED_COUNT)

/* "a, b, c" of a name table, built once (the tables are constant). */
static const char *join(const char *const *names, int count, char *buf, size_t len) {
  if (buf[0]) return buf;
  size_t o = 0;
  for (int i = 0; i < count && o < len; i++)
    o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", names[i]);
  return buf;
}
const char *rf_dist_list(void) {
  static char buf[RF_DIST_COUNT * 24];
  return join(dist_names, RF_DIST_COUNT, buf, sizeof buf);
}
const char *rf_sched_list(void) {
  static char buf[RF_SCHED_COUNT * 24];
  return join(sched_names, RF_SCHED_COUNT, buf, sizeof buf);
}
const char *rf_op_list(void) {
  static char buf[RF_OP_COUNT * 24];
  return join(op_names, RF_OP_COUNT, buf, sizeof buf);
}
const char *rf_op_list_of(int rows, const char *last, char *buf, size_t len) {
  size_t used = 0, k = 0, count = 0;
  for (int op = 0; op < RF_OP_COUNT; op++) count += !rf_op_has_rows((rf_op)op) == !rows;
  buf[0] = 0;
  for (int op = 0; op < RF_OP_COUNT && used < len; op++) {
    if (!rf_op_has_rows((rf_op)op) != !rows) continue;
    const char *sep = k == 0 ? "" : k + 1 == count ? last : ", ";
    int w = snprintf(buf + used, len - used, "%s%s", sep, op_names[op]);
    if (w < 0) break;
    used += (size_t)w;
    k++;
  }
  return buf;
}

const rf_field *rf_field_find(const char *key) {
  for (int i = 0; key && i < RF_FIELD_COUNT; i++)
    if (strcmp(rf_fields[i].key, key) == 0) return &rf_fields[i];
  return NULL;
}

void rf_field_allowed(const rf_field *f, char *buf, size_t len) {
  switch (f->type) {
  case RF_FT_OP: snprintf(buf, len, "%s", rf_op_list()); break;
  case RF_FT_DIST: snprintf(buf, len, "%s", rf_dist_list()); break;
  case RF_FT_SCHED: snprintf(buf, len, "%s", rf_sched_list()); break;
  case RF_FT_DTYPE: snprintf(buf, len, "%s", rf_dtype_list()); break;
  case RF_FT_WAVE: snprintf(buf, len, "32 or 64"); break;
  case RF_FT_NAME:
    snprintf(buf, len, "\"\" or \"<op>/<name>\", at most %d printable characters without "
             "spaces or '#'", RF_VARIANT_NAME_MAX - 1);
    break;
  case RF_FT_LIST:
    snprintf(buf, len, "\"\" or names separated by ',', no empty name, at most %d printable "
             "characters without spaces or '#'", RF_CASE_LIST_MAX - 1);
    break;
  default: rf_num_range_text(f->lo, f->hi, buf, len); break;
  }
}

#define MEMBER(c, f, type) ((type *)((char *)(c) + (f)->offset))
#define CMEMBER(c, f, type) ((const type *)((const char *)(c) + (f)->offset))

/* The value as shown in messages: cut at 60 characters, control bytes as \xNN. */
static void quote(const char *s, size_t max, char *buf, size_t buflen) {
  size_t o = 0;
  for (size_t i = 0; i < max && s[i] && o + 5 < buflen; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (i == 80) { o += (size_t)snprintf(buf + o, buflen - o, "..."); break; }
    if (ch >= ' ' && ch < 0x7f) buf[o++] = (char)ch;
    else o += (size_t)snprintf(buf + o, buflen - o, "\\x%02x", ch);
  }
  buf[o] = '\0';
}

void rf_text_escape(const char *s, char *buf, size_t buflen) {
  size_t o = 0;
  if (!buflen) return;
  for (size_t i = 0; s[i]; i++) {
    unsigned char ch = (unsigned char)s[i];
    if (o + 8 >= buflen) { snprintf(buf + o, buflen - o, "..."); return; }
    if (ch >= ' ' && ch < 0x7f && ch != '\\') buf[o++] = (char)ch;
    else o += (size_t)snprintf(buf + o, buflen - o, "\\x%02x", ch);
  }
  buf[o] = '\0';
}

/* "'TEXT' is WHAT (allowed: ...)" for a value field f refused; formatted only on the error
 * path (every field of every case file and flag goes through rf_field_set). */
static int refuse(const rf_field *f, const char *text, const char *what, char *why,
                  size_t whylen) {
  char allowed[400], q[256];
  rf_field_allowed(f, allowed, sizeof allowed);
  quote(text, SIZE_MAX, q, sizeof q);
  snprintf(why, whylen, "'%s' is %s (allowed: %s)", q, what, allowed);
  return -1;
}

/* A list field's value: at most RF_CASE_LIST_MAX - 1 characters, names of rf_name_char_ok
 * characters separated by single commas (none empty). 1 when it is one. */
static int list_ok(const char *s) {
  size_t len = strnlen(s, RF_CASE_LIST_MAX);
  if (len >= RF_CASE_LIST_MAX) return 0;
  for (size_t i = 0; i < len; i++) {
    const unsigned char ch = (unsigned char)s[i];
    if (ch == ',' ? i == 0 || i + 1 == len || s[i + 1] == ',' : !rf_name_char_ok(ch)) return 0;
  }
  return 1;
}

int rf_field_set(rf_case *c, const rf_field *f, const char *text, char *why, size_t whylen) {
  uint64_t v = 0;
  switch (f->type) {
  case RF_FT_OP:
    return rf_op_parse(text, MEMBER(c, f, rf_op)) ? refuse(f, text, "not an op", why, whylen) : 0;
  case RF_FT_DIST:
    return rf_dist_parse(text, MEMBER(c, f, rf_dist))
               ? refuse(f, text, "not a distribution", why, whylen) : 0;
  case RF_FT_SCHED:
    return rf_sched_parse(text, MEMBER(c, f, rf_sched))
               ? refuse(f, text, "not a schedule", why, whylen) : 0;
  case RF_FT_DTYPE:
    return rf_dtype_parse(text, MEMBER(c, f, rf_dtype))
               ? refuse(f, text, "not an element type", why, whylen) : 0;
  case RF_FT_NAME:
    if (strlen(text) >= RF_VARIANT_NAME_MAX) {
      char q[256];
      quote(text, SIZE_MAX, q, sizeof q);
      snprintf(why, whylen, "'%s' is too long (allowed: at most %d characters)", q,
               RF_VARIANT_NAME_MAX - 1);
      return -1;
    }
    snprintf(*MEMBER(c, f, rf_variant_name), RF_VARIANT_NAME_MAX, "%s", text);
    return 0;
  case RF_FT_LIST:
    if (!list_ok(text)) return refuse(f, text, "not a list of names", why, whylen);
    snprintf(*MEMBER(c, f, rf_case_list), RF_CASE_LIST_MAX, "%s", text);
    return 0;
  default:
    if (rf_num_parse(text, f->lo, f->hi, &v, why, whylen)) return -1;
    if (f->type == RF_FT_WAVE && v != 32 && v != 64)
      return refuse(f, text, "out of range", why, whylen);
    if (f->type == RF_FT_U64) *MEMBER(c, f, uint64_t) = v;
    else *MEMBER(c, f, uint32_t) = (uint32_t)v;
    return 0;
  }
}

void rf_field_put(rf_case *c, const rf_field *f, uint64_t v) {
  switch (f->type) {
  case RF_FT_OP: *MEMBER(c, f, rf_op) = (rf_op)v; break;
  case RF_FT_DIST: *MEMBER(c, f, rf_dist) = (rf_dist)v; break;
  case RF_FT_SCHED: *MEMBER(c, f, rf_sched) = (rf_sched)v; break;
  case RF_FT_DTYPE: *MEMBER(c, f, rf_dtype) = (rf_dtype)v; break;
  case RF_FT_U64: *MEMBER(c, f, uint64_t) = v; break;
  case RF_FT_NAME: case RF_FT_LIST: break;
  default: *MEMBER(c, f, uint32_t) = (uint32_t)v; break;
  }
}

void rf_field_format(const rf_case *c, const rf_field *f, char *buf, size_t len) {
  const char *name = NULL;
  switch (f->type) {
  case RF_FT_OP: name = rf_op_name(*CMEMBER(c, f, rf_op)); break;
  case RF_FT_DIST: name = rf_dist_name(*CMEMBER(c, f, rf_dist)); break;
  case RF_FT_SCHED: name = rf_sched_name(*CMEMBER(c, f, rf_sched)); break;
  case RF_FT_DTYPE: name = rf_dtype_name(*CMEMBER(c, f, rf_dtype)); break;
  case RF_FT_NAME:
    snprintf(buf, len, "%.*s", RF_VARIANT_NAME_MAX - 1, *CMEMBER(c, f, rf_variant_name));
    return;
  case RF_FT_LIST:
    snprintf(buf, len, "%.*s", RF_CASE_LIST_MAX - 1, *CMEMBER(c, f, rf_case_list));
    return;
  case RF_FT_U64: snprintf(buf, len, "%" PRIu64, *CMEMBER(c, f, uint64_t)); return;
  default: snprintf(buf, len, "%" PRIu32, *CMEMBER(c, f, uint32_t)); return;
  }
  snprintf(buf, len, "%s", name ? name : "?");
}

int rf_field_shown(const rf_case *c, const rf_field *f) {
  return f->type != RF_FT_LIST || (*CMEMBER(c, f, rf_case_list))[0] != '\0';
}

void rf_case_default(rf_case *c) {
  memset(c, 0, sizeof *c); /* also clears the variant's tail, so memcmp-style users agree */
  for (int i = 0; i < RF_FIELD_COUNT; i++) {
    const rf_field *f = &rf_fields[i];
    switch (f->type) {
    case RF_FT_OP: *MEMBER(c, f, rf_op) = (rf_op)f->dflt; break;
    case RF_FT_DIST: *MEMBER(c, f, rf_dist) = (rf_dist)f->dflt; break;
    case RF_FT_SCHED: *MEMBER(c, f, rf_sched) = (rf_sched)f->dflt; break;
    case RF_FT_DTYPE: *MEMBER(c, f, rf_dtype) = (rf_dtype)f->dflt; break;
    case RF_FT_NAME: case RF_FT_LIST: break;   /* "" */
    case RF_FT_U64: *MEMBER(c, f, uint64_t) = f->dflt; break;
    default: *MEMBER(c, f, uint32_t) = (uint32_t)f->dflt; break;
    }
  }
}

uint32_t rf_case_misalign_max(rf_dtype d) {
  unsigned b = rf_dtype_bytes(d);
  return b ? 16 / b - 1 : 0;
}

uint64_t rf_case_elems(const rf_case *c) {
  return rf_op_has_rows(c->op) ? (uint64_t)c->rows * c->cols : c->n;
}

int rf_limits_shape_past_dense(const rf_limits *lim, uint64_t rows, uint64_t cols) {
  return rows * cols > lim->max_elems || cols > lim->max_cols;   /* both below 2^32: no wrap */
}

int rf_limits_n_past_dense(const rf_limits *lim, uint64_t n) { return n > lim->max_n; }

int rf_case_past_dense(const rf_case *c, const rf_limits *lim) {
  return rf_op_has_rows(c->op) ? rf_limits_shape_past_dense(lim, c->rows, c->cols)
                               : rf_limits_n_past_dense(lim, c->n);
}

/* Built-in limits for lim == NULL: the model's own ranges (a backend holds cases within its
 * memory: run/runner.c). */
static const rf_limits default_limits = {RF_CASE_MAX_N, UINT64_C(1) << 32, 1u << 20, 0};

/* A variant name character: printable ASCII except space (the text form trims it) and '#'
 * (the text form starts a comment there), so every valid name survives a text round trip.
 * Plugins' names follow the same rule (kernels/plugin_loader.c). */
int rf_name_char_ok(unsigned char ch) { return ch > ' ' && ch < 0x7f && ch != '#'; }

static int variant_ok(const rf_case *c) {
  const char *v = c->variant;
  size_t len = strnlen(v, RF_VARIANT_NAME_MAX);
  if (len == 0) return 1;
  if (len >= RF_VARIANT_NAME_MAX) return 0;
  for (size_t i = 0; i < len; i++)
    if (!rf_name_char_ok((unsigned char)v[i])) return 0;
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
  char allowed[400];

  /* Every field inside its table range first: names in range, numbers within lo..hi. */
  for (int i = 0; i < RF_FIELD_COUNT; i++) {
    const rf_field *f = &rf_fields[i];
    unsigned e;
    switch (f->type) {
    case RF_FT_OP: e = (unsigned)*CMEMBER(c, f, rf_op); if (e >= RF_OP_COUNT) break; continue;
    case RF_FT_DIST: e = (unsigned)*CMEMBER(c, f, rf_dist); if (e >= RF_DIST_COUNT) break; continue;
    case RF_FT_SCHED: e = (unsigned)*CMEMBER(c, f, rf_sched); if (e >= RF_SCHED_COUNT) break; continue;
    case RF_FT_DTYPE: e = (unsigned)*CMEMBER(c, f, rf_dtype); if (e >= RF_DTYPE_COUNT) break; continue;
    case RF_FT_NAME: continue;
    case RF_FT_LIST: {
      if (list_ok(*CMEMBER(c, f, rf_case_list))) continue;
      char q[4 * RF_VARIANT_NAME_MAX + 8];
      quote(*CMEMBER(c, f, rf_case_list), RF_CASE_LIST_MAX, q, sizeof q);
      rf_field_allowed(f, allowed, sizeof allowed);
      FAIL("%s: '%s' is not a list of names (allowed: %s)", f->key, q, allowed);
    }
    default: {
      uint64_t v = f->type == RF_FT_U64 ? *CMEMBER(c, f, uint64_t) : *CMEMBER(c, f, uint32_t);
      if (v >= f->lo && v <= f->hi && (f->type != RF_FT_WAVE || v == 32 || v == 64)) continue;
      rf_field_allowed(f, allowed, sizeof allowed);
      FAIL("%s: %" PRIu64 " is out of range (allowed: %s)", f->key, v, allowed);
    }
    }
    rf_field_allowed(f, allowed, sizeof allowed);
    FAIL("%s: %u is out of range (allowed: %s)", f->key, e, allowed);
  }

  /* Then the rules between fields and the backend's limits. */
  const char *opn = rf_op_name(c->op);
  if (rf_op_has_rows(c->op)) {
    /* Each side is also kept within max_elems on its own, so an empty shape (one side 0)
     * cannot carry an arbitrarily large launch. */
    uint64_t max_cols = lim->max_cols < lim->max_elems ? lim->max_cols : lim->max_elems;
    uint64_t max_elems = lim->max_elems;
    if (rf_case_is_sparse(c)) {   /* one row held on the host; rows*cols like a sparse n */
      if (max_cols < RF_CASE_MAX_SPARSE_COLS) max_cols = RF_CASE_MAX_SPARSE_COLS;
      if (max_elems < RF_CASE_MAX_N) max_elems = RF_CASE_MAX_N;
    }
    if (c->n != 0)
      FAIL("n: %" PRIu64 " is out of range for %s (allowed: 0; %s uses rows and cols)", c->n, opn,
           opn);
    if (c->cols > max_cols)
      FAIL("cols: %" PRIu32 " is out of range (allowed: 0..%" PRIu64 ")", c->cols, max_cols);
    if (c->rows > lim->max_elems)   /* the outputs: one a row at least, held densely */
      FAIL("rows: %" PRIu32 " is out of range (allowed: 0..%" PRIu64 ")", c->rows,
           lim->max_elems);
    uint64_t elems = (uint64_t)c->rows * c->cols;
    if (elems > max_elems)
      FAIL("rows*cols: %" PRIu32 "*%" PRIu32 " = %" PRIu64 " is out of range (allowed: 0..%" PRIu64
           ")", c->rows, c->cols, elems, max_elems);
  } else {
    const uint64_t max_n = rf_case_is_sparse(c) && RF_CASE_MAX_N > lim->max_n
                           ? RF_CASE_MAX_N : lim->max_n;
    if (c->n > max_n)
      FAIL("n: %" PRIu64 " is out of range (allowed: 0..%" PRIu64 ")", c->n, max_n);
    if (c->rows != 0)
      FAIL("rows: %" PRIu32 " is out of range for %s (allowed: 0; only the row ops (softmax, "
           "logsumexp, logsoftmax) have rows and cols)", c->rows, opn);
    if (c->cols != 0)
      FAIL("cols: %" PRIu32 " is out of range for %s (allowed: 0; only the row ops (softmax, "
           "logsumexp, logsoftmax) have rows and cols)", c->cols, opn);
  }
  /* Every misalignment of a 16-byte vector load is reachable, and no more (docs/CASE_FORMAT.md,
   * "Misaligned views"). */
  uint32_t max_mis = rf_case_misalign_max(c->dtype);
  if (c->misalign > max_mis)
    FAIL("misalign: %" PRIu32 " is out of range for %s (allowed: 0..%" PRIu32 " elements, "
         "offsets within 16 bytes)", c->misalign, rf_dtype_name(c->dtype), max_mis);
  if (!variant_ok(c)) {
    char q[4 * RF_VARIANT_NAME_MAX + 8];
    quote(c->variant, RF_VARIANT_NAME_MAX, q, sizeof q);
    FAIL("variant: '%s' is not a valid name (allowed: \"\" = every variant, or \"%s/<name>\", "
         "at most %d printable characters without spaces or '#')", q, opn,
         RF_VARIANT_NAME_MAX - 1);
  }
  return 0;
}

/* Field-by-field comparison from the table (never memcmp: padding and the variant's tail
 * past its terminator are not part of the case). */
static int fields_equal(const rf_case *a, const rf_case *b, int inputs_only) {
  for (int i = 0; i < RF_FIELD_COUNT; i++) {
    const rf_field *f = &rf_fields[i];
    if (inputs_only && !f->input) continue;
    int same;
    switch (f->type) {
    case RF_FT_NAME:
      same = strncmp(*CMEMBER(a, f, rf_variant_name), *CMEMBER(b, f, rf_variant_name),
                     RF_VARIANT_NAME_MAX) == 0;
      break;
    case RF_FT_LIST:
      same = strncmp(*CMEMBER(a, f, rf_case_list), *CMEMBER(b, f, rf_case_list),
                     RF_CASE_LIST_MAX) == 0;
      break;
    case RF_FT_U64: same = *CMEMBER(a, f, uint64_t) == *CMEMBER(b, f, uint64_t); break;
    case RF_FT_OP: same = *CMEMBER(a, f, rf_op) == *CMEMBER(b, f, rf_op); break;
    case RF_FT_DIST: same = *CMEMBER(a, f, rf_dist) == *CMEMBER(b, f, rf_dist); break;
    case RF_FT_SCHED: same = *CMEMBER(a, f, rf_sched) == *CMEMBER(b, f, rf_sched); break;
    case RF_FT_DTYPE: same = *CMEMBER(a, f, rf_dtype) == *CMEMBER(b, f, rf_dtype); break;
    default: same = *CMEMBER(a, f, uint32_t) == *CMEMBER(b, f, uint32_t); break;
    }
    if (!same) return 0;
  }
  return 1;
}
int rf_case_equal(const rf_case *a, const rf_case *b) { return fields_equal(a, b, 0); }
int rf_case_same_input(const rf_case *a, const rf_case *b) { return fields_equal(a, b, 1); }

void rf_case_write_json(const rf_case *c, FILE *f) {
  fputc('{', f);
  rf_case_write_json_members(c, f, 1);
  fputc('}', f);
}

void rf_case_write_json_members(const rf_case *c, FILE *f, int with_variant) {
  int first = 1;
  for (int i = 0; i < RF_FIELD_COUNT; i++) {
    const rf_field *fd = &rf_fields[i];
    if ((fd->type == RF_FT_NAME && !with_variant) || !rf_field_shown(c, fd)) continue;
    char v[RF_FIELD_TEXT_MAX];
    rf_field_format(c, fd, v, sizeof v);
    int text = fd->type == RF_FT_OP || fd->type == RF_FT_DIST || fd->type == RF_FT_SCHED ||
               fd->type == RF_FT_NAME || fd->type == RF_FT_DTYPE || fd->type == RF_FT_LIST;
    fprintf(f, "%s\"%s\":", first ? "" : ",", fd->key);
    first = 0;
    if (!text) { fputs(v, f); continue; }
    /* valid names are printable ASCII without '"' issues except '"' and '\' themselves */
    fputc('"', f);
    for (const char *p = v; *p; p++) {
      if (*p == '"' || *p == '\\') fputc('\\', f);
      fputc(*p, f);
    }
    fputc('"', f);
  }
}

/* The one flag parser (flags.h): every command's flags come from its table. */
#include "flags.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include "model/case.h"
#include "model/dtype.h"
#include "model/number.h"

const char *rf_flag_op_names(unsigned i) { return i < RF_OP_COUNT ? rf_op_name((rf_op)i) : NULL; }
const char *rf_flag_dist_names(unsigned i) {
  return i < RF_DIST_COUNT ? rf_dist_name((rf_dist)i) : NULL;
}
const char *rf_flag_sched_names(unsigned i) {
  return i < RF_SCHED_COUNT ? rf_sched_name((rf_sched)i) : NULL;
}
const char *rf_flag_dtype_names(unsigned i) {
  return i < RF_DTYPE_COUNT ? rf_dtype_name((rf_dtype)i) : NULL;
}
const char *rf_flag_wave_names(unsigned i) {
  static const char *const w[] = {"32", "64"};
  return i < 2 ? w[i] : NULL;
}
const char *rf_flag_bench_op_names(unsigned i) {
  return i < RF_OP_COUNT ? rf_op_name((rf_op)i) : i == RF_OP_COUNT ? "all" : NULL;
}
const char *rf_flag_study_op_names(unsigned i) {
  static const char *const o[] = {"sum", "softmax"};
  return i < 2 ? o[i] : NULL;
}

/* The value as shown in messages: at most 60 characters, control bytes as '?', so a hostile
 * argument cannot garble the terminal or hide the rest of the message. */
static void shown(const char *s, char *buf, size_t len) {
  size_t o = 0, i = 0;
  for (; s[i] && i < 60 && o + 1 < len; i++)
    buf[o++] = (unsigned char)s[i] < 0x20 || (unsigned char)s[i] == 0x7f ? '?' : s[i];
  if (s[i] && o + 4 < len) { memcpy(buf + o, "...", 3); o += 3; }
  buf[o] = '\0';
}

static void names_text(rf_flag_names_fn names, char *buf, size_t len) {
  size_t o = 0;
  buf[0] = '\0';
  for (unsigned i = 0; names(i) && o < len; i++)
    o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? ", " : "", names(i));
}

/* What the flag allows, in words: the tail of every message and of the --help line. */
static void allowed_text(const rf_flag_spec *s, char *buf, size_t len) {
  char r[64], names[512];
  rf_num_range_text(s->lo, s->hi, r, sizeof r);
  if (s->names) names_text(s->names, names, sizeof names);
  switch (s->type) {
  case RF_FLAG_BOOL: snprintf(buf, len, "no value"); break;
  case RF_FLAG_NUM:
    if (s->names) snprintf(buf, len, "%s", names);
    else snprintf(buf, len, "%s", r);
    break;
  case RF_FLAG_NUMS:
    snprintf(buf, len, "a comma list of %s%s, at most %zu values", s->names ? "" : "numbers in ",
             s->names ? names : r, s->max);
    break;
  case RF_FLAG_NAME: snprintf(buf, len, "%s", names); break;
  case RF_FLAG_NAMES: snprintf(buf, len, "a comma list of %s; or all", names); break;
  case RF_FLAG_SHAPE: snprintf(buf, len, "RxC, R and C in %s", r); break;
  case RF_FLAG_SHAPES:
    snprintf(buf, len, "a comma list of RxC, R and C in %s, at most %zu shapes", r, s->max);
    break;
  case RF_FLAG_TEXT:
    snprintf(buf, len, "text of %llu..%llu bytes", (unsigned long long)s->lo,
             (unsigned long long)s->hi);
    break;
  case RF_FLAG_TEXTS:
    snprintf(buf, len, "a comma list of at most %zu names", s->max);
    break;
  case RF_FLAG_REAL: snprintf(buf, len, "a positive decimal number"); break;
  case RF_FLAG_HIDDEN: snprintf(buf, len, "nothing"); break;
  }
}

int rf_flag_error(const char *cmd, const rf_flag_spec *s, const char *value, const char *fmt,
                  ...) {
  char v[80];
  shown(value ? value : "", v, sizeof v);
  fprintf(stderr, "redfuzz %s: %s: '%s' ", cmd, s->name, v);
  va_list ap;
  va_start(ap, fmt);
  vfprintf(stderr, fmt, ap);
  va_end(ap);
  fputc('\n', stderr);
  return -1;
}

static int name_index(rf_flag_names_fn names, const char *s, size_t len) {
  for (unsigned i = 0; names(i); i++)
    if (strlen(names(i)) == len && memcmp(names(i), s, len) == 0) return (int)i;
  return -1;
}

/* One RxC from s[0..len). */
static int shape(const rf_flag_spec *s, const char *p, size_t len, uint64_t *r, uint64_t *c,
                 char *why, size_t whylen) {
  char buf[96];
  if (len >= sizeof buf) { snprintf(why, whylen, "is too long for RxC"); return -1; }
  memcpy(buf, p, len);
  buf[len] = '\0';
  char *x = strchr(buf, 'x');
  char r_text[64];
  rf_num_range_text(s->lo, s->hi, r_text, sizeof r_text);
  if (!x || strchr(x + 1, 'x')) {
    snprintf(why, whylen, "is not RxC (allowed: two numbers joined by one 'x', each in %s)", r_text);
    return -1;
  }
  *x = '\0';
  char w[160];
  if (rf_num_parse(buf, s->lo, s->hi, r, w, sizeof w) ||
      rf_num_parse(x + 1, s->lo, s->hi, c, w, sizeof w)) {
    snprintf(why, whylen, "is not a valid shape: %s", w);
    return -1;
  }
  return 0;
}

static int in_names(const rf_flag_spec *s, uint64_t v) {
  char t[32];
  snprintf(t, sizeof t, "%llu", (unsigned long long)v);
  return name_index(s->names, t, strlen(t)) >= 0;
}

/* Parses text for spec into val; -1 after printing the message. */
static int parse_value(const char *cmd, const rf_flag_spec *s, const char *text, rf_flag_val *val) {
  char why[512], allowed[640];
  allowed_text(s, allowed, sizeof allowed);
  val->text = text;
  switch (s->type) {
  case RF_FLAG_BOOL:
  case RF_FLAG_HIDDEN:
    val->num = 1;
    return 0;
  case RF_FLAG_NUM:
    if (rf_num_parse(text, s->lo, s->hi, &val->num, why, sizeof why)) {
      fprintf(stderr, "redfuzz %s: %s: %s\n", cmd, s->name, why);
      return -1;
    }
    if (s->names && !in_names(s, val->num))
      return rf_flag_error(cmd, s, text, "is not allowed (allowed: %s)", allowed);
    return 0;
  case RF_FLAG_NUMS:
    val->list = malloc(s->max * sizeof *val->list);
    if (!val->list) return rf_flag_error(cmd, s, text, "cannot be held: out of memory");
    if (!*text) return rf_flag_error(cmd, s, text, "is empty (allowed: %s)", allowed);
    if (rf_num_parse_list(text, s->lo, s->hi, val->list, s->max, &val->count, why, sizeof why)) {
      fprintf(stderr, "redfuzz %s: %s: %s\n", cmd, s->name, why);
      return -1;
    }
    for (size_t i = 0; s->names && i < val->count; i++)
      if (!in_names(s, val->list[i])) {
        char t[32];
        snprintf(t, sizeof t, "%llu", (unsigned long long)val->list[i]);
        return rf_flag_error(cmd, s, t, "is not allowed (allowed: %s)", allowed);
      }
    return 0;
  case RF_FLAG_NAME: {
    int k = name_index(s->names, text, strlen(text));
    if (k < 0) return rf_flag_error(cmd, s, text, "is not valid (allowed: %s)", allowed);
    val->num = (uint64_t)k;
    return 0;
  }
  case RF_FLAG_NAMES:
  case RF_FLAG_SHAPES:
  case RF_FLAG_TEXTS: {
    size_t per = s->type == RF_FLAG_SHAPES ? 2 : 1;
    if (!*text) return rf_flag_error(cmd, s, text, "is empty (allowed: %s)", allowed);
    if (s->type == RF_FLAG_NAMES && strcmp(text, "all") == 0) {
      val->list = malloc(64 * sizeof *val->list);
      if (!val->list) return rf_flag_error(cmd, s, text, "cannot be held: out of memory");
      for (unsigned i = 0; s->names(i) && i < 64; i++) val->list[val->count++] = i;
      return 0;
    }
    val->list = malloc(s->max * per * sizeof *val->list);
    val->items = malloc(s->max * sizeof *val->items);
    val->owned = strdup(text);
    if (!val->list || !val->items || !val->owned)
      return rf_flag_error(cmd, s, text, "cannot be held: out of memory");
    for (const char *p = text;;) {
      const char *end = strchr(p, ',');
      size_t len = end ? (size_t)(end - p) : strlen(p);
      if (val->count == s->max)
        return rf_flag_error(cmd, s, text, "has more than %zu items (allowed: %s)", s->max,
                             allowed);
      char item[96];
      snprintf(item, sizeof item, "%.*s", (int)(len < 95 ? len : 95), p);
      if (len == 0) return rf_flag_error(cmd, s, text, "has an empty item (allowed: %s)", allowed);
      if (s->type == RF_FLAG_NAMES) {
        int k = name_index(s->names, p, len);
        if (k < 0) return rf_flag_error(cmd, s, item, "is not valid (allowed: %s)", allowed);
        for (size_t i = 0; i < val->count; i++)
          if (val->list[i] == (uint64_t)k)
            return rf_flag_error(cmd, s, item, "is listed twice (allowed: each name once)");
        val->list[val->count] = (uint64_t)k;
      } else if (s->type == RF_FLAG_SHAPES) {
        if (shape(s, p, len, &val->list[2 * val->count], &val->list[2 * val->count + 1], why,
                  sizeof why))
          return rf_flag_error(cmd, s, item, "%s", why);
      } else {
        if (len > s->hi)
          return rf_flag_error(cmd, s, item, "is too long (allowed: at most %llu bytes)",
                               (unsigned long long)s->hi);
        char *q = val->owned + (p - text);
        q[len] = '\0';
        val->items[val->count] = q;
      }
      val->count++;
      if (!end) break;
      p = end + 1;
    }
    return 0;
  }
  case RF_FLAG_SHAPE:
    val->list = malloc(2 * sizeof *val->list);
    if (!val->list) return rf_flag_error(cmd, s, text, "cannot be held: out of memory");
    if (shape(s, text, strlen(text), &val->list[0], &val->list[1], why, sizeof why))
      return rf_flag_error(cmd, s, text, "%s", why);
    val->count = 1;
    return 0;
  case RF_FLAG_TEXT:
    if (strlen(text) < s->lo || strlen(text) > s->hi)
      return rf_flag_error(cmd, s, text, "is not valid (allowed: %s)", allowed);
    return 0;
  case RF_FLAG_REAL: {
    char *end;
    errno = 0;
    /* strtod alone would take "nan", "inf", hex floats and leading spaces. */
    int plain = *text && strspn(text, "0123456789.eE+-") == strlen(text);
    val->real = plain ? strtod(text, &end) : NAN;
    if (!plain || errno || *end || !(val->real > 0) || isinf(val->real))
      return rf_flag_error(cmd, s, text, "is not valid (allowed: %s)", allowed);
    return 0;
  }
  }
  return -1;
}

/* Words of text from column `col`, wrapped at 92 columns; continuation lines indented to
 * column 23 (where the help text starts). */
static void wrapped(FILE *f, const char *text, size_t col) {
  const size_t width = 92, indent = 23;
  for (const char *p = text; *p;) {
    while (*p == ' ') p++;
    size_t len = strcspn(p, " ");
    if (!len) break;
    if (col > indent && col + 1 + len > width) {
      fprintf(f, "\n%*s", (int)indent, "");
      col = indent;
    } else if (col > indent) {
      fputc(' ', f);
      col++;
    }
    fwrite(p, 1, len, f);
    col += len;
    p += len;
  }
  fputc('\n', f);
}

void rf_flags_help(FILE *f, const rf_flag_spec *specs, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const rf_flag_spec *s = &specs[i];
    if (s->type == RF_FLAG_HIDDEN) continue;
    char head[64], allowed[640], tail[800];
    snprintf(head, sizeof head, "%s%s%s", s->name, s->type == RF_FLAG_BOOL ? "" : " ",
             s->type == RF_FLAG_BOOL ? "" : s->meta);
    fprintf(f, "  %-20s ", head);
    wrapped(f, s->help, 23);
    if (s->type == RF_FLAG_BOOL) continue;
    allowed_text(s, allowed, sizeof allowed);
    snprintf(tail, sizeof tail, "(allowed: %s%s%s)", allowed, s->def ? "; default: " : "",
             s->def ? (*s->def ? s->def : "none") : "");
    fprintf(f, "%*s", 23, "");
    wrapped(f, tail, 23);
  }
}

void rf_flags_free(rf_flag_val *vals, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(vals[i].list);
    free(vals[i].items);
    free(vals[i].owned);
    vals[i].list = NULL;
    vals[i].items = NULL;
    vals[i].owned = NULL;
  }
}

int rf_flags_parse(const char *cmd, const rf_flag_spec *specs, size_t n, int argc, char **argv,
                   rf_flag_val *vals, const char **pos, size_t max_pos, size_t *npos,
                   const char *help_head, const char *help_tail) {
  if (n) memset(vals, 0, n * sizeof *vals);
  if (npos) *npos = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
      rf_flags_free(vals, n);
      fputs(help_head, stdout);
      rf_flags_help(stdout, specs, n);
      if (help_tail) fputs(help_tail, stdout);
      return 1;
    }
  }
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (a[0] != '-' || a[1] == '\0') {
      if (!pos || *npos == max_pos) {
        char v[80];
        shown(a, v, sizeof v);
        fprintf(stderr, "redfuzz %s: unexpected argument '%s' (allowed: %s; see redfuzz %s "
                "--help)\n", cmd, v, pos ? "fewer file arguments" : "only options", cmd);
        rf_flags_free(vals, n);
        return -1;
      }
      pos[(*npos)++] = a;
      continue;
    }
    size_t k = 0;
    while (k < n && (specs[k].type == RF_FLAG_HIDDEN || strcmp(specs[k].name, a) != 0)) k++;
    if (k == n) {
      char v[80];
      shown(a, v, sizeof v);
      fprintf(stderr, "redfuzz %s: unknown option '%s' (see redfuzz %s --help)\n", cmd, v, cmd);
      rf_flags_free(vals, n);
      return -1;
    }
    const rf_flag_spec *s = &specs[k];
    if (vals[k].given) {
      fprintf(stderr, "redfuzz %s: %s: given twice (allowed: once; lists are comma-separated)\n",
              cmd, s->name);
      rf_flags_free(vals, n);
      return -1;
    }
    const char *text = "";
    if (s->type != RF_FLAG_BOOL) {
      if (i + 1 >= argc) {
        char allowed[640];
        allowed_text(s, allowed, sizeof allowed);
        fprintf(stderr, "redfuzz %s: %s: needs a value (allowed: %s)\n", cmd, s->name, allowed);
        rf_flags_free(vals, n);
        return -1;
      }
      text = argv[++i];
    }
    if (parse_value(cmd, s, text, &vals[k])) { rf_flags_free(vals, n); return -1; }
    vals[k].given = i;
  }
  /* Defaults go through the same parser, so a table's default obeys its own rule. */
  for (size_t k = 0; k < n; k++) {
    if (vals[k].given || !specs[k].def || !*specs[k].def || specs[k].type == RF_FLAG_BOOL)
      continue;
    if (parse_value(cmd, &specs[k], specs[k].def, &vals[k])) {
      fprintf(stderr, "redfuzz %s: the default of %s does not parse (a bug in its table)\n", cmd,
              specs[k].name);
      rf_flags_free(vals, n);
      return -1;
    }
  }
  return 0;
}

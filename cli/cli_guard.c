/* redfuzz guard: findings whose bug is fixed become guards (docs/FINDINGS.md). A finding is a
 * shrunk case that states its variant's failure (`expect <variant> wrong`); once the kernel is
 * fixed, replay fails it ("expected wrong, got pass"), and removing the line by hand is refused
 * (a regression file without expect lines: replay's rule that protects CI). This command runs
 * each file and turns every such line, of a variant that now passes, into `expect <variant>
 * pass`, so CI then keeps the bug fixed; everything else is left as it is and said. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "model/file_out.h"
#include "run/backend.h"
#define RF_FLAGS_DEF "flags_guard.def"
#include "flags_table.h"

static const char help[] =
  "usage: redfuzz guard [--dry-run] PATH...\n"
  "\n"
  "After a fix: turns findings that now pass into guards. PATH is a .case file or a folder (its\n"
  "*.case files, in name order), e.g. the findings folder of a plugin (load it with --plugin,\n"
  "the fixed build, same name). Each file is run as replay runs it; an expect line held on\n"
  "this backend that expects a failure (a failure verdict or 'fail') of a variant that now\n"
  "gives pass becomes 'expect <variant> pass' (its 'on <backend>' kept, the old verdict in a\n"
  "comment), so replay, and CI with it, then holds the variant to the fix. Printed: every\n"
  "change (file, line, old and new), every finding that still fails (left as it is: its bug\n"
  "is not fixed), every other mismatch (left as it is), and each file left unchanged.\n"
  "Not changed: a mutant's line (a known-bug variant's failure is the permanent truth), a\n"
  "line for another backend, a line of a variant that now fails otherwise. A changed file is\n"
  "rewritten whole or not at all: a temporary file, checked, renamed over the old one, and\n"
  "only while it still holds what was read.\n"
  "\n";
static const char help_tail[] =
  "\nExit status: 0 every file now holds (rewritten, or nothing to change), 1 a finding still\n"
  "fails or another expectation does not hold, 2 bad usage or a file that cannot be read or\n"
  "written, 130 interrupted (Ctrl-C: the summary so far).\n";

#define MAX_PATHS 4096

typedef struct {
  int files, rewritten, flipped, still_failing, mismatched, unchanged, unreadable;
} tally;

typedef struct {
  rf_runner *r;
  int dry;
  rf_result *res;
  size_t max_res;
  rf_expect *ex;
  tally t;
} guard_state;

/* A line of text, its ending kept apart. */
typedef struct { const char *p; size_t len, eol; } text_line;

static int next_text_line(const char *text, size_t len, size_t *at, text_line *l) {
  if (*at >= len) return 0;
  const char *p = text + *at;
  const char *nl = memchr(p, '\n', len - *at);
  size_t body = nl ? (size_t)(nl - p) : len - *at;
  size_t eol = nl ? 1 : 0;
  if (body && p[body - 1] == '\r') { body--; eol++; }
  *l = (text_line){p, body, eol};
  *at += body + eol;
  return 1;
}

/* The expect line's variant and scope, as the parser reads them (comment and blanks off);
 * 1 when the line is one, with var/scope NUL-terminated. */
static int expect_of(const text_line *l, char *var, size_t vlen, char *scope, size_t slen) {
  char buf[512];
  size_t n = l->len < sizeof buf - 1 ? l->len : sizeof buf - 1;
  memcpy(buf, l->p, n);
  buf[n] = '\0';
  char *hash = strchr(buf, '#');
  if (hash) *hash = '\0';
  char *tok[6];
  int k = 0;
  for (char *s = strtok(buf, " \t\v\f"); s && k < 6; s = strtok(NULL, " \t\v\f")) tok[k++] = s;
  if (k < 3 || strcmp(tok[0], "expect") != 0 || (k != 3 && k != 5)) return 0;
  if (k == 5 && strcmp(tok[3], "on") != 0) return 0;
  snprintf(var, vlen, "%s", tok[1]);
  snprintf(scope, slen, "%s", k == 5 ? tok[4] : "");
  return 1;
}

/* Which of the file's expect lines become guards: flip[e] set for those. Prints what it finds
 * about every line held here. Returns how many flip; *still and *other count the findings
 * that still fail and the other mismatches. */
static int classify(const char *path, const rf_expect *ex, size_t n_ex, const rf_result *res,
                    int n, unsigned char *flip, int *still, int *other) {
  int flips = 0;
  for (size_t e = 0; e < n_ex; e++) {
    flip[e] = 0;
    if (!rf_expect_applies(&ex[e], rf_backend.name, rf_backend.is_sim) ||
        rf_expect_overridden(ex, n_ex, e, rf_backend.name)) {
      if (rf_expect_wants_failure(&ex[e]))
        printf("  not here  %s: expect %s %s%s%s is not held on %s: left as it is (guard it "
               "on that backend)\n", path, ex[e].variant, ex[e].verdict,
               ex[e].backend[0] ? " on " : "", ex[e].backend, rf_backend.name);
      continue;
    }
    const rf_result *r = NULL;
    for (int i = 0; i < n; i++)
      if (strcmp(res[i].variant->name, ex[e].variant) == 0) r = &res[i];
    if (!r) {
      printf("  mismatch  %s: %s is not in this build (a plugin's variant: load it with "
             "--plugin): left as it is\n", path, ex[e].variant);
      (*other)++;
      continue;
    }
    const char *got = rf_verdict_name(r->verdict);
    if (rf_expect_matches(&ex[e], r->verdict)) {
      if (rf_expect_wants_failure(&ex[e]) && !r->variant->is_mutant) {   /* a finding */
        printf("  still fails  %s: %s expected %s, got %s: left as it is (the bug is not "
               "fixed)\n", path, ex[e].variant, ex[e].verdict, got);
        (*still)++;
      }
      continue;
    }
    if (rf_expect_wants_failure(&ex[e]) && r->verdict == RF_V_PASS && !r->variant->is_mutant) {
      flip[e] = 1;
      flips++;
      continue;
    }
    printf("  mismatch  %s: %s expected %s, got %s%s%s: left as it is%s\n", path, ex[e].variant,
           ex[e].verdict, got, r->detail[0] ? " (" : "", r->detail[0] ? r->detail : "",
           r->variant->is_mutant && r->verdict == RF_V_PASS
               ? "; a mutant that passes is a detection lost, never a guard" : "");
    (*other)++;
  }
  /* Variants without a line: a correct one must pass, as replay holds it. */
  for (int i = 0; i < n; i++) {
    int listed = 0;
    for (size_t e = 0; e < n_ex; e++) listed |= strcmp(res[i].variant->name, ex[e].variant) == 0;
    if (listed || res[i].variant->is_mutant || !rf_verdict_is_failure(res[i].verdict)) continue;
    printf("  mismatch  %s: %s gave %s (correct variants must pass): left as it is\n", path,
           res[i].variant->name, rf_verdict_name(res[i].verdict));
    (*other)++;
  }
  return flips;
}

/* The file's text with the flipped lines rewritten, into out; each change printed. Returns
 * the number of lines rewritten. */
static int rewrite(const char *path, const char *text, size_t len, const rf_expect *ex,
                   size_t n_ex, const unsigned char *flip, FILE *out) {
  size_t at = 0;
  unsigned lineno = 0;
  int done = 0;
  text_line l;
  while (next_text_line(text, len, &at, &l)) {
    lineno++;
    char var[RF_VARIANT_NAME_MAX + 8], scope[16];
    size_t e = n_ex;
    if (expect_of(&l, var, sizeof var, scope, sizeof scope))
      for (e = 0; e < n_ex; e++)
        if (flip[e] && strcmp(ex[e].variant, var) == 0 && strcmp(ex[e].backend, scope) == 0) break;
    if (e == n_ex) {
      fwrite(l.p, 1, l.len + l.eol, out);
      continue;
    }
    char line[256];
    snprintf(line, sizeof line, "expect %s pass%s%s  # was '%s' until fixed (redfuzz guard)",
             ex[e].variant, scope[0] ? " on " : "", scope, ex[e].verdict);
    printf("  guard     %s: line %u: %.*s  ->  expect %s pass%s%s\n", path, lineno, (int)l.len,
           l.p, ex[e].variant, scope[0] ? " on " : "", scope);
    fputs(line, out);
    fwrite(l.p + l.len, 1, l.eol, out);
    done++;
  }
  return done;
}

/* The new text says what was meant: the same case, every flipped line now `pass`, every
 * other line as it was. 0, or -1 with why. */
static int check_new(const char *text, size_t len, const rf_case *was, const rf_expect *ex,
                     size_t n_ex, const unsigned char *flip, char *why, size_t whylen) {
  rf_case now;
  rf_expect *nx = calloc(n_ex ? n_ex : 1, sizeof *nx);
  size_t n_now = 0;
  int rc = -1;
  if (!nx) { snprintf(why, whylen, "out of memory"); return -1; }
  if (rf_case_parse_text_len(text, len, &now, nx, n_ex, &n_now, why, whylen)) goto out;
  if (!rf_case_equal(&now, was) || n_now != n_ex) {
    snprintf(why, whylen, "the rewritten file reads as another case");
    goto out;
  }
  for (size_t e = 0; e < n_ex; e++) {
    const char *want = flip[e] ? "pass" : ex[e].verdict;
    if (strcmp(nx[e].variant, ex[e].variant) || strcmp(nx[e].backend, ex[e].backend) ||
        strcmp(nx[e].verdict, want)) {
      snprintf(why, whylen, "line of %s did not come out as 'expect %s %s'", ex[e].variant,
               ex[e].variant, want);
      goto out;
    }
  }
  rc = 0;
out:
  free(nx);
  return rc;
}

static void guard_file(guard_state *s, const char *path) {
  tally *t = &s->t;
  t->files++;
  char err[1024];
  rf_case c;
  size_t n_ex = 0, len = 0;
  char *text = NULL;
  if (rf_cli_replay_case_text(path, &text, &len, &c, s->ex, RF_CLI_MAX_EXPECTS, &n_ex, err,
                              sizeof err)) {
    printf("ERROR %s\n", err);
    t->unreadable++;
    free(text);
    return;
  }
  rf_limits lim = rf_runner_limits(s->r);
  char why[512];
  if (rf_case_validate(&c, &lim, why, sizeof why)) {
    printf("ERROR %s: beyond this backend's limits (%s): not run, left as it is\n", path, why);
    t->unreadable++;
    free(text);
    return;
  }
  int n = rf_runner_run(s->r, &c, s->res, s->max_res, err, sizeof err);
  if (n < 0) {
    printf("ERROR %s: %s\n", path, err);
    t->unreadable++;
    free(text);
    return;
  }
  unsigned char *flip = calloc(n_ex ? n_ex : 1, 1);
  if (!flip) { printf("ERROR %s: out of memory\n", path); t->unreadable++; free(text); return; }
  int still = 0, other = 0;
  const int flips = classify(path, s->ex, n_ex, s->res, n, flip, &still, &other);
  t->still_failing += still;
  t->mismatched += other;
  if (!flips) {
    printf("%s %s: nothing to change%s\n", still || other ? "kept     " : "unchanged", path,
           still || other ? " that passes now" : " (every expectation holds)");
    if (!still && !other) t->unchanged++;
    free(flip);
    free(text);
    return;
  }
  /* The new bytes, checked, then written over the file (or shown only). */
  char *mem = NULL;
  size_t memlen = 0;
  FILE *m = open_memstream(&mem, &memlen);
  int rewritten = m ? rewrite(path, text, len, s->ex, n_ex, flip, m) : -1;
  if (m && fclose(m) != 0) rewritten = -1;
  if (rewritten != flips || check_new(mem, memlen, &c, s->ex, n_ex, flip, why, sizeof why)) {
    printf("ERROR %s: cannot rewrite its expect lines (%s): left as it is\n", path,
           rewritten != flips ? "a line to change was not found as the parser reads it" : why);
    t->unreadable++;
  } else if (s->dry) {
    printf("would rewrite %s: %d expectation(s) become guards (--dry-run: not written)\n", path,
           flips);
    t->rewritten++;
    t->flipped += flips;
  } else {
    rf_file *out = rf_file_open(path, err, sizeof err);
    if (out) fwrite(mem, 1, memlen, rf_file_stream(out));
    if (!out || rf_file_replace(out, text, len, err, sizeof err)) {
      printf("ERROR %s: not rewritten: %s\n", path, err);
      t->unreadable++;
    } else {
      printf("rewrote  %s: %d expectation(s) are guards now\n", path, flips);
      t->rewritten++;
      t->flipped += flips;
    }
  }
  free(mem);
  free(flip);
  free(text);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void guard_path(guard_state *s, const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) {
    printf("ERROR %s: no such file or folder\n", path);
    s->t.files++;
    s->t.unreadable++;
    return;
  }
  if (!S_ISDIR(st.st_mode)) { guard_file(s, path); return; }
  DIR *d = opendir(path);
  if (!d) { printf("ERROR %s: cannot open folder\n", path); s->t.unreadable++; return; }
  char **names = NULL;
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    if (l < 6 || strcmp(e->d_name + l - 5, ".case") != 0) continue;
    char **nn = realloc(names, (n + 1) * sizeof *names);
    if (!nn) break;
    names = nn;
    size_t plen = strlen(path) + l + 2;
    names[n] = malloc(plen);
    if (names[n]) snprintf(names[n++], plen, "%s/%s", path, e->d_name);
  }
  closedir(d);
  if (n == 0) {
    printf("ERROR %s: a folder without .case files\n", path);
    s->t.files++;
    s->t.unreadable++;
  }
  if (n) qsort(names, n, sizeof *names, cmp_str);
  for (size_t i = 0; i < n; i++) {
    if (!rf_cli_interrupted && !rf_cli_out_check("guard")) guard_file(s, names[i]);
    free(names[i]);
  }
  free(names);
}

int rf_cmd_guard(int argc, char **argv) {
  rf_flag_val v[RF_FLAG_COUNT];
  static const char *paths[MAX_PATHS];
  size_t npaths = 0;
  int p = rf_flags_parse("guard", rf_flags, RF_FLAG_COUNT, argc, argv, v, paths, MAX_PATHS,
                         &npaths, help, help_tail);
  if (p) return p > 0 ? RF_EXIT_OK : RF_EXIT_USAGE;
  const int dry = v[F_DRY_RUN].given != 0;
  rf_flags_free(v, RF_FLAG_COUNT);
  if (!npaths) {
    fprintf(stderr, "redfuzz guard: PATH: none given (allowed: one or more .case files or "
            "folders, e.g. a plugin's findings folder; see --help)\n");
    return RF_EXIT_USAGE;
  }
  rf_runner *r = rf_cli_runner("guard");
  if (!r) return RF_EXIT_FAIL;
  guard_state s = {r, dry, calloc(rf_variant_count() ? rf_variant_count() : 1, sizeof(rf_result)),
                   rf_variant_count(), calloc(RF_CLI_MAX_EXPECTS, sizeof(rf_expect)), {0}};
  if (!s.res || !s.ex) {
    fprintf(stderr, "redfuzz guard: out of host memory\n");
    free(s.res);
    free(s.ex);
    rf_runner_destroy(r);
    return RF_EXIT_FAIL;
  }
  rf_cli_catch_signals();
  for (size_t i = 0; i < npaths && !rf_cli_interrupted && !rf_cli_out_failed; i++)
    guard_path(&s, paths[i]);
  free(s.res);
  free(s.ex);
  rf_runner_destroy(r);
  const tally *t = &s.t;
  if (rf_cli_out_failed) {
    fprintf(stderr, "guard: stopped after %d files (%d rewritten)\n", t->files, t->rewritten);
    return RF_EXIT_USAGE;
  }
  if (rf_cli_interrupted)
    printf("guard: interrupted (signal %d): the summary covers the files done so far\n",
           (int)rf_cli_interrupted);
  printf("guard: %d files: %d %s (%d expectation(s) turned into guards), %d unchanged, %d "
         "finding(s) still failing, %d other mismatch(es), %d unreadable%s\n", t->files,
         t->rewritten, dry ? "to rewrite" : "rewritten", t->flipped, t->unchanged,
         t->still_failing, t->mismatched, t->unreadable,
         t->rewritten ? "" : "; nothing changed");
  if (t->rewritten && !dry)
    printf("guard: replay now holds the fixed variants to 'pass'; commit the rewritten files\n");
  fflush(stdout);
  if (rf_cli_interrupted) return 128 + (int)rf_cli_interrupted;
  if (t->unreadable) return RF_EXIT_USAGE;
  return t->still_failing || t->mismatched ? RF_EXIT_FAIL : RF_EXIT_OK;
}

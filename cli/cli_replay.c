/* redfuzz replay: text cases with `expect <variant> <verdict>` lines; any mismatch fails. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "model/dtype.h"
#include "progress.h"
#include "run/backend.h"
#include "run/report.h"
#define RF_FLAGS_DEF "flags_replay.def"
#include "flags_table.h"

static const char help[] =
  "usage: redfuzz replay [--verbose] PATH...\n"
  "\n"
  "Replays text cases. PATH is a .case file or a folder (its *.case files, in name order).\n"
  "A case that names plugins (plugins=, a finding of a user's kernel) needs them loaded\n"
  "(--plugin): without one it is an ERROR naming it (exit 2), never a run of the built-ins.\n"
  "A finding whose variant passes now is a FAIL that says to run 'redfuzz guard'.\n"
  "Each file may carry lines 'expect <variant> <verdict>': those variants must give exactly\n"
  "that verdict (a mutant must still fail the way it failed). A line ending 'on <backend>'\n"
  "(sim, cuda, hip) holds on that backend only: a race or a missing barrier found under the\n"
  "simulator's schedule need not show under a GPU's. Off the simulator, expectations of race\n"
  "and divergent-barrier (verdicts only the simulator gives) are not held either; the\n"
  "summary counts both. A variant may have one line for every backend and one per backend:\n"
  "the backend's own line holds there. The verdict 'fail' is a class: any failure verdict\n"
  "(e.g. 'expect v race on sim' beside 'expect v fail'). Every other variant of the op\n"
  "that is not a mutant must pass (or be unsupported). Prints one line per file and a\n"
  "summary; exit status 1 when any file does not match, 2 when a file cannot be read.\n"
  "Files larger than 1 MiB, binary files and folders without .case files are errors; so are\n"
  "empty files, files whose last line has no newline (cut short), regression files without\n"
  "expect lines, FIFOs and sockets (docs/CASE_FORMAT.md, \"What replay refuses\"). A write\n"
  "error on stdout (a full disk, a closed pipe) stops the replay: exit status 2.\n"
  "Ctrl-C stops after the current file and prints the summary so far (exit 130).\n"
  "On a GPU the files replay in a worker process: a kernel's fault leaves the device unusable\n"
  "for the rest of that process, so a new worker re-runs the file one launch at a time, the\n"
  "faulting variant's result is `crash` (held against the file's expectations like any\n"
  "other), and the file's other variants and the remaining files run in a further worker.\n"
  "\n";

#define MAX_PATHS 4096

/* The case reader's own limit (cli.h): a file it accepts replays. */
#define MAX_EXPECTS RF_CLI_MAX_EXPECTS

typedef struct { int files, matched, mismatched, unreadable, skipped, not_here; } tally;

/* Progress in memory shared with the worker processes (cli_worker.c): files are numbered in
 * replay order, and a worker skips those before rs.next. A file on which a variant faulted on
 * the device keeps that variant's `crash` result there while a new worker runs the rest
 * (cli_resume.c). */
typedef struct {
  tally t;
  rf_cli_resume rs;
} replay_shared;

typedef struct {
  rf_runner *r;
  int verbose;
  replay_shared *sh;
  long idx;                /* the number of the file being replayed */
  rf_result *res;          /* room for max_res results: rf_variant_count() */
  size_t max_res;
  rf_expect *ex;           /* room for MAX_EXPECTS expect lines */
  rf_progress *progress;   /* stderr lines while it runs (progress.h), or NULL */
} replay_state;

/* Variants that faulted on this file run no more on it. */
static int replay_keeps(const rf_variant *v, void *ctx) {
  const replay_shared *sh = ctx;
  return rf_cli_resume_keeps(&sh->rs, v);
}

/* Why the expected variant has no result on case c (the runner's selection, run/runner.c):
 * it is not in this build (with its plugins), or it is and did not run on this case: it reads
 * another input type, the case names another variant (variant=), or it was left out after a
 * fault on an earlier file. The message said "not in this build" for all of them. */
static void why_no_result(const rf_case *c, const char *name, char *why, size_t len) {
  const rf_variant *v = rf_variant_find(name);
  if (!v)
    snprintf(why, len, "that variant is not in this build");
  else if (v->in_dtype != c->dtype)
    snprintf(why, len, "that variant reads %s inputs and did not run on this %s case",
             rf_dtype_name(v->in_dtype), rf_dtype_name(c->dtype));
  else if (c->variant[0] && strcmp(c->variant, name) != 0)
    snprintf(why, len, "that variant did not run: the case runs only %s (its variant=)",
             c->variant);
  else
    snprintf(why, len, "that variant did not run on this case (left out after a fault)");
}

static int check_results(const char *path, const rf_case *c, const rf_expect *ex, size_t n_ex,
                         const rf_result *res, int n, int *not_here) {
  int bad = 0;
  for (size_t e = 0; e < n_ex; e++) {
    if (!rf_expect_applies(&ex[e], rf_backend.name, rf_backend.is_sim) ||
        rf_expect_overridden(ex, n_ex, e, rf_backend.name)) {
      (*not_here)++;   /* another backend's, a verdict only the simulator gives, or a line
                          for every backend that this backend's own line replaces */
      continue;
    }
    const rf_result *r = NULL;
    for (int i = 0; i < n; i++)
      if (strcmp(res[i].variant->name, ex[e].variant) == 0) r = &res[i];
    if (!r) {
      char why[160];
      why_no_result(c, ex[e].variant, why, sizeof why);
      rf_cli_line(stdout, "FAIL %s: expected %s %s, but %s\n", path, ex[e].variant,
                  ex[e].verdict, why);
      bad = 1;
    } else if (!rf_expect_matches(&ex[e], r->verdict)) {
      rf_cli_line(stdout, "FAIL %s: %s expected %s, got %s%s%s\n", path, ex[e].variant,
                  ex[e].verdict, rf_verdict_name(r->verdict), r->detail[0] ? ": " : "", r->detail);
      /* A finding of a correct variant that passes now: its bug was fixed (or hides). */
      if (r->verdict == RF_V_PASS && rf_expect_wants_failure(&ex[e]) && !r->variant->is_mutant) {
        char plugins[2048];
        rf_cli_plugin_args(plugins, sizeof plugins);
        rf_cli_line(stdout, "     %s now passes where the file expects %s: if its bug is fixed, "
                    "`redfuzz%s guard %s` turns the expectation into a guard (expect pass) that "
                    "CI holds (docs/FINDINGS.md)\n", ex[e].variant, ex[e].verdict, plugins, path);
      }
      bad = 1;
    }
  }
  for (int i = 0; i < n; i++) {
    int listed = 0;
    for (size_t e = 0; e < n_ex; e++) listed |= strcmp(res[i].variant->name, ex[e].variant) == 0;
    if (listed || res[i].variant->is_mutant || !rf_verdict_is_failure(res[i].verdict)) continue;
    rf_cli_line(stdout, "FAIL %s: %s gave %s (correct variants must pass)%s%s\n", path,
                res[i].variant->name, rf_verdict_name(res[i].verdict),
                res[i].detail[0] ? ": " : "", res[i].detail);
    bad = 1;
  }
  return bad;
}

static void replay_file(replay_state *s, const char *path) {
  long idx = s->idx++;
  replay_shared *sh = s->sh;
  if (idx < sh->rs.next) return;   /* replayed by an earlier worker */
  rf_progress_set(s->progress, (uint64_t)idx, path);
  tally *t = &sh->t;
  rf_runner *r = s->r;
  char err[512];
  t->files++;
  rf_case c;
  rf_expect *ex = s->ex;
  size_t n_ex = 0;
  if (rf_cli_replay_case(path, &c, ex, MAX_EXPECTS, &n_ex, err, sizeof err)) {
    rf_cli_line(stdout, "ERROR %s\n", err);
    t->unreadable++;
    sh->rs.next = idx + 1;
    return;
  }
  rf_limits lim = rf_runner_limits(r);
  char why[256];
  if (rf_case_validate(&c, &lim, why, sizeof why)) {
    char where[1100];   /* the file and the line of the field (cli_input.c) */
    rf_cli_case_where(path, why, where, sizeof where);
    rf_cli_line(stdout, "SKIP %s: beyond this backend's limits (%s)\n", where, why);
    t->skipped++;
    sh->rs.next = idx + 1;
    return;
  }
  /* Room for every variant of the registry: the crashed ones of earlier workers are left out
   * of this run (replay_keeps), so the run and they together are at most that many. */
  rf_result *res = s->res;
  const int serial = rf_cli_resume_serial(&sh->rs, idx);
  rf_runner_set_serial(r, serial);
  int n = rf_runner_run(r, &c, res, s->max_res - (size_t)sh->rs.n_crashed, err, sizeof err);
  if (rf_cli_interrupted) {   /* cut short by a stop: not a result (the summary says so) */
    t->files--;
    return;
  }
  if (rf_dev_lost() && sh->rs.supervised) {
    t->files--;   /* counted again when the new worker replays it */
    rf_cli_resume_lost(&sh->rs, r, "replay", "file", idx, idx + 1, serial, res, n);
  }
  if (n < 0) {
    rf_cli_line(stdout, "ERROR %s: %s\n", path, err);
    t->unreadable++;
    sh->rs.next = idx + 1;
    return;
  }
  n = rf_cli_resume_take(&sh->rs, res, n);   /* from earlier workers */
  if (s->verbose) rf_report_table(stdout, &c, res, (size_t)n);
  int not_here = 0;
  if (check_results(path, &c, ex, n_ex, res, n, &not_here)) {
    t->mismatched++;
  } else {
    if (not_here)
      rf_cli_line(stdout, "ok   %s (%d variants, %zu expectations, %d of them not for %s)\n",
                  path, n, n_ex, not_here, rf_backend.name);
    else
      rf_cli_line(stdout, "ok   %s (%d variants, %zu expectations)\n", path, n, n_ex);
    t->matched++;
  }
  t->not_here += not_here;
  sh->rs.next = idx + 1;
  rf_cli_out_check("replay");
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void replay_path(replay_state *s, const char *path) {
  struct stat st;
  tally *t = &s->sh->t;
  int done = s->idx++ < s->sh->rs.next;   /* the path itself counts, for its errors */
  if (stat(path, &st) != 0) {
    if (!done) {
      rf_cli_line(stdout, "ERROR %s: no such file or folder\n", path);
      t->files++;
      t->unreadable++;
    }
    return;
  }
  if (!S_ISDIR(st.st_mode)) {
    if (!rf_cli_out_check("replay")) replay_file(s, path);
    return;
  }
  DIR *d = opendir(path);
  if (!d) {
    if (!done) { rf_cli_line(stdout, "ERROR %s: cannot open folder\n", path); t->unreadable++; }
    return;
  }
  char **names = NULL;
  size_t n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    if (len < 6 || strcmp(e->d_name + len - 5, ".case") != 0) continue;
    char **nn = realloc(names, (n + 1) * sizeof *names);
    if (!nn) break;
    names = nn;
    size_t plen = strlen(path) + len + 2;
    names[n] = malloc(plen);
    if (names[n]) snprintf(names[n++], plen, "%s/%s", path, e->d_name);
  }
  closedir(d);
  if (n == 0 && !done) {
    rf_cli_line(stdout, "ERROR %s: a folder without .case files\n", path);
    t->files++;
    t->unreadable++;
  }
  if (n) qsort(names, n, sizeof *names, cmp_str);
  for (size_t i = 0; i < n; i++) {
    /* stdout checked before each file: a closed pipe or a full disk stops the replay. */
    if (!rf_cli_interrupted && !rf_cli_out_check("replay")) replay_file(s, names[i]);
    free(names[i]);
  }
  free(names);
}

typedef struct {
  const char **paths;
  size_t npaths;
  int verbose;
  replay_shared *sh;
} replay_job;

static int print_summary(const replay_shared *sh, int interrupted) {
  tally all = sh->t;
  all.unreadable += (int)sh->rs.errors;   /* files lost to the device outside any kernel */
  const tally *t = &all;
  if (rf_cli_out_failed) {   /* the summary cannot go to stdout: the count of work done can */
    fprintf(stderr, "replay: stopped after %d files (%d matched, %d mismatched, %d unreadable)\n",
            t->files, t->matched, t->mismatched, t->unreadable);
    return RF_EXIT_USAGE;
  }
  if (interrupted)
    printf("replay: interrupted (signal %d): the summary covers the files replayed so far\n",
           interrupted);
  if (sh->rs.faults)
    printf("replay: %d device faults; %d worker processes (a fault leaves the device unusable "
           "for the rest of its process)\n", sh->rs.faults, sh->rs.restarts + 1);
  printf("replay: %d files: %d matched, %d mismatched, %d unreadable, %d skipped\n", t->files,
         t->matched, t->mismatched, t->unreadable, t->skipped);
  if (t->not_here)
    printf("replay: %d expectations not held against %s (scoped to another backend, or a "
           "verdict only the simulator gives)\n", t->not_here, rf_backend.name);
  printf("%d passed, %d failed\n", t->matched, t->mismatched + t->unreadable);
  fflush(stdout);
  if (interrupted) return 128 + interrupted;
  if (t->unreadable) return RF_EXIT_USAGE;
  return t->mismatched ? RF_EXIT_FAIL : RF_EXIT_OK;
}

/* After a worker died of a signal: the summary of what was replayed. */
static void replay_summary_only(void *ctx, int interrupted) {
  const replay_job *j = ctx;
  print_summary(j->sh, interrupted);
}

/* The files a path holds (the progress lines' total): a folder's *.case files, else 1. */
static uint64_t count_path(const char *path) {
  struct stat st;
  if (stat(path, &st) || !S_ISDIR(st.st_mode)) return 1;
  DIR *d = opendir(path);
  if (!d) return 0;
  uint64_t n = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t len = strlen(e->d_name);
    n += len >= 6 && strcmp(e->d_name + len - 5, ".case") == 0;
  }
  closedir(d);
  return n;
}

/* The replay itself: in this process, or in a worker process (rf_cli_supervise). */
static int replay_work(void *ctx) {
  const replay_job *j = ctx;
  rf_runner *r = rf_cli_runner("replay");
  if (!r) return RF_EXIT_FAIL;
  rf_runner_set_filter(r, replay_keeps, j->sh);
  const size_t max_res = rf_variant_count();
  replay_state s = {r, j->verbose, j->sh, 0, calloc(max_res ? max_res : 1, sizeof(rf_result)),
                    max_res, calloc(MAX_EXPECTS, sizeof(rf_expect)), NULL};
  if (!s.res || !s.ex) {
    fprintf(stderr, "redfuzz replay: out of host memory\n");
    free(s.res);
    free(s.ex);
    rf_runner_destroy(r);
    return RF_EXIT_FAIL;
  }
  rf_cli_catch_signals();
  uint64_t total = 0;
  for (size_t i = 0; rf_cli_settings.progress_ms && i < j->npaths; i++)
    total += count_path(j->paths[i]);
  s.progress = rf_progress_start("replay", "files", total, r);
  for (size_t i = 0; i < j->npaths && !rf_cli_interrupted && !rf_cli_out_failed; i++)
    replay_path(&s, j->paths[i]);
  rf_progress_stop(s.progress);
  free(s.res);
  free(s.ex);
  rf_runner_destroy(r);
  return print_summary(j->sh, (int)rf_cli_interrupted);
}

int rf_cmd_replay(int argc, char **argv) {
  rf_flag_val v[RF_FLAG_COUNT];
  static const char *paths[MAX_PATHS];
  size_t npaths = 0;
  int p = rf_flags_parse("replay", rf_flags, RF_FLAG_COUNT, argc, argv, v, paths, MAX_PATHS,
                         &npaths, help, NULL);
  if (p) return p > 0 ? RF_EXIT_OK : RF_EXIT_USAGE;
  int verbose = v[F_VERBOSE].given != 0;
  rf_flags_free(v, RF_FLAG_COUNT);
  if (!npaths) {
    fprintf(stderr, "redfuzz replay: PATH: none given (allowed: one or more .case files or "
            "folders; see --help)\n");
    return RF_EXIT_USAGE;
  }
  replay_shared *sh = rf_cli_shared_alloc(sizeof *sh);
  if (!sh) {
    fprintf(stderr, "redfuzz replay: out of host memory\n");
    return RF_EXIT_FAIL;
  }
  replay_job job = {paths, npaths, verbose, sh};
  rf_cli_resume_init(&sh->rs);
  int rc = rf_cli_resume_run("replay", &sh->rs, replay_work, replay_summary_only, &job);
  rf_cli_shared_free(sh, sizeof *sh);
  return rc;
}

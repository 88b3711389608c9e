/* redfuzz replay: text cases with `expect <variant> <verdict>` lines; any mismatch fails. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "run/report.h"
#define RF_FLAGS_DEF "flags_replay.def"
#include "flags_table.h"

static const char help[] =
  "usage: redfuzz replay [--verbose] PATH...\n"
  "\n"
  "Replays text cases. PATH is a .case file or a folder (its *.case files, in name order).\n"
  "Each file may carry lines 'expect <variant> <verdict>': those variants must give exactly\n"
  "that verdict (a mutant must still fail the way it failed). Every other variant of the op\n"
  "that is not a mutant must pass (or be unsupported). Prints one line per file and a\n"
  "summary; exit status 1 when any file does not match, 2 when a file cannot be read.\n"
  "Files larger than 1 MiB, binary files and folders without .case files are errors.\n"
  "Ctrl-C stops after the current file and prints the summary so far (exit 130).\n"
  "\n";

#define MAX_PATHS 4096

#define MAX_EXPECTS 64

typedef struct { int files, matched, mismatched, unreadable, skipped; } tally;

static int check_results(const char *path, const rf_expect *ex, size_t n_ex, const rf_result *res,
                         int n) {
  int bad = 0;
  for (size_t e = 0; e < n_ex; e++) {
    const rf_result *r = NULL;
    for (int i = 0; i < n; i++)
      if (strcmp(res[i].variant->name, ex[e].variant) == 0) r = &res[i];
    if (!r) {
      printf("FAIL %s: expected %s %s, but that variant is not in this build\n", path,
             ex[e].variant, ex[e].verdict);
      bad = 1;
    } else if (strcmp(rf_verdict_name(r->verdict), ex[e].verdict) != 0) {
      printf("FAIL %s: %s expected %s, got %s%s%s\n", path, ex[e].variant, ex[e].verdict,
             rf_verdict_name(r->verdict), r->detail[0] ? ": " : "", r->detail);
      bad = 1;
    }
  }
  for (int i = 0; i < n; i++) {
    int listed = 0;
    for (size_t e = 0; e < n_ex; e++) listed |= strcmp(res[i].variant->name, ex[e].variant) == 0;
    if (listed || res[i].variant->is_mutant || !rf_verdict_is_failure(res[i].verdict)) continue;
    printf("FAIL %s: %s gave %s (correct variants must pass)%s%s\n", path, res[i].variant->name,
           rf_verdict_name(res[i].verdict), res[i].detail[0] ? ": " : "", res[i].detail);
    bad = 1;
  }
  return bad;
}

static void replay_file(rf_runner *r, const char *path, int verbose, tally *t) {
  char err[512];
  t->files++;
  rf_case c;
  rf_expect ex[MAX_EXPECTS];
  size_t n_ex = 0;
  if (rf_cli_text_case(path, &c, ex, MAX_EXPECTS, &n_ex, err, sizeof err)) {
    printf("ERROR %s\n", err);
    t->unreadable++;
    return;
  }
  rf_limits lim = rf_runner_limits(r);
  char why[256];
  if (rf_case_validate(&c, &lim, why, sizeof why)) {
    printf("SKIP %s: beyond this backend's limits (%s)\n", path, why);
    t->skipped++;
    return;
  }
  rf_result res[64];
  int n = rf_runner_run(r, &c, res, 64, err, sizeof err);
  if (n < 0) {
    printf("ERROR %s: %s\n", path, err);
    t->unreadable++;
    return;
  }
  if (verbose) rf_report_table(stdout, &c, res, (size_t)n);
  if (check_results(path, ex, n_ex, res, n)) {
    t->mismatched++;
  } else {
    printf("ok   %s (%d variants, %zu expectations)\n", path, n, n_ex);
    t->matched++;
  }
  fflush(stdout);
}

static int cmp_str(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

static void replay_path(rf_runner *r, const char *path, int verbose, tally *t) {
  struct stat st;
  if (stat(path, &st) != 0) {
    printf("ERROR %s: no such file or folder\n", path);
    t->files++;
    t->unreadable++;
    return;
  }
  if (!S_ISDIR(st.st_mode)) { replay_file(r, path, verbose, t); return; }
  DIR *d = opendir(path);
  if (!d) { printf("ERROR %s: cannot open folder\n", path); t->unreadable++; return; }
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
  if (n == 0) {
    printf("ERROR %s: a folder without .case files\n", path);
    t->files++;
    t->unreadable++;
  }
  if (n) qsort(names, n, sizeof *names, cmp_str);
  for (size_t i = 0; i < n; i++) {
    if (!rf_cli_interrupted) replay_file(r, names[i], verbose, t);
    free(names[i]);
  }
  free(names);
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
  rf_runner *r = rf_cli_runner("replay");
  if (!r) return RF_EXIT_FAIL;
  tally t = {0};
  rf_cli_catch_signals();
  for (size_t i = 0; i < npaths && !rf_cli_interrupted; i++) replay_path(r, paths[i], verbose, &t);
  rf_runner_destroy(r);
  if (rf_cli_interrupted)
    printf("replay: interrupted (signal %d): the summary covers the files replayed so far\n",
           (int)rf_cli_interrupted);
  printf("replay: %d files: %d matched, %d mismatched, %d unreadable, %d skipped\n", t.files,
         t.matched, t.mismatched, t.unreadable, t.skipped);
  printf("%d passed, %d failed\n", t.matched, t.mismatched + t.unreadable);
  if (rf_cli_interrupted) return 128 + (int)rf_cli_interrupted;
  if (t.unreadable) return RF_EXIT_USAGE;
  return t.mismatched ? RF_EXIT_FAIL : RF_EXIT_OK;
}

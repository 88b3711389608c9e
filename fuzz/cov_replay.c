/* redfuzz_cov_replay: runs fuzz inputs the way the libFuzzer target does, one variant at a
 * time, in the coverage report build (cmake/coverage.cmake) where the kernels carry clang's
 * source-based coverage. Each input decodes exactly as in the campaign (the campaign's
 * REDFUZZ_ONLY picks the op mapping and which variants a case reaches); only VARIANT is
 * launched, so the profile this process writes belongs to that variant alone.
 *
 *   redfuzz_cov_replay --list              the variants REDFUZZ_ONLY selects, one a line
 *   redfuzz_cov_replay VARIANT PATH...     PATH: a fuzz input or a folder of them
 *   redfuzz_cov_replay --probe VARIANT     runs VARIANT on a few small cases of its op and
 *                                          input type: its profile tells which functions are
 *                                          the variant's code, so that a variant no input
 *                                          reached shows its regions unreached (0/N), not 0/0
 *
 * Verdicts are not the point here (the campaign judged them), but failures of each variant's
 * first run are counted and printed so a report over a corpus with failing inputs says so
 * (the repeat, whose coverage is never kept, does not run). REDFUZZ_PLUGINS as in the
 * fuzz target. Exit status 0, or 2 for bad arguments or unreadable paths. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "run/runner.h"
#include "run/fuzz_select.h"
#include "kernels/plugin_loader.h"

#define RF_COV_MAX_INPUT (1u << 20)

static const char *target;   /* the one variant launched */
static char only[1024];      /* the campaign's selection: decoding and op mapping */

static int keep_target(const rf_variant *v, void *ctx) {
  (void)ctx;
  return strcmp(v->name, target) == 0;
}

typedef struct {
  rf_runner *runner;
  rf_fuzz_budget budget;
  long inputs, ran, failures;
} replay;

static int replay_file(replay *r, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "redfuzz_cov_replay: cannot read '%s'\n", path);
    return -1;
  }
  static uint8_t buf[RF_COV_MAX_INPUT];
  size_t n = fread(buf, 1, sizeof buf, f);
  fclose(f);
  rf_case c;
  rf_fuzz_decode_budget(buf, n, &r->budget, only, &c);
  static rf_result *res;   /* room for every variant of the registry, made once */
  static size_t max;
  if (!res) {
    max = rf_variant_count();
    res = calloc(max ? max : 1, sizeof *res);
    if (!res) { fprintf(stderr, "redfuzz_cov_replay: out of host memory\n"); exit(2); }
  }
  char err[512];
  int k = rf_runner_run(r->runner, &c, res, max, err, sizeof err);
  r->inputs++;
  if (k < 0) {
    fprintf(stderr, "redfuzz_cov_replay: %s: %s\n", path, err);
    return 0;
  }
  for (int i = 0; i < k; i++) {
    r->ran++;
    if (rf_verdict_is_failure(res[i].verdict)) {
      r->failures++;
      printf("failure: %s %s on %s\n", res[i].variant->name, rf_verdict_name(res[i].verdict), path);
    }
  }
  return 0;
}

static int cmp_names(const void *a, const void *b) {
  return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A folder: its regular files in name order (libFuzzer corpora are flat). */
static int replay_path(replay *r, const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) {
    fprintf(stderr, "redfuzz_cov_replay: no such file or folder '%s'\n", path);
    return -1;
  }
  if (!S_ISDIR(st.st_mode)) return replay_file(r, path);
  DIR *d = opendir(path);
  if (!d) {
    fprintf(stderr, "redfuzz_cov_replay: cannot open folder '%s'\n", path);
    return -1;
  }
  char **names = NULL;
  size_t count = 0, cap = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    if (e->d_name[0] == '.') continue;
    if (count == cap) {
      cap = cap ? 2 * cap : 256;
      char **grown = realloc(names, cap * sizeof *names);
      if (!grown) abort();
      names = grown;
    }
    names[count] = malloc(strlen(path) + strlen(e->d_name) + 2);
    if (!names[count]) abort();
    sprintf(names[count], "%s/%s", path, e->d_name);
    count++;
  }
  closedir(d);
  qsort(names, count, sizeof *names, cmp_names);
  int rc = 0;
  for (size_t i = 0; i < count; i++) {
    if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode) && replay_file(r, names[i]) != 0) rc = -1;
    free(names[i]);
  }
  free(names);
  return rc;
}

/* --probe: a few cases of the variant's op and input type, sizes where launch logic changes
 * (a block, several blocks, a second kernel's range); verdicts are not the point. */
static int probe(rf_runner *runner, const rf_variant *v) {
  static const uint64_t ns[] = {33, 1027, 65537};
  static const uint32_t shapes[][2] = {{1, 33}, {4, 1027}, {2, 4097}};
  rf_result *res = calloc(rf_variant_count() ? rf_variant_count() : 1, sizeof *res);
  if (!res) { fprintf(stderr, "redfuzz_cov_replay: out of host memory\n"); return 2; }
  long ran = 0;
  for (int k = 0; k < 3; k++) {
    rf_case c;
    rf_case_default(&c);
    c.op = v->op;
    c.dtype = v->in_dtype;
    c.dist = RF_DIST_UNIFORM;
    if (rf_op_has_rows(c.op)) {
      c.n = 0;
      c.rows = shapes[k][0];
      c.cols = shapes[k][1];
    } else {
      c.n = ns[k];
    }
    snprintf(c.variant, sizeof c.variant, "%s", v->name);
    char err[512];
    const int n = rf_runner_run(runner, &c, res, rf_variant_count(), err, sizeof err);
    if (n < 0) fprintf(stderr, "redfuzz_cov_replay: probe %s: %s\n", v->name, err);
    else ran += n;
  }
  printf("%s: probed, launched on %ld of 3 cases\n", v->name, ran);
  free(res);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    fprintf(stderr, "usage: redfuzz_cov_replay --list | VARIANT PATH... | --probe VARIANT\n");
    return 2;
  }
  char err[512];
  /* The environment is read once, here at the edge, like the fuzz target reads it. */
  static rf_settings set;
  if (rf_settings_from_env(&set, err, sizeof err)) {
    fprintf(stderr, "redfuzz_cov_replay: %s\n", err);
    return 2;
  }
  /* The selection rule of every command (run/fuzz_select.h): plugins, then the names. */
  char why[512];
  if (rf_select_load_env_plugins(&set, err, sizeof err)) {
    fprintf(stderr, "redfuzz_cov_replay: %s\n", err);
    return 2;
  }
  if (rf_select_check_list(set.only_text, 1, why, sizeof why)) {
    fprintf(stderr, "redfuzz_cov_replay: REDFUZZ_ONLY: %s\n", why);
    return 2;
  }
  snprintf(only, sizeof only, "%s", set.only_text);
  if (rf_only_single_op(only) == -2) {
    fprintf(stderr, "redfuzz_cov_replay: REDFUZZ_ONLY='%s' selects no variant\n", only);
    return 2;
  }
  if (strcmp(argv[1], "--list") == 0) {
    for (size_t i = 0; i < rf_variant_count(); i++)
      if (rf_only_keeps(only, rf_variant_at(i))) printf("%s\n", rf_variant_at(i)->name);
    return 0;
  }
  const int probing = strcmp(argv[1], "--probe") == 0;
  if (probing && argc != 3) {
    fprintf(stderr, "redfuzz_cov_replay: --probe VARIANT: one variant\n");
    return 2;
  }
  target = argv[probing ? 2 : 1];
  if (!rf_variant_find(target)) {
    fprintf(stderr, "redfuzz_cov_replay: VARIANT '%s' is not in this build (see --list)\n", target);
    return 2;
  }
  if (argc < 3) {
    fprintf(stderr, "redfuzz_cov_replay: no PATH to replay\n");
    return 2;
  }
  replay r = {0};
  r.runner = rf_runner_create(&set, err, sizeof err);
  if (!r.runner) {
    fprintf(stderr, "redfuzz_cov_replay: %s\n", err);
    return 2;
  }
  r.budget = rf_fuzz_budget_of(&set);
  rf_runner_set_filter(r.runner, keep_target, NULL);
  /* No repeat: its kernel coverage is never kept (run/runner.h), and it was ~40 % of each
   * replay's time. A failure only a repeat shows is not counted here. */
  rf_runner_set_repeat(r.runner, 0);
  if (probing) {
    const int prc = probe(r.runner, rf_variant_find(target));
    rf_runner_destroy(r.runner);
    return prc;
  }
  int rc = 0;
  for (int i = 2; i < argc; i++)
    if (replay_path(&r, argv[i]) != 0) rc = 2;
  printf("%s: %ld inputs, launched on %ld, %ld failures\n", target, r.inputs, r.ran, r.failures);
  rf_runner_destroy(r.runner);
  return rc;
}

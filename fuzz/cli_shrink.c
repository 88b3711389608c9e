/* redfuzz shrink: a failing case (libFuzzer artifact or text) → a small regression file. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include "cli.h"
#include "shrink.h"
#include "report.h"
#include "fuzz_select.h"

static const char help[] =
  "usage: redfuzz shrink FILE [--variant NAME] [--out DIR] [--only LIST]\n"
  "\n"
  "FILE is a text case or a binary fuzz input (a libFuzzer crash artifact). The failure\n"
  "signature is the first failing variant and its verdict (or --variant's verdict). The case\n"
  "is shrunk while that signature holds: smaller n / rows / cols, plainer distribution\n"
  "(towards ones; a special value towards the simplest one: nan-sprinkled to all-nan,\n"
  "inf-mixed to all-neg-inf, ties to equal-max), default launch parameters, smaller seed.\n"
  "The result is written to\n"
  "DIR/<op>-<variant>-<verdict>-<hash>.case (default DIR: regressions) with an expect line\n"
  "for every variant, and its path printed last.\n"
  "\n"
  "  --only LIST        the REDFUZZ_ONLY list the fuzzer ran with ('' = every correct\n"
  "                     variant): a binary FILE decodes to the same case (op mapping), and\n"
  "                     only those variants make the signature, as in the fuzzer. Without\n"
  "                     --only every variant, mutants included, may.\n";

static const char *g_only;
static int only_keeps(const rf_variant *v, void *ctx) { (void)ctx; return rf_only_keeps(g_only, v); }


static int load(rf_runner *r, const char *path, const char *only, rf_case *c) {
  char err[512];
  FILE *f = fopen(path, "rb");
  if (!f) { fprintf(stderr, "redfuzz shrink: %s: cannot open\n", path); return -1; }
  static uint8_t buf[1 << 16];
  size_t len = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[len] = 0;
  size_t n_exp = 0;
  int text = memchr(buf, 0, len) == NULL && memchr(buf, '=', len) != NULL;
  if (text && rf_case_parse_text((const char *)buf, c, NULL, 0, &n_exp, err, sizeof err) == 0)
    return 0;
  if (text) {
    fprintf(stderr, "redfuzz shrink: %s: %s\n", path, err);
    return -1;
  }
  rf_limits rl = rf_runner_limits(r);
  rf_limits lim = rf_fuzz_limits(&rl, rf_runner_device(r)->backend);
  return rf_fuzz_decode_like_target(buf, len, &lim, only, c);
}

int rf_cmd_shrink(int argc, char **argv) {
  const char *file = NULL, *out = "regressions", *variant = NULL, *only = "";
  int only_given = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) { fputs(help, stdout); return 0; }
    if ((strcmp(a, "--out") == 0 || strcmp(a, "--variant") == 0 || strcmp(a, "--only") == 0)) {
      if (i + 1 >= argc) { fprintf(stderr, "redfuzz shrink: %s needs a value\n", a); return RF_EXIT_USAGE; }
      const char *v = argv[++i];
      if (a[2] == 'o' && a[3] == 'u') out = v;
      else if (a[2] == 'o') { only = v; only_given = 1; }
      else variant = v;
    } else if (a[0] == '-' || file) {
      fprintf(stderr, "redfuzz shrink: unexpected argument '%s' (see redfuzz shrink --help)\n", a);
      return RF_EXIT_USAGE;
    } else {
      file = a;
    }
  }
  if (!file) { fprintf(stderr, "redfuzz shrink: give a case file (see --help)\n"); return RF_EXIT_USAGE; }
  rf_runner *r = rf_cli_runner("shrink");
  if (!r) return RF_EXIT_FAIL;
  g_only = only;
  if (only_given && !variant) rf_runner_set_filter(r, only_keeps, NULL);
  rf_case c;
  int rc = RF_EXIT_USAGE;
  rf_signature sig;
  if (load(r, file, only, &c)) goto done;
  printf("case:   ");
  rf_report_case_line(stdout, &c);
  if (variant) {
    rf_case one = c;
    snprintf(one.variant, sizeof one.variant, "%s", variant);
    if (rf_first_failure(r, &one, &sig)) {
      fprintf(stderr, "redfuzz shrink: %s does not fail on this case\n", variant);
      rc = RF_EXIT_FAIL;
      goto done;
    }
  } else if (rf_first_failure(r, &c, &sig)) {
    fprintf(stderr, "redfuzz shrink: no variant fails on this case; nothing to shrink\n");
    rc = RF_EXIT_FAIL;
    goto done;
  }
  c.variant[0] = 0;
  printf("signature: %s %s\n", sig.variant, rf_verdict_name(sig.verdict));
  int steps = rf_shrink(r, &c, &sig, stdout);
  char path[1024], err[512];
  if (mkdir(out, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "redfuzz shrink: --out %s: cannot create: %s\n", out, strerror(errno));
    rc = RF_EXIT_FAIL;
    goto done;
  }
  rf_runner_set_filter(r, NULL, NULL);   /* the file states every variant's verdict */
  if (rf_write_regression(r, &c, &sig, out, path, sizeof path, err, sizeof err)) {
    fprintf(stderr, "redfuzz shrink: %s\n", err);
    rc = RF_EXIT_FAIL;
    goto done;
  }
  printf("shrunk in %d steps: ", steps);
  rf_report_case_line(stdout, &c);
  printf("%s\n", path);
  rc = RF_EXIT_OK;
done:
  rf_runner_destroy(r);
  return rc;
}

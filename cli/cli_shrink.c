/* redfuzz shrink: a failing case (libFuzzer artifact or text) → a small regression file. */
#include <errno.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include "cli.h"
#include "model/dtype.h"
#include "run/shrink.h"
#include "run/report.h"
#include "run/fuzz_select.h"

#define RF_FLAGS_DEF "flags_shrink.def"
#include "flags_table.h"

static const char help[] =
  "usage: redfuzz shrink FILE [options]\n"
  "\n"
  "FILE is a text case or a binary fuzz input (a libFuzzer crash artifact), at most 1 MiB:\n"
  "printable text with a key=value line is a text case, anything else a fuzz input. A fuzz\n"
  "input decodes as the fuzz target decoded it (redfuzz decode --help: the selection from\n"
  "--only, REDFUZZ_ONLY or FILE.case, the decoded case its campaign wrote beside it, which it\n"
  "must match). A case that names plugins (plugins=) needs them loaded (--plugin).\n"
  "The failure signature is the first failing variant and its verdict (or --variant's verdict),\n"
  "with the contract rule that decided it where one did (signed-zero, nan-ignored,\n"
  "nan-propagates, tie-first, tie-any, masked-row-nan, masked-row-zero: printed as\n"
  "'rule: NAME').\n"
  "The case is shrunk while that signature holds: smaller n / rows / cols, plainer\n"
  "distribution (towards ones), default launch parameters, smaller seed. The result is\n"
  "written to DIR/<op>-<variant>-<verdict>[-<rule>]-<hash>.case with an expect line for\n"
  "every variant, the plugins loaded (plugins=) and the selection (only=), and its path\n"
  "printed last. DIR (--out) defaults to findings/<plugin name> for a plugin's variant (a\n"
  "user's kernel: its findings are the user's, docs/FINDINGS.md) and to regressions for a\n"
  "built-in one.\n"
  "\n";
static const char help_tail[] =
  "\nExit status: 0 shrunk, or nothing fails on FILE (then 'nothing to shrink' is printed and\n"
  "no file written: a fuzz artifact that does not reproduce is not an error of shrink), 2 bad\n"
  "usage, an unreadable FILE, or a regression file or output that cannot be written (nothing\n"
  "is left half-written). A different file already at the regression's name is kept: the\n"
  "new one takes NAME-2.case (NAME-3.case, ...), and shrink says so.\n";

static const char *g_only;
static int only_keeps(const rf_variant *v, void *ctx) { (void)ctx; return rf_only_keeps(g_only, v); }

/* FILE as a case, its selection resolved (rf_cli_selection) into only and its needs recorded.
 * 0, or -1 after a message. */
static int load(const char *path, const char *flag_only, char *only, size_t onlylen,
                rf_case *c) {
  char err[1024];
  size_t len = 0, skip = 0;
  char *buf = rf_cli_read_file(path, &len, err, sizeof err);
  if (!buf) { rf_cli_line(stderr, "redfuzz shrink: FILE: %s\n", err); return -1; }
  int text = rf_cli_is_text((const unsigned char *)buf, len, &skip) && memchr(buf, '=', len);
  if (text) {
    free(buf);
    if (rf_cli_text_case(path, c, NULL, 0, NULL, err, sizeof err)) {
      rf_cli_line(stderr, "redfuzz shrink: FILE: %s\n", err);
      return -1;
    }
    if (rf_cli_selection("shrink", flag_only, c->only, "the case's only", only, onlylen))
      return -1;
    return rf_cli_record_needs("shrink", c, only);
  }
  char recorded[RF_CASE_LIST_MAX];
  if (rf_cli_sibling_only("shrink", path, recorded, sizeof recorded) ||
      rf_cli_selection("shrink", flag_only, recorded, "FILE.case's only", only, onlylen)) {
    free(buf);
    return -1;
  }
  rf_fuzz_budget budget = rf_fuzz_budget_of(&rf_cli_settings);
  rf_fuzz_decode_budget((const uint8_t *)buf, len, &budget, only, c);
  free(buf);
  if (rf_cli_record_needs("shrink", c, only)) return -1;
  return rf_cli_check_sibling("shrink", path, c);
}

int rf_cmd_shrink(int argc, char **argv) {
  rf_flag_val v[RF_FLAG_COUNT];
  const char *files[1];
  size_t nfiles = 0;
  int p = rf_flags_parse("shrink", rf_flags, RF_FLAG_COUNT, argc, argv, v, files, 1, &nfiles,
                         help, help_tail);
  if (p) return p > 0 ? RF_EXIT_OK : RF_EXIT_USAGE;
  const char *file = nfiles ? files[0] : NULL;
  const char *variant = v[F_VARIANT].given ? v[F_VARIANT].text : NULL;
  if (!file) {
    fprintf(stderr, "redfuzz shrink: FILE: none given (allowed: a text case or a fuzz input; "
            "see --help)\n");
    return RF_EXIT_USAGE;
  }
  if (variant && rf_cli_check_variant("shrink", &rf_flags[F_VARIANT], variant, -1))
    return RF_EXIT_USAGE;
  rf_case c;
  static char only[RF_CASE_LIST_MAX];
  if (load(file, v[F_ONLY].given ? v[F_ONLY].text : NULL, only, sizeof only, &c))
    return RF_EXIT_USAGE;
  rf_runner *r = rf_cli_runner("shrink");
  if (!r) return RF_EXIT_FAIL;
  g_only = only;
  /* A selection (even '' given as such: every correct variant) makes the signature, as in the
   * fuzzer; none at all: every variant, mutants included. */
  if ((v[F_ONLY].given || rf_cli_settings.only_set || only[0]) && !variant)
    rf_runner_set_filter(r, only_keeps, NULL);
  int rc = RF_EXIT_USAGE;
  rf_signature sig;
  rf_cli_catch_signals();
  printf("case:   ");
  rf_report_case_line(stdout, &c);
  if (variant) {
    /* A variant of another op or input type never runs on this case: "does not fail on this
     * case" (exit 0) was not true, it was never tried. */
    const rf_variant *named = rf_variant_find(variant);
    if (named->op != c.op || named->in_dtype != c.dtype) {
      rf_flag_error("shrink", &rf_flags[F_VARIANT], variant, "is a %s variant reading %s, but "
                    "the case is %s on %s (allowed: a %s variant reading %s)",
                    rf_op_name(named->op), rf_dtype_name(named->in_dtype), rf_op_name(c.op),
                    rf_dtype_name(c.dtype), rf_op_name(c.op), rf_dtype_name(c.dtype));
      goto done;
    }
    rf_case one = c;
    snprintf(one.variant, sizeof one.variant, "%s", variant);
    if (rf_first_failure(r, &one, &sig)) {
      printf("shrink: nothing to shrink: %s does not fail on this case\n", variant);
      rc = RF_EXIT_OK;
      goto done;
    }
  } else if (rf_first_failure(r, &c, &sig)) {
    printf("shrink: nothing to shrink: no variant fails on this case\n");
    rc = RF_EXIT_OK;
    goto done;
  }
  c.variant[0] = 0;
  printf("signature: %s %s\n", sig.variant, rf_verdict_name(sig.verdict));
  if (sig.rule)   /* part of the signature: kept while shrinking, in the file's name */
    printf("rule: %s (the contract rule that decided it)\n", rf_rule_name(sig.rule));
  if (rf_cli_out_check("shrink")) { rc = RF_EXIT_USAGE; goto done; }   /* no work unseen */
  int steps = rf_shrink(r, &c, &sig, stdout);
  char path[4096], err[4400], dflt[512];
  if (rf_cli_interrupted) goto done;   /* a stop: no regression file from a shrink cut short */
  rf_cli_findings_dir(rf_variant_find(sig.variant), dflt, sizeof dflt);
  const char *out = v[F_OUT].given ? v[F_OUT].text : dflt;
  if (rf_cli_mkdirs(out, err, sizeof err)) {
    fprintf(stderr, "redfuzz shrink: --out %s\n", err);
    rc = RF_EXIT_USAGE;
    goto done;
  }
  rf_runner_set_filter(r, NULL, NULL);   /* the file states every variant's verdict */
  int wrote = rf_write_regression(r, &c, &sig, out, path, sizeof path, err, sizeof err);
  if (rf_cli_interrupted) goto done;
  if (wrote < 0) {
    fprintf(stderr, "redfuzz shrink: %s\n", err);
    rc = RF_EXIT_USAGE;
    goto done;
  }
  if (wrote == 1) printf("shrink: %s is there already with the same content\n", path);
  if (wrote == 2)
    printf("shrink: a different file (an edited regression?) has this case's name: kept it, "
           "wrote %s\n", path);
  printf("shrunk in %d steps: ", steps);
  rf_report_case_line(stdout, &c);
  printf("%s\n", path);
  rc = RF_EXIT_OK;
done:
  if (rf_cli_interrupted) {   /* a stop: whatever the runs it cut short said is not kept */
    fprintf(stderr, "redfuzz shrink: interrupted (signal %d): no regression file written\n",
            (int)rf_cli_interrupted);
    rc = 128 + (int)rf_cli_interrupted;
  }
  rf_runner_destroy(r);
  return rc;
}

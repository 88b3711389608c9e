/* redfuzz: differential correctness fuzzer for GPU reductions. */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "cli.h"
#include "kernels/plugin_loader.h"
#include "run/fuzz_select.h"
#include "run/contain.h"
#include "run/stack_limit.h"

static const char usage[] =
  "usage: redfuzz [--plugin LIB.so]... <command> [options]\n"
  "\n"
  "Runs every GPU reduction/softmax variant on a case and holds each against an exact\n"
  "oracle with an error bound derived from the variant's combining tree. Ops: sum, max,\n"
  "argmax, min, argmin (1-D) and softmax, logsumexp, logsoftmax (row-wise).\n"
  "\n"
  "commands:\n"
  "  run      run one case (from flags or a text case file); prints a verdict table\n"
  "  list     list the variants, their plans and launch constraints\n"
  "  replay   replay text cases (files or folders) and check their expected verdicts\n"
  "  shrink   shrink a failing case (text or fuzz artifact) into a finding file\n"
  "           (findings/<plugin> for a plugin's kernel, regressions/ for a built-in one)\n"
  "  guard    after a fix: findings that now pass become guards (expect pass) for CI\n"
  "  study    error against summation order: every variant x distribution x size x seed,\n"
  "           CSV tables of error and error/bound (scripts/study.sh adds the plots)\n"
  "  tolerance the rtol/atol a unit test can hold a variant of any op to (--op): derived\n"
  "           bound, largest error observed, assert_close figures over the swept sizes and\n"
  "           distributions\n"
  "  bench    time every variant (median ms, GB/s) beside the copy ceiling and CUB, each\n"
  "           with its oracle verdict\n"
  "  sweep    every variant over lists of sizes, distributions, launches, schedules\n"
  "  encode   text case -> binary fuzz input (seed corpus)\n"
  "  decode   binary fuzz input -> text case, as the fuzz target decodes it\n"
  "\n"
  "option (before the command):\n"
  "  --plugin LIB.so  load extra variants from a plugin (include/redfuzz/plugin.h) before\n"
  "                   the command; repeatable\n"
  "\n"
  "'redfuzz <command> --help' describes each command. Exit status: 0 all verdicts pass,\n"
  "1 a failure verdict or expectation mismatch, 2 bad usage or input, or an output (file or\n"
  "standard output) that cannot be written, 128 + the signal when interrupted (130 Ctrl-C,\n"
  "143 SIGTERM: sweep, study, bench and replay print the summary so far first).\n"
  "Long commands (sweep, replay, study, tolerance, bench) write a progress line to stderr\n"
  "every few seconds, to a terminal or a pipe (REDFUZZ_PROGRESS_MS below).\n"
  "\n"
  "environment (read once at start; a bad value is an error, exit 2):\n";

rf_settings rf_cli_settings;

/* Before main, whose frame alone is larger than the smallest stacks a shell lets one set: a
 * stack limit too small for redfuzz is raised where the hard limit allows, or is an error
 * naming it (run/stack_limit.h), never a bare SIGSEGV later. */
__attribute__((constructor)) static void stack_first(void) {
  /* snprintf and write: fprintf to unbuffered stderr takes an 8 KiB buffer on the stack */
  char err[400], line[440];
  if (rf_stack_ensure(err, sizeof err)) {
    const int n = snprintf(line, sizeof line, "redfuzz: %s\n", err);
    ssize_t w = write(2, line, n > 0 && (size_t)n < sizeof line ? (size_t)n : sizeof line - 1);
    (void)w;
    _exit(RF_EXIT_USAGE);
  }
}

int main(int argc, char **argv) {
  /* Standard output is the commands' own: plugin code's output (its entry points, kernels,
   * loading) goes to standard error, never into --json or CSV (run/contain.h). */
  rf_contain_stdout();
  {
    /* Environment first, once: a bad REDFUZZ_* value is a usage error like a bad flag. */
    char err[512];
    if (rf_settings_from_env(&rf_cli_settings, err, sizeof err)) {
      fprintf(stderr, "redfuzz: %s\n", err);
      return RF_EXIT_USAGE;
    }
  }
  /* The selection rule (run/fuzz_select.h): REDFUZZ_PLUGINS first, for every command as for
   * the fuzz target (a shrink of a plugin's finding runs the plugin), then each --plugin. */
  /* Plugin code that ends the process while being loaded is named (exit 3): run/contain.h. */
  rf_contain_loading(1);
  {
    char err[1024];
    if (rf_select_load_env_plugins(&rf_cli_settings, err, sizeof err)) {
      fprintf(stderr, "redfuzz: %s\n", err);
      return RF_EXIT_USAGE;
    }
  }
  /* --plugin options come before the command, so every command sees the same registry. */
  while (argc >= 2 && strcmp(argv[1], "--plugin") == 0) {
    char err[512];
    if (argc < 3) {
      fputs("redfuzz: --plugin needs a shared library path (redfuzz --plugin LIB.so <command>)\n",
            stderr);
      return RF_EXIT_USAGE;
    }
    if (rf_plugin_load(argv[2], err, sizeof err) < 0) {
      fprintf(stderr, "redfuzz: %s\n", err);
      return RF_EXIT_USAGE;
    }
    argv[2] = argv[0];
    argc -= 2;
    argv += 2;
  }
  rf_contain_loading(0);
  {
    /* REDFUZZ_ONLY is the fuzz targets' (redfuzz_fuzz, redfuzz_cov_replay), but checked here
     * too, by the same rule, once every plugin is loaded: a script that sets it for a campaign
     * learns of a misspelt name from its first redfuzz command. */
    char why[512];
    if (rf_select_check_list(rf_cli_settings.only_text, 1, why, sizeof why)) {
      fprintf(stderr, "redfuzz: REDFUZZ_ONLY: %s\n", why);
      return RF_EXIT_USAGE;
    }
  }
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 ||
      strcmp(argv[1], "help") == 0) {
    char env[16384];
    rf_settings_help(env, sizeof env);
    fputs(usage, argc < 2 ? stderr : stdout);
    fputs(env, argc < 2 ? stderr : stdout);
    return argc < 2 ? RF_EXIT_USAGE : rf_cli_out_finish("help", RF_EXIT_OK);
  }
  const char *cmd = argv[1];
  /* A write past `ulimit -f` fails with EFBIG (reported) instead of killing the process. */
  signal(SIGXFSZ, SIG_IGN);
  static const struct { const char *name; int (*fn)(int, char **); } cmds[] = {
    {"run", rf_cmd_run},       {"list", rf_cmd_list},     {"replay", rf_cmd_replay},
    {"guard", rf_cmd_guard},
    {"shrink", rf_cmd_shrink}, {"study", rf_cmd_study},   {"tolerance", rf_cmd_tolerance},
    {"bench", rf_cmd_bench},   {"sweep", rf_cmd_sweep},   {"encode", rf_cmd_encode},
    {"decode", rf_cmd_decode},
  };
  for (size_t i = 0; i < sizeof cmds / sizeof *cmds; i++)
    if (strcmp(cmd, cmds[i].name) == 0) {   /* stdout checked once more at the end */
      const int rc = rf_cli_out_finish(cmd, cmds[i].fn(argc - 1, argv + 1));
      rf_contain_stdout_end();   /* what plugin destructors print at exit: stderr */
      return rc;
    }
  fprintf(stderr, "redfuzz: unknown command '%s' (allowed: run, list, replay, guard, shrink, study, tolerance, bench, sweep, encode, decode; see redfuzz --help)\n",
          cmd);
  return RF_EXIT_USAGE;
}

/* The redfuzz command line: one function per subcommand; flags from tables (flags.h). */
#ifndef RF_CLI_H
#define RF_CLI_H
#include <signal.h>
#include <stdio.h>
#include "flags.h"
#include "model/case.h"
#include "run/runner.h"

/* Exit statuses: 0 all pass, 1 a failure verdict or mismatch, 2 usage / input error, or an
 * output (a file, standard output) that could not be written (docs/CLI.md, "Exit status"). */
enum { RF_EXIT_OK = 0, RF_EXIT_FAIL = 1, RF_EXIT_USAGE = 2 };
/* Ctrl-C (SIGINT) or SIGTERM during a long command: 128 + the signal, as shells report it,
 * after the partial summary. */
enum { RF_EXIT_INTERRUPTED = 130 };
/* A worker process asking its parent for a fresh one (the device was lost to a fault). */
enum { RF_EXIT_RESTART = 75 };

int rf_cmd_run(int argc, char **argv);
int rf_cmd_list(int argc, char **argv);
int rf_cmd_replay(int argc, char **argv);
int rf_cmd_guard(int argc, char **argv);
int rf_cmd_shrink(int argc, char **argv);
int rf_cmd_study(int argc, char **argv);
int rf_cmd_tolerance(int argc, char **argv);
int rf_cmd_bench(int argc, char **argv);
int rf_cmd_sweep(int argc, char **argv);
int rf_cmd_encode(int argc, char **argv);
int rf_cmd_decode(int argc, char **argv);

/* ---- input files (cli_input.c) -------------------------------------------------------- */
/* Case files and fuzz inputs are small: anything larger is refused at once (reading stops one
 * byte past the limit, so /dev/zero or a huge file ends promptly). */
#define RF_CLI_FILE_MAX (1u << 20)
/* A text case names each variant at most once and a build has at most 256 variants, so more
 * expect lines than this are refused before parsing, with a message that says so (the file
 * cannot be a regression file of this tool). */
#define RF_CLI_MAX_EXPECTS 256
/* Reads a whole regular file (or device) of at most RF_CLI_FILE_MAX bytes into a
 * NUL-terminated buffer (caller frees), *len bytes; NULL with err ("PATH: why"). Folders,
 * FIFOs and sockets are refused without a read, and nothing waits: a device with nothing to
 * give now is a read error. */
char *rf_cli_read_file(const char *path, size_t *len, char *err, size_t errlen);
/* Text or binary, by one rule everywhere: text has no NUL and no control byte other than
 * \t \n \v \f \r. A UTF-8 byte-order mark at the start is allowed in text: *skip is set to its
 * length (3) or 0. */
int rf_cli_is_text(const unsigned char *p, size_t len, size_t *skip);
/* Reads a text case file (run --case, replay, shrink, encode): bounded, told from a binary
 * fuzz input (with the 'redfuzz decode' hint), expects counted before parsing. 0, or -1 with
 * err (no "redfuzz CMD:" prefix). */
/* "PATH: line LINE" of the field a message about the last case read starts with ("n: ..."), or
 * "PATH" when that field is not in the file (rf_cli_text_case notes the lines). */
void rf_cli_case_where(const char *path, const char *why, char *buf, size_t len);
int rf_cli_text_case(const char *path, rf_case *c, rf_expect *ex, size_t max_ex, size_t *n_ex,
                     char *err, size_t errlen);

/* The first line shrink writes into a regression file (run/shrink.c). */
#define RF_CLI_REGRESSION_HEADER "# redfuzz regression:"
/* rf_cli_text_case, stricter for replay (docs/CASE_FORMAT.md "What replay refuses"): also
 * refuses a file whose last line has no newline (cut short), one without a key=value line
 * (empty, or only comments), and a regression file (RF_CLI_REGRESSION_HEADER) without expect
 * lines. */
int rf_cli_replay_case(const char *path, rf_case *c, rf_expect *ex, size_t max_ex, size_t *n_ex,
                       char *err, size_t errlen);
/* The same, also handing over the bytes it read and parsed (*textp, *lenp; the caller frees
 * *textp, NULL when nothing could be read): redfuzz guard rewrites exactly those. */
int rf_cli_replay_case_text(const char *path, char **textp, size_t *lenp, rf_case *c,
                            rf_expect *ex, size_t max_ex, size_t *n_ex, char *err,
                            size_t errlen);

/* ---- case flags (cli_case.c) ---------------------------------------------------------- */
enum {
#define FLAG(id, name, type, meta, def, lo, hi, max, names, help) CF_##id,
#include "flags_case.def"
#undef FLAG
  CF_COUNT
};
/* Builds the case from the case flags vals[0..CF_COUNT): the --case file first (if given),
 * then every other given flag on top, in any order. softmax without --shape gets 4x33; an op
 * without a size keeps its own default; --shape on a 1-D op, --n on softmax, a --variant that
 * is not in this build or not of --op are errors. Validates against lim. 0, or -1 after a
 * message. */
int rf_cli_case_build(const char *cmd, const rf_flag_spec *specs, const rf_flag_val *vals,
                      const rf_limits *lim, rf_case *out);
/* Checks a variant name: in the registry and (op >= 0) of that op; -1 after a message naming
 * the flag. */
int rf_cli_check_variant(const char *cmd, const rf_flag_spec *s, const char *name, int op);

/* ---- findings (cli_findings.c; docs/FINDINGS.md) ------------------------------------- */
/* The selection a fuzz input decodes under, as the fuzz target takes it: --only (flag, NULL
 * when not given), REDFUZZ_ONLY, or `recorded` (a case's only field, NULL or "" when none;
 * recorded_from names it in messages). Sources that disagree are an error naming both (an
 * input decodes to another case under another selection); every name must select a variant.
 * The list into out. 0, or -1 after a message (exit 2). */
int rf_cli_selection(const char *cmd, const char *flag, const char *recorded,
                     const char *recorded_from, char *out, size_t outlen);
/* Records what c needs besides its values: the names of the plugins loaded and the selection
 * only. 0, or -1 after a message. */
int rf_cli_record_needs(const char *cmd, rf_case *c, const char *only);
/* The selection recorded in PATH.case, the decoded case a campaign keeps beside the artifact
 * PATH ("" when there is none). 0, or -1 after a message (one there that cannot be read). */
int rf_cli_sibling_only(const char *cmd, const char *path, char *only, size_t len);
/* When PATH.case is there: 0 when `decoded` (PATH decoded here, its needs recorded) is the case
 * it holds, else -1 after a message naming the first field that differs and what to do. 0
 * when there is none. */
int rf_cli_check_sibling(const char *cmd, const char *path, const rf_case *decoded);
/* " --plugin PATH" for each plugin loaded ("" when none): the flags a command this one
 * suggests needs (replay's hint to run guard). */
void rf_cli_plugin_args(char *buf, size_t len);
/* Creates path and every folder above it that is missing. 0, or -1 with err. */
int rf_cli_mkdirs(const char *path, char *err, size_t errlen);
/* Where a finding of v goes by default: findings/<plugin name> (under the current folder) for
 * a plugin's variant, never the project's regressions/; regressions for a built-in one. */
void rf_cli_findings_dir(const rf_variant *v, char *buf, size_t len);

/* The REDFUZZ_* settings, read from the environment once by main (run/settings.def). */
extern rf_settings rf_cli_settings;
/* Creates the runner (with rf_cli_settings) or prints why not. */
rf_runner *rf_cli_runner(const char *cmd);

/* ---- worker processes (cli_worker.c) -------------------------------------------------- */
/* Memory shared with worker processes forked later (zero-filled), or NULL. */
void *rf_cli_shared_alloc(size_t bytes);
void rf_cli_shared_free(void *p, size_t bytes);
/* Runs work(ctx) in a child process, again in a new child each time one exits with
 * RF_EXIT_RESTART (counted in *restarts), and returns the last one's exit status, -signal when
 * it died of one, or -1 when no child could start. Ctrl-C and SIGTERM go to the child once
 * each. Call it before anything touches the device. */
int rf_cli_supervise(const char *cmd, int (*work)(void *ctx), void *ctx, int *restarts);

/* ---- fault and resume (cli_resume.c) ------------------------------------------------- */
/* Where a command that runs numbered units (cases, files) stands, kept in memory shared with
 * its worker processes (rf_cli_shared_alloc), so that a worker lost to a GPU fault loses
 * nothing done: units before `next` are done, and a new worker skips them. */
#define RF_CLI_RESUME_MAX_CRASHED 16
typedef struct {
  long next;            /* the first unit not yet done */
  long serial_until;    /* units before it run one launch per synchronisation (to name a fault) */
  int n_crashed;        /* variants that faulted on unit `next`: their `crash` results, kept */
  rf_result crashed[RF_CLI_RESUME_MAX_CRASHED];   /* while a new worker runs its other variants */
  long errors;          /* units lost with no variant to name (a copy or an allocation failed) */
  int faults, restarts, supervised;
} rf_cli_resume;
/* Whether the command runs in worker processes: on GPUs, or on the simulator with
 * REDFUZZ_SIM_FAULT_LOSES_DEVICE=1 (testing). */
void rf_cli_resume_init(rf_cli_resume *rs);
/* Whether unit runs one launch per synchronisation (a fault to name, or REDFUZZ_SERIAL). */
int rf_cli_resume_serial(const rf_cli_resume *rs, long unit);
/* For the runner's filter: 0 for a variant that faulted on the unit being resumed. */
int rf_cli_resume_keeps(const rf_cli_resume *rs, const rf_variant *v);
/* Whether unit is the one being resumed (run it alone: the filter above is for it only). */
int rf_cli_resume_pending(const rf_cli_resume *rs, long unit);
/* Appends the kept `crash` results to res[0..n) (room for them is the caller's) and forgets
 * them; returns the new count. */
int rf_cli_resume_take(rf_cli_resume *rs, rf_result *res, int n);
/* The device was lost (rf_dev_lost()) while units [unit, batch_end) ran, `serial` telling how;
 * res[0..n) are unit's results. Records what is known (the header of cli_resume.c) and ends
 * this worker with RF_EXIT_RESTART, for rf_cli_supervise to start the next. Units before
 * `unit` must be recorded by the caller first. */
_Noreturn void rf_cli_resume_lost(rf_cli_resume *rs, const rf_runner *r, const char *cmd,
                                  const char *unit_name, long unit, long batch_end, int serial,
                                  const rf_result *res, int n);
/* Runs work(ctx): here, or in worker processes when rs->supervised. When a worker dies of a
 * signal (or none starts), summary(ctx, signal or 0) prints what was done; the exit status is
 * then 128 + SIGINT/SIGTERM, or RF_EXIT_FAIL. */
int rf_cli_resume_run(const char *cmd, rf_cli_resume *rs, int (*work)(void *ctx),
                      void (*summary)(void *ctx, int interrupted), void *ctx);

/* ---- output (cli_output.c) ------------------------------------------------------------- */
/* Flushes stdout and tests it: 0 while it takes what is written; -1 once a write failed
 * (ENOSPC, EPIPE, ...), after one message on stderr naming cmd and the error; from then on
 * rf_cli_out_failed is set and long commands stop (checked after each record). */
int rf_cli_out_check(const char *cmd);
extern volatile int rf_cli_out_failed;
/* At exit (main): rc, or RF_EXIT_USAGE when stdout could not be written. */
int rf_cli_out_finish(const char *cmd, int rc);
/* One line of a record others read (replay's ok / FAIL / ERROR / SKIP lines; the messages
 * that name a file given, on stderr): printf's fmt
 * with every control byte of the result but its final newline written as an escape (\n, \t,
 * \r, \xHH), so a name from the file system holding a newline cannot start a line of its
 * own (a file named "x\nok   y.case" made replay print a forged ok line). */
void rf_cli_line(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* ---- interruption (cli_signal.c) -------------------------------------------------------- */
/* SIGINT and SIGTERM set a flag (nothing else happens in the handler); long commands check it
 * between cases and end with a partial summary. */
void rf_cli_catch_signals(void);
extern volatile sig_atomic_t rf_cli_interrupted;
#endif

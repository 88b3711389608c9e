/* The redfuzz command line: one function per subcommand, shared flag parsing. */
#ifndef RF_CLI_H
#define RF_CLI_H
#include <stdio.h>
#include "model/case.h"
#include "run/runner.h"

/* Exit statuses: 0 all pass, 1 a failure verdict or mismatch, 2 usage / input error. */
enum { RF_EXIT_OK = 0, RF_EXIT_FAIL = 1, RF_EXIT_USAGE = 2 };

int rf_cmd_run(int argc, char **argv);
int rf_cmd_list(int argc, char **argv);
int rf_cmd_replay(int argc, char **argv);
int rf_cmd_shrink(int argc, char **argv);
int rf_cmd_study(int argc, char **argv);
int rf_cmd_bench(int argc, char **argv);
int rf_cmd_sweep(int argc, char **argv);
int rf_cmd_encode(int argc, char **argv);
int rf_cmd_decode(int argc, char **argv);

/* A case being assembled from flags: which fields were given explicitly. */
typedef struct { rf_case c; int from_file, set_n, set_shape; } rf_cli_case;
void rf_cli_case_init(rf_cli_case *cc);
/* Case flags (--op --n --rows --cols --seed --dist --block --grid --items --schedule --wave
 * --variant --case FILE). Returns 1 when argv[*i] was a case flag (and advances *i past its
 * value), 0 when it is not one, -1 on a bad value (message printed to stderr). */
int rf_cli_case_flag(const char *cmd, int argc, char **argv, int *i, rf_cli_case *cc);
/* Completes the case after the flags: an op switched by flag drops the other op's size fields
 * (softmax without a shape gets 4x33), then validates. 0, or -1 with a message printed. */
int rf_cli_case_finish(const char *cmd, rf_cli_case *cc, const rf_limits *lim);
extern const char RF_CLI_CASE_FLAGS_HELP[];

/* Reads a whole file into a NUL-terminated buffer (caller frees); NULL with a message. */
char *rf_read_file(const char *path, char *err, size_t errlen);
/* The REDFUZZ_* settings, read from the environment once by main (run/settings.def). */
extern rf_settings rf_cli_settings;
/* Creates the runner (with rf_cli_settings) or prints why not. */
rf_runner *rf_cli_runner(const char *cmd);
#endif

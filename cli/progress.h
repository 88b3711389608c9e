/* Progress of a long command on stderr (sweep, replay, study, tolerance, bench): a line every
 * REDFUZZ_PROGRESS_MS (default 5 s; 0: none), to a terminal or a pipe alike, written by a
 * thread of its own so that it also comes while one long case or launch runs (sweep --huge:
 * minutes a case). A line says the work done of the total, the seconds elapsed, what the
 * command is on (its own words: a case, a file, a row) and the variant whose launch runs now:
 *   redfuzz sweep: 12/54 cases (22%), 95 s; on op=sum n=2147483653 dist=markers; running sum/lds
 * Full lines only, never a carriage return: they interleave with the command's own output
 * (stdout, the tables) without garbling it. */
#ifndef RF_CLI_PROGRESS_H
#define RF_CLI_PROGRESS_H
#include <stddef.h>
#include <stdint.h>
#include "model/case.h"
#include "run/runner.h"

typedef struct rf_progress rf_progress;

/* Starts the reporting thread: cmd names the command ("sweep"), unit what total counts
 * ("cases"), total 0 when unknown; r (may be NULL) is asked which variant runs now. NULL when
 * progress is off (REDFUZZ_PROGRESS_MS=0) or the thread cannot start (then the command runs
 * without it); every function below takes NULL. */
rf_progress *rf_progress_start(const char *cmd, const char *unit, uint64_t total,
                               const rf_runner *r);
/* The work done so far and what the command is on now (copied; NULL keeps the last). */
void rf_progress_set(rf_progress *p, uint64_t done, const char *on);
/* A case in a few words for rf_progress_set: "sum n=1027 f32 ones", "softmax 4x33 ...". */
void rf_progress_case_text(const rf_case *c, char *buf, size_t len);
/* Stops and joins the thread (no line after it returns). */
void rf_progress_stop(rf_progress *p);

#endif

/* The runner's statistics (rf_runner_stats) as text: one printer for `redfuzz sweep`'s
 * summary and the fuzz target's REDFUZZ_PROFILE block, so a counter added to the runner is
 * reported by both. */
#ifndef RF_STATS_PRINT_H
#define RF_STATS_PRINT_H
#include <stdio.h>
#include "run/runner_types.h"

typedef struct {
  FILE *out;
  const char *prefix;   /* before every line: "" (sweep), "redfuzz fuzz: " */
  const char *unit;     /* what the counts are per: "case", "execution" */
  const char *scope;    /* after the counts that cover one worker process only: "" or a note */
  int every_line;       /* 1: lines whose counts are all zero too (the fuzz profile's form) */
  int times;            /* 1: the time per unit by stage (0: not meaningful, e.g. after restarts) */
  const char *other;    /* NULL, or what the wall time's remainder is ("sweep itself") */
  double ms_wall;       /* with other: the wall time, in ms */
} rf_stats_style;

/* Launches per unit, time per unit by stage, the background re-check thread, where inputs,
 * answers and verdicts were made, why units went to the host (run/host_reasons.def), and where
 * the row ops' oracle rows were made. */
void rf_stats_print(const rf_runner_stats *st, const rf_stats_style *s);
#endif

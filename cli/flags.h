/* Command-line flags from tables, in the spirit of libFuzzer's FuzzerFlags.def: each command
 * lists its flags once in cli/flags_<command>.def as
 *
 *   FLAG(ID, "--name", TYPE, "META", "default", lo, hi, max, names, "help")
 *
 * and that one line drives parsing, validation (exit 2 naming the flag, the value and what is
 * allowed) and the generated --help. Numbers go through model/number.h (the one parser).
 *
 * Types:  BOOL   no value
 *         NUM    one number in lo..hi                       (names: optional check, below)
 *         NUMS   a comma list of numbers and ranges a..b, each in lo..hi, at most max values
 *         NAME   one of names(0), names(1), ...
 *         NAMES  a comma list of those, or "all"; at most max
 *         SHAPE  RxC, each side in lo..hi
 *         SHAPES a comma list of RxC, at most max
 *         TEXT   any text of lo..hi bytes (paths, variant names: the command checks them)
 *         TEXTS  a comma list of TEXT items, at most max
 *         REAL   a positive finite decimal number
 * A NUM/NUMS flag whose names is set takes only the numbers names() lists (e.g. wave 32, 64).
 *
 * Usage in a command:  #define RF_FLAGS_DEF "flags_run.def"  then  #include "flags_table.h",
 * which defines enum F_<ID> and rf_flags[] / RF_FLAG_COUNT for that file. */
#ifndef RF_CLI_FLAGS_H
#define RF_CLI_FLAGS_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef enum {
  RF_FLAG_BOOL, RF_FLAG_NUM, RF_FLAG_NUMS, RF_FLAG_NAME, RF_FLAG_NAMES, RF_FLAG_SHAPE,
  RF_FLAG_SHAPES, RF_FLAG_TEXT, RF_FLAG_TEXTS, RF_FLAG_REAL,
  RF_FLAG_HIDDEN   /* a table slot with no flag (a case field set by another flag) */
} rf_flag_type;
/* RF_FLAG_TYPE(NUM) -> RF_FLAG_NUM, after expanding its argument (generated table lines pass
 * the type through macros). */
#define RF_FLAG_TYPE(t) RF_FLAG_TYPE_(t)
#define RF_FLAG_TYPE_(t) RF_FLAG_##t

/* names(i): the i-th allowed name, NULL past the last. */
typedef const char *(*rf_flag_names_fn)(unsigned i);

typedef struct {
  const char *name;         /* "--n" */
  rf_flag_type type;
  const char *meta;         /* "N", "LIST": for --help */
  const char *def;          /* the default as a value would be written; NULL = none */
  uint64_t lo, hi;          /* numbers (shape sides); TEXT: shortest and longest value in bytes */
  size_t max;               /* lists: most values */
  rf_flag_names_fn names;
  const char *help;
} rf_flag_spec;

/* Most values one list flag holds (shapes: pairs). */
#define RF_FLAG_LIST_MAX 1024

typedef struct {
  int given;                /* 0, or the argv index of the flag */
  const char *text;         /* the value as given, or the default; NULL for neither */
  uint64_t num;             /* NUM; NAME: its index; BOOL: 1 when given */
  double real;              /* REAL */
  uint64_t *list;           /* NUMS: values; NAMES: indices; SHAPES: r0,c0,r1,c1,...;
                               TEXTS: unused (see items) */
  const char **items;       /* TEXTS: the items (pointers into the owned copy) */
  size_t count;             /* list length (SHAPES: shapes; SHAPE: 1, list holds r,c) */
  char *owned;              /* TEXTS: a private copy split at commas */
} rf_flag_val;

/* Parses argv[1..argc) for command cmd. Positional arguments (not starting with '-') go to
 * pos[0..*npos) when pos is given (at most max_pos; more is a usage error), else are errors.
 * Returns 0, 1 when --help was printed (help_head first, then the generated flag list), or
 * -1 after printing a message to stderr (exit 2). A flag given twice is an error (ambiguous
 * on a command line assembled by scripts). vals has one entry per spec. */
int rf_flags_parse(const char *cmd, const rf_flag_spec *specs, size_t n, int argc, char **argv,
                   rf_flag_val *vals, const char **pos, size_t max_pos, size_t *npos,
                   const char *help_head, const char *help_tail);
void rf_flags_free(rf_flag_val *vals, size_t n);
/* The generated option list (one entry per spec: name, meta, help, default, allowed). */
void rf_flags_help(FILE *f, const rf_flag_spec *specs, size_t n);
/* "redfuzz CMD: FLAG: 'VALUE' ..." for checks a command makes after parsing; returns -1. */
int rf_flag_error(const char *cmd, const rf_flag_spec *s, const char *value, const char *fmt,
                  ...) __attribute__((format(printf, 4, 5)));

/* Name lists for NAME/NAMES flags (model enums and fixed sets). */
const char *rf_flag_op_names(unsigned i);
const char *rf_flag_dist_names(unsigned i);
const char *rf_flag_sched_names(unsigned i);
const char *rf_flag_dtype_names(unsigned i);
const char *rf_flag_wave_names(unsigned i);        /* "32", "64" */
const char *rf_flag_bench_op_names(unsigned i);    /* ops and "all" */
const char *rf_flag_study_op_names(unsigned i);    /* "sum", "softmax" */
#endif

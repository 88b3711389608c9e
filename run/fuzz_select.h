/* Variant selection and op mapping shared by the fuzz target and `redfuzz shrink`, so a crash
 * artifact decodes to the same case in both. */
#ifndef RF_FUZZ_SELECT_H
#define RF_FUZZ_SELECT_H
#include "model/case.h"
#include "redfuzz/variant.h"
#include "settings.h"

/* ---- the one selection rule (docs/CLI.md, "Selecting variants") ------------------------------
 * REDFUZZ_PLUGINS and --plugin load plugins (REDFUZZ_PLUGINS first, then each --plugin, for
 * every command and the fuzz targets alike); REDFUZZ_ONLY and --only are comma lists of
 * variant or op names; --variant names one variant; --skip lists variants to leave out. Every
 * name is checked against the registry (plugins loaded) before anything runs: an unknown,
 * misspelt or empty name is an error naming it, never a name silently dropped. */

/* Loads set's REDFUZZ_PLUGINS (a ':' list). 0, or -1 with "REDFUZZ_PLUGINS: plugin ...: why". */
int rf_select_load_env_plugins(const rf_settings *set, char *err, size_t errlen);
/* Checks a comma list: every item non-empty and the name of a variant, or (ops != 0) of an op.
 * "" is the empty list (valid). 0, or -1 with "'ITEM' is ... (allowed: ...)" in why. */
int rf_select_check_list(const char *list, int ops, char *why, size_t whylen);
/* 1 when name is one of the comma list's items. */
int rf_select_in_list(const char *name, const char *list);
/* --variant X with --skip listing X selects nothing: an error (why says so), not a run of X.
 * skip is a comma list. 0 or -1. */
int rf_select_check_variant_skip(const char *variant, const char *skip, char *why,
                                 size_t whylen);

/* only: comma list of variant names and/or op names ("" = every correct variant). Mutants are
 * selected only by name. */
int rf_only_keeps(const char *only, const rf_variant *v);
/* The single op of all selected variants, -1 when they span several ops, -2 when none. */
int rf_only_single_op(const char *only);
/* Maps a decoded case onto op (no-op when op < 0 or equal), keeping its element count. */
void rf_force_op(rf_case *c, int op, const rf_limits *lim);
/* The limits of the cheap size class (below) fuzz inputs mostly decode under: the backend's
 * policy (run/backend.c: at most 2^22 elements on GPUs and 2^12 on the simulator, so a
 * campaign makes many executions per second); REDFUZZ_MAX_ELEMS in set overrides (it can only lower the runner's limits), and
 * the cap on GPU threads (2^14 on the simulator, 2^20 on GPUs) REDFUZZ_MAX_THREADS.
 * Needs no device: decoding 40 bytes never opens one. */
rf_limits rf_fuzz_limits(const rf_settings *set);
/* Fuzz inputs launch at most this many blocks (larger grids fold into 1..this): more blocks
 * than a case has elements already, while a grid of 2^31 blocks costs tens of seconds on a
 * GPU for the same empty blocks (the first GPU campaigns spent most of their time there).
 * `redfuzz sweep --grid` and text cases still reach 2^31 - 1. */
#define RF_FUZZ_MAX_GRID (1u << 22)
/* The fuzz target's cost cap: 0 when v declares fuzz_max_n and c has more elements (the
 * variant is left out of that case), else 1. */
int rf_fuzz_within_cost(const rf_variant *v, const rf_case *c);
/* The block size the thread cap (rf_limits.max_threads) counts when a case leaves the block
 * to the variant: the registry's usual default (softmax/row-reg's is 64). */
#define RF_FUZZ_DEFAULT_BLOCK 256u
/* Decode under one set of limits (lim from rf_fuzz_limits: the cheap class below). Returns 0. */
int rf_fuzz_decode_like_target(const uint8_t *data, size_t size, const rf_limits *lim,
                               const char *only, rf_case *c);

/* ---- the size budget (docs/CAMPAIGNS.md, "The fuzzer": size classes) ------------------------------
 * Most fuzz inputs decode under the cheap limits (class 0: rf_fuzz_limits), so a campaign
 * makes many executions a second; a bounded share draws a larger size class, so that bugs
 * that need tens of thousands of elements, or more rows than a row variant's grid has
 * blocks, are in reach of a simulator campaign. The class is drawn from a hash of the whole
 * input (same bytes, same class, same case), class k > 0 for one input in one_in[k]:
 *   class 1: elements and threads x8 (simulator: 2^15 elements, 2^17 threads), 1 in 16;
 *   class 2: elements x64, threads x16 (2^18: the simulator's largest cases, 2^18), 1 in 128;
 *   class 3: many short rows (a 1-D case it decodes becomes a row op's, unless the only-list
 *            forces one op): class 2's elements, rows of at most RF_FUZZ_SHORT_COLS columns,
 *            from RF_FUZZ_ROW_GRID_CAP - 15 rows up (past every row variant's grid cap) and
 *            threads x2^14, 1 in 2048; on the simulator 1 in 8192, at each variant's
 *            default grid and one wave a block, the launch it affords (run/fuzz_select.c,
 *            lift_rows: seconds of CPU a case).
 *   class 4: a derived boundary (run/boundaries.h, docs/BOUNDARIES.md) of one of the selected
 *            variants of the case's op, chosen by the input's hash, and a small change of its
 *            size (0 in half the draws, else +-1, +-2 or +-3): its size and its block, grid
 *            and items requests replace the decoded ones (the type becomes the variant's, and
 *            the case names the variant: it runs alone); the other fields (distribution,
 *            seed, schedule, wave, misalignment) stay the input's.
 *            Within class 2's limits; a boundary that refuses (expects unsupported), is past
 *            the dense sizes or past the class's threads is never drawn. 1 input in 16, of
 *            inputs of codec version 8 or later only (byte 0, model/case.h): an input written
 *            before (the seed corpus of version 7 and older, what encode wrote) decodes as it
 *            always did. No boundary for its op: the input is class 0.
 * The backend's limits bound every class; REDFUZZ_MAX_ELEMS and REDFUZZ_MAX_THREADS, when
 * set, bound every class too (a hard cap, as before), and REDFUZZ_SIZE_CLASSES=N draws only
 * the first N classes (1: class 0 only; 4: no boundary class). Classes 3 and 4 are not
 * supersets of class 0: `redfuzz encode` adds a byte where needed so that its files decode
 * under class 0. */
#define RF_FUZZ_CLASSES 5
#define RF_FUZZ_BOUNDARY_CLASS 4
#define RF_FUZZ_SHORT_COLS 4u
/* The largest grid of every built-in row variant (kernels/softmax.hip RF_SM_MAX_GRID,
 * kernels/logsumexp.hip RF_LSE_MAX_GRID): more rows than this make their blocks stride. */
#define RF_FUZZ_ROW_GRID_CAP 65535u
/* The simulator's short rows stop this far past the grid cap: a 10-minute campaign drew
 * 259,237 rows of 0 columns there, and logsumexp/block and /online ran past the step budget
 * (a false `timeout`); at about 70,000 rows every variant took 2.5 to 13 s. */
#define RF_FUZZ_SIM_ROW_SPAN 16383u
/* The rows of a class-3 case whose input decoded to `decoded` rows, when at most `hi` rows
 * fit (hi > RF_FUZZ_ROW_GRID_CAP - 15): one decoded count in 8 lands in the 32 rows around
 * the cap, the others above it (run/fuzz_select.c says why). */
uint32_t rf_fuzz_short_rows(uint32_t decoded, uint64_t hi);
typedef struct {
  rf_limits lim[RF_FUZZ_CLASSES];
  uint32_t one_in[RF_FUZZ_CLASSES]; /* class k > 0 for 1 input in one_in[k]; 0: never */
  unsigned classes;                 /* classes drawn: 1 (cheap only) .. RF_FUZZ_CLASSES */
} rf_fuzz_budget;
rf_fuzz_budget rf_fuzz_budget_of(const rf_settings *set);
/* The class an input draws (0 .. b->classes - 1). */
unsigned rf_fuzz_class_of(const uint8_t *data, size_t size, const rf_fuzz_budget *b);
/* Decode as the fuzz target does: the input's class, then rf_fuzz_decode_like_target under
 * that class's limits (class 4: the boundary it picks). Returns the class. */
unsigned rf_fuzz_decode_budget(const uint8_t *data, size_t size, const rf_fuzz_budget *b,
                               const char *only, rf_case *c);
/* The same; *kinds gets the rf_boundary_kind bits of the boundary a class-4 input took (0 for
 * the other classes), for the fuzz target's counts by kind. */
unsigned rf_fuzz_decode_budget_kinds(const uint8_t *data, size_t size, const rf_fuzz_budget *b,
                                     const char *only, rf_case *c, uint32_t *kinds);
#endif

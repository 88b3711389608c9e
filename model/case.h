/* The case: everything that decides one differential run (see docs/CASE_FORMAT.md).
 * A case is plain data; the binary codec, the text form and the generators live in
 * case_codec.c, case_text.c and gen.c. */
#ifndef RF_CASE_H
#define RF_CASE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "redfuzz/op.h"
#include "redfuzz/dtype.h"
#include "verdict.h"

#ifdef __cplusplus
extern "C" {
#endif


/* Distributions and schedules come from their tables (model/dists.def, schedules.def). */
typedef enum {
#define RF_DIST(id, name, since, sparse, golden_1d, golden_rows, meaning) RF_DIST_##id,
#include "dists.def"
#undef RF_DIST
  RF_DIST_COUNT
} rf_dist;

typedef enum {
#define RF_SCHED(id, name, meaning) RF_SCHED_##id,
#include "schedules.def"
#undef RF_SCHED
  RF_SCHED_COUNT
} rf_sched;

#define RF_VARIANT_NAME_MAX 64
typedef char rf_variant_name[RF_VARIANT_NAME_MAX];
/* A comma list of names (RF_FT_LIST: plugin names, a selection), at most RF_CASE_LIST_MAX - 1
 * characters: items non-empty, each of variant-name characters (rf_name_char_ok) and no ','. */
#define RF_CASE_LIST_MAX 512
typedef char rf_case_list[RF_CASE_LIST_MAX];

/* How a field's values are read and written (model/case_fields.def). */
typedef enum { RF_FT_OP, RF_FT_DIST, RF_FT_SCHED, RF_FT_U64, RF_FT_U32, RF_FT_WAVE,
               RF_FT_NAME, RF_FT_DTYPE, RF_FT_LIST } rf_field_type;

/* The case: one member per line of model/case_fields.def, in its order. */
typedef struct {
#define RF_CASE_FIELD(key, member, ctype, type, lo, hi, dflt, input, help) ctype member;
#include "case_fields.def"
#undef RF_CASE_FIELD
} rf_case;

/* The field table at run time, for generic users (flags, help, JSON). */
typedef struct {
  const char *key;
  rf_field_type type;
  uint64_t lo, hi;
  uint64_t dflt;     /* names: the enum value; "" for a variant */
  int input;
  const char *help;
  size_t offset;     /* of the member in rf_case */
} rf_field;
enum {
#define RF_CASE_FIELD(key, member, ctype, type, lo, hi, dflt, input, help) RF_FIELD_##key,
#include "case_fields.def"
#undef RF_CASE_FIELD
  RF_FIELD_COUNT
};
extern const rf_field rf_fields[RF_FIELD_COUNT];
/* The field named key, or NULL. */
const rf_field *rf_field_find(const char *key);
/* Sets field f of c from text (a name, a number in model/number.h syntax, a variant name).
 * 0, or -1 with "'V' is not ... (allowed: ...)" in why. Ranges narrower than the field's
 * (backend limits, op-dependent rules) are rf_case_validate's. */
int rf_field_set(rf_case *c, const rf_field *f, const char *text, char *why, size_t whylen);
/* Sets field f of c to v, a value already parsed: a name's index in its table (op, dist,
 * schedule, dtype) or a number, within the field's range (the sweep's lists, cli/cli_sweep.c).
 * A variant name has no number: left as it is. */
void rf_field_put(rf_case *c, const rf_field *f, uint64_t v);
/* The field's value as text (what rf_field_set reads back to the same value). A buffer of
 * RF_FIELD_TEXT_MAX bytes holds every field's. */
#define RF_FIELD_TEXT_MAX (RF_CASE_LIST_MAX + 8)
void rf_field_format(const rf_case *c, const rf_field *f, char *buf, size_t len);
/* 0 for a field the text form, JSON and listings leave out: a list field that is empty (a case
 * that needs no plugin and was decoded under no selection reads as it did before the fields
 * existed); 1 for every other field. */
int rf_field_shown(const rf_case *c, const rf_field *f);
/* What the field allows, for messages and help: "sum, max, argmax, softmax", "0..1024". */
void rf_field_allowed(const rf_field *f, char *buf, size_t len);

/* The largest 1-D length the model, the text form and the codec hold (2^34: past 2^31 and
 * 2^32, where index arithmetic breaks); backends hold less (their memory, run/runner.c). */
#define RF_CASE_MAX_N (UINT64_C(1) << 34)
/* The longest row of a sparse row case (rf_case_is_sparse): the host holds and answers one
 * row (64 MiB of floats, its MPFR answer in seconds). Rows past 2^31 elements in all need
 * long rows to stay sparse: a row of 2^20 floats is 1,024 pages of which the markers touch
 * about 5. */
#define RF_CASE_MAX_SPARSE_COLS (UINT32_C(1) << 24)

/* Limits the binary decoder keeps every case inside. A 1-D case of a sparse distribution
 * (rf_dist_is_sparse) may go past max_n up to RF_CASE_MAX_N: its input costs no memory on the
 * simulator, and the runner refuses what a device cannot hold (run/runner.c). */
typedef struct {
  uint64_t max_n;        /* largest 1-D length */
  uint64_t max_elems;    /* largest rows*cols */
  uint32_t max_cols;     /* largest softmax row */
  uint64_t max_threads;  /* fuzz decoding only: cap on the GPU threads a case asks for
                            (run/fuzz_select.c); 0: none */
} rf_limits;

/* Names for enums: "sum", "alternating", "in-order", ... NULL when out of range. */
const char *rf_op_name(rf_op op);
/* The 1-D ops (rows 0) or the row ops (rows 1) by name, ", " between them and `last` before
 * the last one (" and ", " or "), into buf: for messages that name them. */
const char *rf_op_list_of(int rows, const char *last, char *buf, size_t len);
const char *rf_dist_name(rf_dist d);
/* 1 for a sparse distribution (dists.def): markers on an identity background, answered from
 * the markers alone (model/gen.h, rf_gen_marker_list). */
int rf_dist_is_sparse(rf_dist d);
/* 1 for a case whose input is sparse (route RF_INPUT_SPARSE, run/route.h): a sparse
 * distribution, on a 1-D op or on logsumexp, whose rows are one row repeated (every row of a
 * sparse distribution has the same markers: model/gen_markers.h), so the host holds and
 * answers one row and the output is one value a row. Softmax and log-softmax write every
 * element: their outputs and exact answers would cost what a dense input does. */
int rf_case_is_sparse(const rf_case *c);
const char *rf_sched_name(rf_sched s);
/* Parse a name; returns 0 and sets *out, or -1 when unknown. */
int rf_op_parse(const char *s, rf_op *out);
int rf_dist_parse(const char *s, rf_dist *out);
int rf_sched_parse(const char *s, rf_sched *out);

/* A case with every field at its default (op sum, n 1027, alternating, seed 1, wave 32). */
void rf_case_default(rf_case *c);
/* The largest misalign (elements) for element type d: offsets within 16 bytes, so 3 for f32
 * and 7 for the 16-bit types. */
uint32_t rf_case_misalign_max(rf_dtype d);
/* The misalignment that artifacts written before the misalign field implied: seed bits
 * 62..63 (codec versions 1..3; a text case without the misalign key). */
#define RF_CASE_LEGACY_MISALIGN(seed) ((uint32_t)((uint64_t)(seed) >> 62))
/* Element count of the input: n, or rows*cols for softmax. */
uint64_t rf_case_elems(const rf_case *c);
/* 1 when a shape (rows x cols) or a 1-D size n is past lim's dense ones: rows*cols past
 * max_elems or cols past max_cols; n past max_n. Only a sparse case (rf_case_is_sparse) may be
 * there (rf_case_validate); the route (run/route.c), the sweep's huge cases and its launch
 * timeout (cli/cli_sweep.c) all ask this one question. */
int rf_limits_shape_past_dense(const rf_limits *lim, uint64_t rows, uint64_t cols);
int rf_limits_n_past_dense(const rf_limits *lim, uint64_t n);
int rf_case_past_dense(const rf_case *c, const rf_limits *lim);
/* 0 when every field is inside its allowed range, else -1 with a message naming the field,
 * its value and the range in err. */
int rf_case_validate(const rf_case *c, const rf_limits *lim, char *err, size_t errlen);
int rf_case_equal(const rf_case *a, const rf_case *b);
/* 1 when a and b generate the same input (every field marked input in the table agrees). */
int rf_case_same_input(const rf_case *a, const rf_case *b);
/* The case as one JSON object {"op":"sum","n":1027,...}, keys in table order. */
void rf_case_write_json(const rf_case *c, FILE *f);
/* The same members without the braces ("op":"sum","n":1027,...), for records that add
 * their own; with_variant 0 leaves the variant out (a result names its own). */
void rf_case_write_json_members(const rf_case *c, FILE *f, int with_variant);
/* Comma lists of the names ("alternating, ones, ..."), for messages and help. */
const char *rf_dist_list(void);
const char *rf_sched_list(void);
const char *rf_op_list(void);
/* s into buf for messages: printable ASCII as is, every other byte (and '\\') as \\xNN, cut with
 * "..." where buf ends. Text a plugin hands over (a configure reason) passes through it, so a
 * newline or an escape sequence cannot forge lines or drive the terminal. */
void rf_text_escape(const char *s, char *buf, size_t buflen);
/* 1 when ch may stand in a variant name (printable ASCII, no space, no '#'). */
int rf_name_char_ok(unsigned char ch);
/* One line on what a distribution is (model/dists.def). */
const char *rf_dist_meaning(rf_dist d);

/* ---- binary codec (case_codec.c) ---------------------------------------------------- */
/* The newest layout version: the largest `since` in model/dists.def. Byte 0 of an input
 * names its version; a value that names none (random fuzz bytes, 0) reads as the newest. */
unsigned rf_codec_version(void);
/* The version an input decodes as: its byte 0 when that names a version (1..newest), else the
 * newest. Versions 8 on may draw the fuzz layer's derived-boundary class (run/fuzz_select.h);
 * the codec reads 8 as 7. */
unsigned rf_codec_version_of(const uint8_t *data, size_t len);
/* How many distributions version v decodes to (those with since <= v, in table order). */
unsigned rf_codec_dist_count(unsigned version);
/* Total: any byte string, the empty one too, decodes to a case that validates under lim. */
void rf_case_decode(const uint8_t *data, size_t len, const rf_limits *lim, rf_case *out);
/* Canonical encoding: rf_case_decode(rf_case_encode(c)) == c for every valid c. Returns the
 * number of bytes written (at most RF_CASE_ENCODED_MAX) . */
#define RF_CASE_ENCODED_MAX 128
size_t rf_case_encode(const rf_case *c, uint8_t *buf);

/* ---- text form (case_text.c): one key=value per line, '#' comments ---------------------- */
/* Parses text. On error returns -1 and writes "line L: key 'k': value 'v' ...allowed..." to
 * err. Unknown keys are errors. Lines "expect <variant> <verdict> [on <backend>]" are
 * collected into expects (may be NULL) for regression files; a line "on <backend>" (sim, cuda
 * or hip: RF_EXPECT_BACKENDS) holds only there, since what a race or a missing barrier does
 * depends on the backend's schedule (docs/CASE_FORMAT.md, "Expectations"). */
#define RF_EXPECT_BACKENDS "sim, cuda, hip"
typedef struct {
  char variant[RF_VARIANT_NAME_MAX];
  char verdict[32];
  char backend[8];   /* "" on every backend */
} rf_expect;
/* Whether replay on the backend named `backend` (is_sim: the simulator) holds e against its
 * result: not when e names another backend, nor, off the simulator, when e's verdict is one
 * only the simulator gives (verdicts.def's sim_only: race, divergent-barrier). */
int rf_expect_applies(const rf_expect *e, const char *backend, int is_sim);
/* Whether ex[i], a line for every backend, gives way on `backend` to a line of the same
 * variant scoped "on <backend>" (the more specific line holds there, the general one
 * elsewhere: `expect v race on sim` beside `expect v fail`). */
int rf_expect_overridden(const rf_expect *ex, size_t n, size_t i, const char *backend);
/* Whether verdict v meets e: its verdict by name, or, for the class RF_EXPECT_FAIL, any
 * failure verdict (verdicts.def's failure column). */
#define RF_EXPECT_FAIL "fail"
int rf_expect_matches(const rf_expect *e, rf_verdict v);
/* Whether e expects a failure: a failure verdict by name, or the class RF_EXPECT_FAIL (a
 * finding: the bug is there). A finding of a correct variant whose bug is fixed gives `pass`
 * there, and `redfuzz guard` turns its line into `expect <variant> pass` (docs/FINDINGS.md). */
int rf_expect_wants_failure(const rf_expect *e);
int rf_case_parse_text(const char *text, rf_case *out, rf_expect *expects, size_t max_expects,
                       size_t *n_expects, char *err, size_t errlen);
/* The same over text[0..len): a NUL or other control byte is an error naming its offset
 * (binary data, not a case), and a leading UTF-8 byte-order mark is skipped. */
int rf_case_parse_text_len(const char *text, size_t len, rf_case *out, rf_expect *expects,
                           size_t max_expects, size_t *n_expects, char *err, size_t errlen);
/* Writes the canonical text form (every key, fixed order). */
void rf_case_write_text(const rf_case *c, FILE *f);

#ifdef __cplusplus
}
#endif
#endif

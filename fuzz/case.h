/* The case: everything that decides one differential run (see docs/CASE_FORMAT.md).
 * A case is plain data; the binary codec, the text form and the generators live in
 * case_codec.c, case_text.c and gen.c. */
#ifndef RF_CASE_H
#define RF_CASE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { RF_OP_SUM, RF_OP_MAX, RF_OP_ARGMAX, RF_OP_SOFTMAX, RF_OP_COUNT } rf_op;

typedef enum {
  RF_DIST_ALTERNATING,   /* +1,-1,+1,... ; seed bit 0 picks the first sign (seed 000) */
  RF_DIST_ONES,          /* all 1.0f */
  RF_DIST_WIDE,          /* random sign and mantissa over as many binades as keep Σ|x| < 2^127 */
  RF_DIST_NEGATIVE,      /* all strictly negative, moderate magnitudes */
  RF_DIST_EQUAL_MAX,     /* several positions share the maximum value */
  RF_DIST_SHIFTED_ROWS,  /* softmax: rows are x, x+1000, x-1000 of one base row (cycled) */
  RF_DIST_UNIFORM,       /* uniform in [-1, 1) */
  RF_DIST_INDEX_WEIGHTED,/* value depends on the index so a dropped/doubled element shows */
  RF_DIST_SPIKE,         /* small background plus one large spike */
  RF_DIST_SUBNORMAL,     /* subnormal magnitudes */
  RF_DIST_NEAR_OVERFLOW, /* magnitudes near FLT_MAX */
  RF_DIST_SORTED,        /* [-1, 1) grid values, ascending */
  RF_DIST_OVERFLOW,      /* random sign, exponent over the whole finite range (partial sums overflow) */
  RF_DIST_NAN_SPRINKLED, /* a few NaNs (first/last index, block boundaries) among uniform values */
  RF_DIST_INF_MIXED,     /* +inf, -inf or both among uniform values */
  RF_DIST_SIGNED_ZERO,   /* rows of -0, of +0, of mixed zeros, or uniform with zeros */
  RF_DIST_ALL_NAN,       /* every element NaN */
  RF_DIST_ALL_NEG_INF,   /* every element -inf */
  RF_DIST_TIES,          /* the maximum on both sides of block/wave boundaries, coarse background */
  RF_DIST_COUNT
} rf_dist;

typedef enum { RF_SCHED_IN_ORDER, RF_SCHED_REVERSE, RF_SCHED_RANDOM, RF_SCHED_WAVE_SKEW,
               RF_SCHED_COUNT } rf_sched;

#define RF_VARIANT_NAME_MAX 64

typedef struct {
  rf_op op;
  uint64_t n;            /* sum/max/argmax: element count (rows/cols are 0) */
  uint32_t rows, cols;   /* softmax: shape (n is 0) */
  uint64_t seed;
  rf_dist dist;
  uint32_t block;        /* threads per block; 0 = the variant's default */
  uint32_t grid;         /* blocks of the first kernel; 0 = the variant's default */
  uint32_t items;        /* items per thread where a variant has that knob; 0 = default */
  rf_sched sched;        /* simulator schedule (ignored on GPUs) */
  uint32_t wave;         /* simulator wave size, 32 or 64 (GPUs use their own) */
  char variant[RF_VARIANT_NAME_MAX]; /* "" = every variant of the op; else one name, e.g. "sum/lds" */
} rf_case;

/* Limits the binary decoder keeps every case inside. */
typedef struct {
  uint64_t max_n;        /* largest 1-D length */
  uint64_t max_elems;    /* largest rows*cols */
  uint32_t max_cols;     /* largest softmax row */
} rf_limits;

/* Names for enums: "sum", "alternating", "in-order", ... NULL when out of range. */
const char *rf_op_name(rf_op op);
const char *rf_dist_name(rf_dist d);
const char *rf_sched_name(rf_sched s);
/* Parse a name; returns 0 and sets *out, or -1 when unknown. */
int rf_op_parse(const char *s, rf_op *out);
int rf_dist_parse(const char *s, rf_dist *out);
int rf_sched_parse(const char *s, rf_sched *out);

/* A case with every field at its default (op sum, n 1027, alternating, seed 1, wave 32). */
void rf_case_default(rf_case *c);
/* Element count of the input: n, or rows*cols for softmax. */
uint64_t rf_case_elems(const rf_case *c);
/* 0 when every field is inside its allowed range, else -1 with a message naming the field,
 * its value and the range in err. */
int rf_case_validate(const rf_case *c, const rf_limits *lim, char *err, size_t errlen);
int rf_case_equal(const rf_case *a, const rf_case *b);

/* ---- binary codec (case_codec.c) ---------------------------------------------------- */
#define RF_CODEC_VERSION 2
/* Total: any byte string, the empty one too, decodes to a case that validates under lim. */
void rf_case_decode(const uint8_t *data, size_t len, const rf_limits *lim, rf_case *out);
/* Canonical encoding: rf_case_decode(rf_case_encode(c)) == c for every valid c. Returns the
 * number of bytes written (at most RF_CASE_ENCODED_MAX) . */
#define RF_CASE_ENCODED_MAX 128
size_t rf_case_encode(const rf_case *c, uint8_t *buf);

/* ---- text form (case_text.c): one key=value per line, '#' comments ---------------------- */
/* Parses text. On error returns -1 and writes "line L: key 'k': value 'v' ...allowed..." to
 * err. Unknown keys are errors. Lines "expect <variant> <verdict>" are collected into
 * expects (may be NULL) for regression files. */
typedef struct { char variant[RF_VARIANT_NAME_MAX]; char verdict[32]; } rf_expect;
int rf_case_parse_text(const char *text, rf_case *out, rf_expect *expects, size_t max_expects,
                       size_t *n_expects, char *err, size_t errlen);
/* Writes the canonical text form (every key, fixed order). */
void rf_case_write_text(const rf_case *c, FILE *f);

#ifdef __cplusplus
}
#endif
#endif

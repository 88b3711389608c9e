/* Binary case codec (layout and classes: docs/CASE_FORMAT.md). Decoding is total: every
 * byte string maps to a case valid under the limits; bytes past the end read as 0. Each
 * field has a class byte that picks how its payload is read, so random bytes land on the
 * sizes that matter (boundaries) far more often than uniform sampling would; class 255 is
 * the literal value, which the canonical encoder always uses so every valid case (variant
 * "") round-trips exactly. */
#include "case.h"

#include <string.h>

/* Byte offsets of the layout (the same in versions 1 and 2, where only the dist byte's
 * reading differs; version 3 appends the element type byte; version 4 gives that byte's high
 * nibble to the misalignment, so the layout and its length stay as they were). */
enum {
  OFF_VERSION = 0,
  OFF_OP = 1,
  OFF_DIST = 2,
  OFF_SCHED_WAVE = 3,
  OFF_SIZE_A = 4,   /* class byte + 8-byte payload: n, or rows for softmax */
  OFF_SIZE_B = 13,  /* class byte + 8-byte payload: cols for softmax */
  OFF_SEED = 22,    /* 8 bytes */
  OFF_BLOCK = 30,   /* class byte + 2-byte payload */
  OFF_GRID = 33,    /* class byte + 4-byte payload */
  OFF_ITEMS = 38,   /* class byte + 1-byte payload */
  OFF_DTYPE = 40,   /* version 3: the element type, byte % V3_DTYPES; version 4 on: the
                       low nibble % V3_DTYPES, and the misalignment in the high nibble */
  ENCODED_LEN = 41
};

/* Version 3 added the element type (model/dtypes.def): its byte reads as byte % 3 over the
 * table's first three rows (f32, f16, bf16), frozen; versions 1 and 2 decode to f32. A type
 * added later needs a new version, as a distribution does. */
enum { DTYPE_VERSION = 3, V3_DTYPES = 3 };
/* Version 4 made the input's misalignment a field (it was seed bits 62..63 for every case):
 * versions 1..3 decode it from those bits, so an old input runs on the same placement. */
enum { MISALIGN_VERSION = 4 };
/* The op byte reads as byte % (the ops of that version): versions 1 and 2 knew sum, max,
 * argmax and softmax; version 3 adds logsumexp and logsoftmax; version 6 (whose
 * distributions all-pos-inf, equal-min and ties-min came with them) min and argmin. Frozen
 * like the dtypes: an op added later needs a new version, or an old file's op byte would read
 * as another op. */
enum { V12_OPS = 4, V3_OPS = 6, OPS_V6_VERSION = 6, V6_OPS = 8 };
/* Version 8 has version 7's layout and meaning here, field for field: it marks the inputs that
 * may draw the fuzz layer's derived-boundary class (run/fuzz_select.c), so that every input
 * written before it (versions 1..7: the seed corpus, what `redfuzz encode` wrote) decodes as it
 * always did. A distribution added later is version 9. */
enum { BOUNDARY_VERSION = 8 };
_Static_assert((int)RF_OP_COUNT >= (int)V6_OPS && RF_OP_LOGSOFTMAX == 5 && RF_OP_SOFTMAX == 3 &&
                   RF_OP_ARGMIN == 7,
               "the codec's op numbering is frozen per version");
_Static_assert((int)RF_DTYPE_COUNT >= (int)V3_DTYPES, "version 3 decodes onto f32, f16, bf16");

enum { LITERAL = 255 };
/* Size class byte ranges (upper ends inclusive). */
enum {
  SIZE_SMALL_END = 39,    /* 0..39: exact small size 0..70 */
  SIZE_POW2_END = 87,     /* 40..87: 2^k + {-2..2} */
  SIZE_MULT_END = 127,    /* 88..127: j*{32,64,256} + {-1,0,1} */
  SIZE_LOG_END = 183,     /* 128..183: log-uniform up to the limit */
  SIZE_SEEDLIST_END = 223 /* 184..223: seed boundary list; 224..254: seed shapes (softmax
                             rows byte) or the seed list again; 255: literal */
};

typedef struct { const uint8_t *data; size_t len; } bytes;

static uint8_t byte_at(bytes b, size_t i) { return i < b.len ? b.data[i] : 0; }

static uint64_t le_at(bytes b, size_t off, int width) {
  uint64_t v = 0;
  for (int i = width - 1; i >= 0; i--) v = v << 8 | byte_at(b, off + (size_t)i);
  return v;
}

static void put_le(uint8_t *buf, uint64_t v, int width) {
  for (int i = 0; i < width; i++) buf[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t min_u64(uint64_t a, uint64_t b) { return a < b ? a : b; }

/* Number of bits needed for m (0 for 0). */
static int bit_length(uint64_t m) {
  int l = 0;
  while (m) { l++; m >>= 1; }
  return l;
}

/* Uniform-ish fold of any value into 0..max (exact for values already inside). */
static uint64_t fold(uint64_t v, uint64_t max) {
  return max == UINT64_MAX ? v : v % (max + 1);
}

/* A value log-uniform over the octaves 1..l: octave e gives [2^(e-1), 2^e - 1]. */
static uint64_t log_uniform(uint64_t p, int l) {
  if (l == 0) return 0;
  int e = 1 + (int)(p % (uint64_t)l);
  uint64_t lo = UINT64_C(1) << (e - 1);
  return lo + ((p >> 8) & (lo - 1));
}

static const uint64_t seed_sizes[] = {1, 31, 32, 33, 255, 256, 257, 1027, 16777216};
#define SEED_SIZES (sizeof seed_sizes / sizeof seed_sizes[0])

/* One size in 0..max from its class byte and payload. */
static uint64_t decode_size(uint8_t cls, uint64_t p, uint64_t max) {
  if (cls == LITERAL) return fold(p, max);
  int l = bit_length(max); /* 2^(l-1) <= max < 2^l */
  uint64_t v;
  if (cls <= SIZE_SMALL_END) {
    v = p % 71;
  } else if (cls <= SIZE_POW2_END) {
    uint64_t pow = l ? UINT64_C(1) << (p % (uint64_t)l) : 0;
    int delta = (int)((p >> 8) % 5) - 2;
    v = delta < 0 && pow < (uint64_t)-delta ? 0 : pow + (uint64_t)(int64_t)delta;
  } else if (cls <= SIZE_MULT_END) {
    static const uint64_t unit[3] = {32, 64, 256};
    uint64_t m = unit[p % 3];
    uint64_t j = log_uniform(p >> 8, 13); /* 1..8191 */
    int delta = (int)((p >> 4) % 3) - 1;
    v = j * m + (uint64_t)(int64_t)delta;
  } else if (cls <= SIZE_LOG_END) {
    v = log_uniform(p, l);
    if (v > max) v = (UINT64_C(1) << (l - 1)) + (v - (UINT64_C(1) << (l - 1))) %
                     (max - (UINT64_C(1) << (l - 1)) + 1);
  } else {
    v = seed_sizes[p % SEED_SIZES];
  }
  return min_u64(v, max); /* clamping keeps the limit itself, a boundary, in play */
}

/* The seed's softmax shapes (rows x cols): boundary shapes and the main 4096x1024. */
static const uint32_t seed_shapes[][2] = {{1, 1},   {2, 31},  {3, 32},      {4, 33},
                                          {2, 255}, {3, 257}, {4096, 1024}};
#define SEED_SHAPES (sizeof seed_shapes / sizeof seed_shapes[0])

static const rf_limits default_limits = {UINT64_C(1) << 32, UINT64_C(1) << 32, 1u << 20, 0};

/* Largest rows for a given cols: rows*cols and rows alone stay within max_elems. */
static uint64_t max_rows_for(uint64_t cols, const rf_limits *lim) {
  return min_u64(UINT32_MAX, cols ? lim->max_elems / cols : lim->max_elems);
}

static void decode_shape(bytes b, const rf_limits *lim, rf_case *c) {
  uint64_t max_cols = min_u64(min_u64(lim->max_cols, lim->max_elems), UINT32_MAX);
  uint8_t cls_a = byte_at(b, OFF_SIZE_A);
  uint64_t pa = le_at(b, OFF_SIZE_A + 1, 8);
  uint64_t rows, cols;
  if (cls_a > SIZE_SEEDLIST_END && cls_a != LITERAL) {
    rows = seed_shapes[pa % SEED_SHAPES][0];
    cols = min_u64(seed_shapes[pa % SEED_SHAPES][1], max_cols);
    rows = min_u64(rows, max_rows_for(cols, lim));
  } else {
    cols = decode_size(byte_at(b, OFF_SIZE_B), le_at(b, OFF_SIZE_B + 1, 8), max_cols);
    rows = decode_size(cls_a, pa, max_rows_for(cols, lim));
  }
  c->rows = (uint32_t)rows;
  c->cols = (uint32_t)cols;
}

static uint32_t decode_block(uint8_t cls, uint64_t p) {
  if (cls < 128) return 0;                        /* variant default, favoured */
  if (cls < 224) return 32u << (p % 6);           /* 32..1024, powers of two */
  if (cls < LITERAL) return 1 + (uint32_t)(p % 1024); /* anything: exercises 'unsupported' */
  return (uint32_t)(p % 1025);
}

static uint32_t decode_grid(uint8_t cls, uint64_t p) {
  if (cls < 128) return 0;                        /* variant default, favoured */
  if (cls < 224) return 1 + (uint32_t)(p % 64);   /* small */
  if (cls < LITERAL) {                            /* large: log-uniform over 64..2^21-1 */
    uint32_t lo = 64u << (p % 15);
    return lo + ((uint32_t)(p >> 8) & (lo - 1));
  }
  return (uint32_t)(p % (UINT64_C(1) << 31));
}

static uint32_t decode_items(uint8_t cls, uint8_t p) {
  if (cls < 128) return 0;                        /* variant default, favoured */
  if (cls < LITERAL) return 1 + (uint32_t)(cls - 128) % 16;
  return p % 65u;
}

/* Version 1 predates the table: it knew 12 distributions, read as byte % 12, and its `wide`
 * overflowed sums; that is today's `overflow` (version 2 gave the name `wide` to a range that
 * keeps sums finite). Frozen here for ever. */
static const rf_dist v1_dists[] = {
    RF_DIST_ALTERNATING, RF_DIST_ONES,           RF_DIST_OVERFLOW, RF_DIST_NEGATIVE,
    RF_DIST_EQUAL_MAX,   RF_DIST_SHIFTED_ROWS,  RF_DIST_UNIFORM,  RF_DIST_INDEX_WEIGHTED,
    RF_DIST_SPIKE,       RF_DIST_SUBNORMAL,     RF_DIST_NEAR_OVERFLOW, RF_DIST_SORTED};
#define V1_DISTS (sizeof v1_dists / sizeof v1_dists[0])

/* From version 2 on, the table is the format: version v folds onto the first D(v) rows of
 * model/dists.def, those whose `since` is at most v (the table is append-only). */
static const unsigned dist_since[RF_DIST_COUNT] = {
#define RF_DIST(id, name, since, sparse, golden_1d, golden_rows, meaning) since,
#include "dists.def"
#undef RF_DIST
};

unsigned rf_codec_version(void) {
  unsigned v = BOUNDARY_VERSION;
  for (int d = 0; d < RF_DIST_COUNT; d++)
    if (dist_since[d] > v) v = dist_since[d];
  return v;
}

unsigned rf_codec_dist_count(unsigned version) {
  if (version <= 1) return V1_DISTS;
  unsigned n = 0;
  while (n < RF_DIST_COUNT && dist_since[n] <= version) n++;
  return n;
}

unsigned rf_codec_version_of(const uint8_t *data, size_t len) {
  const unsigned v = data && len ? data[OFF_VERSION] : 0;
  return v >= 1 && v <= rf_codec_version() ? v : rf_codec_version();
}

void rf_case_decode(const uint8_t *data, size_t len, const rf_limits *lim, rf_case *out) {
  bytes b = {data, data ? len : 0};
  if (!lim) lim = &default_limits;
  rf_case_default(out);
  /* Byte 0 (OFF_VERSION) is the layout version: 1..newest reads as that version, so a file
   * the encoder wrote keeps its meaning when distributions are added; any other value (0,
   * which is what the empty string reads as, or random fuzz bytes) reads as the newest, so
   * decoding stays total and fuzzing reaches every distribution. Versions 1 and 2 differ only in
   * how the dist byte maps onto distributions; version 3 adds the element type byte and the
   * two log ops; version 4 the misalignment (the dtype byte's high nibble); version 5 the
   * markers distribution; version 6 min, argmin and their distributions; version 7 the
   * signed-markers distribution; version 8 reads as 7 (BOUNDARY_VERSION). */
  const unsigned version = rf_codec_version_of(data, b.len);
  out->op = (rf_op)(byte_at(b, OFF_OP) % (version >= OPS_V6_VERSION  ? V6_OPS
                                           : version >= DTYPE_VERSION ? V3_OPS
                                                                      : V12_OPS));
  uint8_t db = byte_at(b, OFF_DIST);
  out->dist = version == 1 ? v1_dists[db % V1_DISTS]
                           : (rf_dist)(db % rf_codec_dist_count(version));
  uint8_t sw = byte_at(b, OFF_SCHED_WAVE);
  out->sched = (rf_sched)(sw & 3);
  out->wave = ((sw >> 2) & 3) == 3 ? 64 : 32;
  if (rf_op_has_rows(out->op)) {
    out->n = 0;
    decode_shape(b, lim, out);
  } else {
    out->n = decode_size(byte_at(b, OFF_SIZE_A), le_at(b, OFF_SIZE_A + 1, 8), lim->max_n);
    out->rows = out->cols = 0;
  }
  out->seed = le_at(b, OFF_SEED, 8);
  out->block = decode_block(byte_at(b, OFF_BLOCK), le_at(b, OFF_BLOCK + 1, 2));
  out->grid = decode_grid(byte_at(b, OFF_GRID), le_at(b, OFF_GRID + 1, 4));
  out->items = decode_items(byte_at(b, OFF_ITEMS), byte_at(b, OFF_ITEMS + 1));
  uint8_t tb = byte_at(b, OFF_DTYPE);
  if (version >= MISALIGN_VERSION) {
    out->dtype = (rf_dtype)((tb & 15) % V3_DTYPES);
    out->misalign = (uint32_t)(tb >> 4) % (rf_case_misalign_max(out->dtype) + 1);
  } else {
    out->dtype = version >= DTYPE_VERSION ? (rf_dtype)(tb % V3_DTYPES) : RF_DTYPE_F32;
    out->misalign = RF_CASE_LEGACY_MISALIGN(out->seed);
  }
  out->variant[0] = '\0'; /* the harness runs every variant of the op */
}

size_t rf_case_encode(const rf_case *c, uint8_t *buf) {
  memset(buf, 0, ENCODED_LEN);
  buf[OFF_VERSION] = (uint8_t)rf_codec_version();
  buf[OFF_OP] = (uint8_t)c->op;
  buf[OFF_DIST] = (uint8_t)c->dist;
  buf[OFF_SCHED_WAVE] = (uint8_t)((unsigned)c->sched | (c->wave == 64 ? 0x0Cu : 0u));
  buf[OFF_SIZE_A] = LITERAL;
  if (rf_op_has_rows(c->op)) {
    put_le(buf + OFF_SIZE_A + 1, c->rows, 8);
    buf[OFF_SIZE_B] = LITERAL;
    put_le(buf + OFF_SIZE_B + 1, c->cols, 8);
  } else {
    put_le(buf + OFF_SIZE_A + 1, c->n, 8);
  }
  put_le(buf + OFF_SEED, c->seed, 8);
  buf[OFF_BLOCK] = LITERAL;
  put_le(buf + OFF_BLOCK + 1, c->block, 2);
  buf[OFF_GRID] = LITERAL;
  put_le(buf + OFF_GRID + 1, c->grid, 4);
  buf[OFF_ITEMS] = LITERAL;
  buf[OFF_ITEMS + 1] = (uint8_t)c->items;
  buf[OFF_DTYPE] = (uint8_t)((unsigned)c->dtype | c->misalign << 4);
  return ENCODED_LEN;
}

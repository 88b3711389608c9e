/* A variant: one kernel pipeline for an op, with the metadata redfuzz needs to launch it on
 * any case and to derive its bound. C ABI, shared by built-in kernels, mutants and plugins. */
#ifndef RF_VARIANT_H
#define RF_VARIANT_H
#include <stddef.h>
#include <stdint.h>
#include "op.h"
#include "plan.h"
#include "dtype.h"
#ifdef __cplusplus
extern "C" {
#endif

/* Launch parameters after the variant resolved the case's defaults (0 = default). */
typedef struct {
  uint64_t n;            /* 1-D length (sum/max/argmax) */
  uint32_t rows, cols;   /* the row ops' shape (softmax, logsumexp, logsoftmax) */
  uint32_t block;        /* threads per block of the first kernel */
  uint32_t grid;         /* blocks of the first kernel */
  uint32_t items;        /* items per thread, where the variant has that knob (else 0) */
  uint32_t wave;         /* wave size of the device (32 on gfx1201 and NVIDIA) */
  uint32_t num_cus;      /* compute units / SMs of the device */
} rf_launch_cfg;

/* argmax output: value and index of the maximum (index -1 for empty input; which index of a
 * tie, and what NaN gives, is the variant's contract below). Two layouts, chosen by the
 * variant's index_bits (below): rf_argmax_out (8 bytes, a 32-bit index: inputs of at most
 * 2^31 - 1 elements) or rf_argmax_out64 (16 bytes, the index at offset 8: any n). */
typedef struct { float value; int32_t index; } rf_argmax_out;
typedef struct { float value; uint32_t pad; int64_t index; } rf_argmax_out64;

typedef struct {
  const float *x;        /* device input: n or rows*cols elements of the variant's in_dtype
                            (the case's type): floats for f32, 16-bit encodings for f16 and
                            bf16 (cast to const uint16_t *) */
  void *out;             /* device output: sum/max: 1 element of out_dtype; argmax:
                            rf_argmax_out, or rf_argmax_out64 when index_bits
                            is 64 (value as float, exact for every type);
                            softmax, log-softmax: rows*cols elements of
                            out_dtype; logsumexp: rows elements of out_dtype */
  void *scratch;         /* device scratch of scratch_bytes(cfg) bytes (may be NULL if 0) */
  void *stream;          /* hipStream_t (NULL = default stream) */
  rf_launch_cfg cfg;
} rf_launch_args;

typedef struct rf_variant {
  const char *name;      /* "<op>/<name>", e.g. "sum/two-stage-wave" */
  rf_op op;
  int deterministic;     /* 1: the same case gives the same bits every run */
  int is_mutant;         /* 1: a known-bug variant (kernels/mutants), expected to fail */
  const char *summary;   /* one line: the algorithm */
  const char *constraints; /* one line: what launch parameters it accepts */
  /* Fills cfg->block/grid/items from the case's requests (0 = pick the default) and the
   * device facts already in cfg. Returns NULL when supported, else a static reason
   * ("block 48 is not a power of two (allowed: 32..1024, power of two)"). */
  const char *(*configure)(rf_launch_cfg *cfg);
  size_t (*scratch_bytes)(const rf_launch_cfg *cfg);
  /* The combining tree for this cfg (the row ops: per row). */
  void (*plan)(const rf_launch_cfg *cfg, rf_plan *out);
  /* Enqueues every kernel (no synchronisation, no allocation). Returns 0 or the
   * hipError_t value of the first failing launch. Zeroing the output, where the algorithm
   * needs it, is part of the launch. */
  int (*launch)(const rf_launch_args *a);
  /* Cost: 0, or the largest element count (n, or rows*cols) a fuzz campaign runs this
   * variant on; it is slow beyond (e.g. sum/atomic's contended atomics take milliseconds from
   * 2^20 on) and would set the campaign's pace. The fuzz target leaves it out of bigger cases
   * and says so; sweeps, `run` and replays run it at every size. Last, so that positional
   * initialisers written before it leave it 0. */
  uint64_t fuzz_max_n;
  /* Element types (ABI version 3), last for the same reason: 0 is f32. in_dtype: the input
   * type the variant reads; it runs only on cases of that dtype (the runner skips it on the
   * others). out_dtype: the type it writes (sum/max: the one output element; softmax: every
   * element); its own input type or f32. argmax and argmin write rf_argmax_out (out_dtype f32). */
  rf_dtype in_dtype;
  rf_dtype out_dtype;
  /* Contract (ABI version 4): RF_CONTRACT_* bits saying what the variant returns on the edges
   * where libraries differ (include/redfuzz/plugin.h, CONTRACT; docs/ORACLE.md). 0, the
   * default of a positional initialiser that stops before it, is the convention of a kernel
   * written the common way (CUB's +0 start, fmaxf, first index of a tie). Last, as above. */
  uint32_t contract;
  /* argmax, argmin (ABI version 5): the width of the index the variant writes. 0 (the default
   * of a positional initialiser that stops before it, and of a version-3 or 4 plugin) or 32:
   * rf_argmax_out, and the runner leaves the variant out (`unsupported`) of cases past
   * 2^31 - 1 elements; 64: rf_argmax_out64, any n. Every other op: 0. Last, as above. */
  uint32_t index_bits;
} rf_variant;

/* The bytes of an argmax/argmin output of a variant with index_bits (8 or 16). */
static inline size_t rf_argmax_out_bytes(uint32_t index_bits) {
  return index_bits == 64 ? sizeof(rf_argmax_out64) : sizeof(rf_argmax_out);
}

/* The largest n a variant writing index_bits-wide argmax indices can answer: 2^31 - 1 for a
 * 32-bit index (int32, -1 for none), else every n. */
static inline uint64_t rf_argmax_max_n(uint32_t index_bits) {
  return index_bits == 64 ? UINT64_MAX : (uint64_t)INT32_MAX;
}

/* Contract bits. Each applies to the ops named; a bit for another op is refused at load. */
/* sum: the sign of an exact zero result is checked (IEEE: a sum of only -0 is -0, any other
 * exact zero +0). Without it either zero is accepted for an input of only zeros. */
#define RF_CONTRACT_SIGNED_ZERO 0x1u
/* max, argmax (and min, argmin, mirrored): a NaN anywhere in the input gives NaN (as
 * torch.max); argmax then gives the index of the FIRST NaN. Without it NaN inputs are ignored
 * (as fmaxf, fminf) and only an input of only NaN gives NaN (argmax index -1). */
#define RF_CONTRACT_NAN_PROPAGATES 0x2u
/* argmax, argmin: a tie may return ANY index holding the maximum (minimum) with that
 * element's value. Without it a tie gives the lowest index (CUB ArgMax and ArgMin,
 * torch.argmax, numpy.argmin). */
#define RF_CONTRACT_TIE_ANY 0x4u
/* softmax: a row of only -inf (every column masked) gives 0 in every output, the fully masked
 * row of attention kernels (FlashAttention, xformers). Without it such a row gives NaN in
 * every output, as torch.softmax does (exp(-inf - -inf) = NaN; 0/0). A NaN or +inf in the
 * row gives NaN either way. */
#define RF_CONTRACT_MASKED_ROW_ZERO 0x8u
#define RF_CONTRACT_ALL 0xFu

/* The contract bits op may declare (RF_CONTRACT_ALL's subset that applies to it). */
static inline uint32_t rf_contract_allowed(rf_op op) {
  return op == RF_OP_SUM ? RF_CONTRACT_SIGNED_ZERO
       : op == RF_OP_MAX || op == RF_OP_MIN ? RF_CONTRACT_NAN_PROPAGATES
       : op == RF_OP_ARGMAX || op == RF_OP_ARGMIN ? RF_CONTRACT_NAN_PROPAGATES | RF_CONTRACT_TIE_ANY
       : op == RF_OP_SOFTMAX ? RF_CONTRACT_MASKED_ROW_ZERO : 0u;
}

/* The contract of a variant of op in words for `redfuzz list`, e.g. "signed-zero",
 * "nan-ignored, tie-first" or "masked-row-nan" ("" for the log ops, whose special rows have one
 * rule); returns buf. */
const char *rf_contract_describe(rf_op op, uint32_t contract, char *buf, size_t len);

/* Registry: built-in variants (plus mutants in REDFUZZ_MUTANTS builds, plus plugins), at most
 * RF_VARIANT_CAPACITY in all (a plugin that would overflow it is refused at load). A case
 * runs at most rf_variant_count() variants: callers size their result arrays from it. */
#define RF_VARIANT_CAPACITY 256
size_t rf_variant_count(void);
const rf_variant *rf_variant_at(size_t i);
const rf_variant *rf_variant_find(const char *name);
/* Adds a variant at run time (plugins). Returns 0, or -1 when the name is taken or full. */
int rf_variant_register(const rf_variant *v);

#ifdef __cplusplus
}
#endif
#endif

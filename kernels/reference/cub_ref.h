/* The CUB reference for `redfuzz bench`: cub::DeviceReduce::Sum, ::Max, ::ArgMax, ::Min and
 * ::ArgMin over a
 * device float array, behind a C ABI so the bench times it exactly like a variant.
 * Implemented on the cuda backend (cub_ref.cu); other backends link cub_ref_absent.c, which
 * reports it unavailable. */
#ifndef RF_CUB_REF_H
#define RF_CUB_REF_H
#include <stddef.h>
#include <stdint.h>
#include "redfuzz/variant.h"
#ifdef __cplusplus
extern "C" {
#endif

/* 1 when this build has the CUB reference (cuda backend), else 0. */
int rf_cub_available(void);
/* The CUB call for op, e.g. "cub::DeviceReduce::Sum"; NULL for softmax (CUB has none). */
const char *rf_cub_name(rf_op op);
/* Enqueues op over x[0..n) on the default stream; out is one float (sum, max, min) or an
 * rf_argmax_out (argmax, argmin: the first maximum or minimum, as redfuzz defines them). With tmp == NULL it
 * only writes the temporary storage that op needs to *tmp_bytes (CUB's two-phase calling
 * convention). Returns 0, the CUDA error code, or -1 when unavailable or op is softmax. */
int rf_cub_reduce(rf_op op, void *tmp, size_t *tmp_bytes, const float *x, void *out,
                  uint64_t n);

#ifdef __cplusplus
}
#endif
#endif

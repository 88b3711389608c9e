/* The device input generator (issue 12): the case's input made on the device, bit for bit
 * what rf_generate makes on the host (both run model/gen_elem.h), so only the case crosses
 * the bus. */
#ifndef RF_GEN_DEVICE_H
#define RF_GEN_DEVICE_H
#include "model/case.h"
#ifdef __cplusplus
extern "C" {
#endif
/* Enqueues on stream (a hipStream_t; NULL = the default stream) a kernel filling
 * dev_out[0 .. rf_case_elems(c)) with exactly rf_generate's bits: floats for f32 cases, the
 * 16-bit encodings of the same values for f16 and bf16 (rf_dtype_store's layout). Returns 0 or the
 * hipError_t of the launch. Nothing is launched for an empty case. */
int rf_gen_launch(const rf_case *c, void *dev_out, void *stream);
#ifdef __cplusplus
}
#endif
#endif

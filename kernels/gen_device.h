/* Inputs made on the device: rf_gen_launch enqueues the filling of dev_out[0 ..
 * rf_case_elems(c)) with exactly the bits rf_generate (fuzz/gen.h) gives on the host.
 * Returns 0 or the launch's error (a hipError_t value). (Declaration agreed for issue 12;
 * the device generator itself is another change: kernels/gen_device.hip.) */
#ifndef RF_GEN_DEVICE_H
#define RF_GEN_DEVICE_H
#include "../fuzz/case.h"
#ifdef __cplusplus
extern "C" {
#endif
int rf_gen_launch(const rf_case *c, float *dev_out, void *stream);
#ifdef __cplusplus
}
#endif
#endif

/* Device-side pieces of the verdicts (issue 12): guard zones written on the device, so that
 * buffers the device fills itself (inputs made by rf_gen_launch) need no upload at all. */
#ifndef RF_VERDICT_DEVICE_H
#define RF_VERDICT_DEVICE_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
/* Enqueues, on stream (NULL = default), p[0 .. lead) = bits and
 * p[lead + skip .. lead + skip + tail) = bits: the guard zones around a payload of `skip`
 * words that something else fills. 0 or the launch error. */
int rf_vd_guards_launch(uint32_t *p, size_t lead, size_t skip, size_t tail, uint32_t bits,
                        void *stream);
#ifdef __cplusplus
}
#endif
#endif

/* Guard zones on the device (verdict_device.h). One block: guards are a few hundred bytes. */
#include "port.h"
#include "verdict_device.h"

__global__ void rf_vd_guards_kernel(unsigned *p, unsigned long long lead,
                                    unsigned long long skip, unsigned long long tail,
                                    unsigned bits) {
  for (unsigned long long i = threadIdx.x; i < lead + tail; i += blockDim.x)
    p[i < lead ? i : i + skip] = bits;
}

#if !defined(__HIP_DEVICE_COMPILE__)
extern "C" int rf_vd_guards_launch(uint32_t *p, size_t lead, size_t skip, size_t tail,
                                   uint32_t bits, void *stream) {
  if (lead + tail == 0) return 0;
  hipLaunchKernelGGL(rf_vd_guards_kernel, dim3(1), dim3(256), 0, (hipStream_t)stream,
                     (unsigned *)p, (unsigned long long)lead, (unsigned long long)skip,
                     (unsigned long long)tail, bits);
  return (int)hipGetLastError();
}
#endif

/* <hip/hip_fp16.h> for the cuda backend: CUDA's __half has HIP's names (__half2float,
 * __float2half, __hadd, __hmax, __hlt, __half2 ...). */
#ifndef RF_PLAIN_HIP_CUDA_FP16_H
#define RF_PLAIN_HIP_CUDA_FP16_H
#include "hip_runtime.h"
#include <cuda_fp16.h>
#endif

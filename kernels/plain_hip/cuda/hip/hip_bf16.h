/* <hip/hip_bf16.h> for the cuda backend: HIP's __hip_bfloat16 is CUDA's __nv_bfloat16, whose
 * functions (__float2bfloat16, __bfloat162float, __hadd ...) have HIP's names. */
#ifndef RF_PLAIN_HIP_CUDA_BF16_H
#define RF_PLAIN_HIP_CUDA_BF16_H
#include "hip_runtime.h"
#include <cuda_bf16.h>
typedef __nv_bfloat16 __hip_bfloat16;
typedef __nv_bfloat162 __hip_bfloat162;
#endif

/* <hip/hip_runtime_api.h> for the cuda backend: the whole mapping (hip_runtime.h). */
#ifndef RF_PLAIN_HIP_CUDA_RUNTIME_API_H
#define RF_PLAIN_HIP_CUDA_RUNTIME_API_H
#include "hip_runtime.h"
#endif

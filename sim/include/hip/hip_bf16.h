/* The simulator's <hip/hip_bf16.h>: __hip_bfloat16 and __hip_bfloat162 (sim/sim_half.h). */
#ifndef RF_SIM_INCLUDE_HIP_BF16_H
#define RF_SIM_INCLUDE_HIP_BF16_H
#include "hip_runtime.h"
#include "../../sim_half.h"
#endif

/* The simulator's <hip/hip_fp16.h>: __half and __half2 (sim/sim_half.h). */
#ifndef RF_SIM_INCLUDE_HIP_FP16_H
#define RF_SIM_INCLUDE_HIP_FP16_H
#include "hip_runtime.h"
#include "../../sim_half.h"
#endif

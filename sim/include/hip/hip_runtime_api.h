/* The simulator's <hip/hip_runtime_api.h>: the host runtime (sim/sim_hip_runtime.h) and the
 * rest of <hip/hip_runtime.h>, which a C++ source including this one may use too. */
#ifndef RF_SIM_INCLUDE_HIP_RUNTIME_API_H
#define RF_SIM_INCLUDE_HIP_RUNTIME_API_H
#include "hip_runtime.h"
#endif

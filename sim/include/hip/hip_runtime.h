/* The simulator's <hip/hip_runtime.h>: plain HIP kernels built for the sim backend include
 * this one (rf_add_plugin puts sim/include first on their include path). The device API is
 * sim_port.h's subset plus sim_plain_hip.h; __shared__ and <<<...>>> need the plain-HIP build
 * step, sim/plain_hip/rf_sim_hipcc.py. docs/SIMULATOR.md, "Plain HIP". */
#ifndef RF_SIM_INCLUDE_HIP_RUNTIME_H
#define RF_SIM_INCLUDE_HIP_RUNTIME_H
#include "../../sim_plain_hip.h"
#endif

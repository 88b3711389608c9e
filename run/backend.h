/* The backend as a compile-time policy (REDFUZZ_BACKEND = sim | cuda | hip picks one at
 * configure time, so nothing compares backend names at run time): what cases it accepts,
 * what a fuzz input may ask of it, how its float atomics and exp behave for the bounds. */
#ifndef RF_BACKEND_H
#define RF_BACKEND_H
#include <stdint.h>
#include "model/case.h"
#include "oracle/bounds.h"

typedef struct {
  const char *name;              /* "sim", "cuda", "hip" */
  int is_sim;                    /* the CPU simulator: schedules and wave sizes are the case's */
  rf_limits limits;              /* the largest cases the runner accepts */
  uint64_t fuzz_max_elems;       /* default cap on a fuzz input's elements (REDFUZZ_MAX_ELEMS) */
  uint64_t fuzz_max_threads;     /* default cap on a fuzz input's GPU threads (REDFUZZ_MAX_THREADS;
                                    0: none) */
  unsigned streams;              /* launch streams a batch may spread over (1 on the simulator) */
  const rf_sum_model *sum_model; /* float atomics: exact IEEE, or flushing subnormals */
  const rf_exp_model *exp_model; /* the expf the softmax variants call */
} rf_backend_policy;

/* The policy of the backend this build was configured for. */
extern const rf_backend_policy rf_backend;
/* The error model of the fast exp intrinsic (__expf) as this backend computes it: NVIDIA's
 * ex2.approx-based one on cuda, gfx1201's native exp on hip; on the simulator the target it
 * stands for (sim/sim_control.h). */
const rf_exp_model *rf_backend_fast_exp(void);
#endif

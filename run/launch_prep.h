/* One variant's launch for one case, resolved before anything runs: shared by the runner's
 * batches (runner.c) and `redfuzz bench` (cli/cli_bench.c), so both refuse, configure and
 * bound a launch the same way; and the simulator's launch status as a verdict. */
#ifndef RF_LAUNCH_PREP_H
#define RF_LAUNCH_PREP_H
#include <stddef.h>
#include "kernels/harness/device.h"
#include "redfuzz/variant.h"
#include "model/case.h"
#include "run/runner_types.h"

/* Scratch per launch: the softmax exp buffer at the largest case (2^24 floats) fits. A launch
 * asking for more is refused (unsupported); run/boundaries.c refuses it as the runner does. */
#define RF_LAUNCH_MAX_SCRATCH_BYTES ((size_t)256 << 20)

/* Configures v for c on dev (the case's launch knobs; the case's wave on the simulator, the
 * device's elsewhere), then checks what the runner would refuse: a launch of more threads
 * than the simulator runs, more scratch than a launch may have, a plan that breaks the plan
 * contract. 0: *cfg, *plan and *scratch set, res->plan and res->depth filled. -1: res holds
 * the final result (unsupported, or launch-error for a broken plan) with its detail. */
int rf_launch_prepare(const rf_variant *v, const rf_case *c, const rf_device_info *dev,
                      rf_launch_cfg *cfg, rf_plan *plan, size_t *scratch, rf_result *res);

/* The simulator's cap on one launch's threads (REDFUZZ_SIM_MAX_THREADS; 0: the default 2^22),
 * process-wide: set by rf_runner_create from its settings. */
void rf_launch_set_sim_max_threads(uint64_t threads);

/* A failed launch's simulator status (rf_dev_sim_take_status; 0 on GPUs) as its verdict:
 * divergent-barrier, race, timeout, oob, crash, launch-contract, input-written, else launch-error. */
rf_verdict rf_launch_status_verdict(int st);
#endif

/* sum/mut-alloc-in-launch: the two-pass sum (mut_two_pass.h) that allocates its partials with
 * hipMalloc in every launch (and frees them at the end) instead of using the scratch the runner
 * gives: an allocation (and hipFree's implicit synchronisation) inside launch, which costs a
 * device-wide wait per call and cannot be recorded into a graph. The launch contract checked
 * on the simulator names the first call and its line. */
#include "mut_two_pass.h"

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_alloc_in_launch_launch(const rf_launch_args *a) {
  float *partials = NULL;
  /* BUG: an allocation inside launch (scratch_bytes asks for none) */
  int err = (int)hipMalloc(&partials, (size_t)a->cfg.grid * sizeof(float));
  if (err) return err;
  err = rf_mut_tp_enqueue(a, partials);
  const int ferr = (int)hipFree(partials);
  return err ? err : ferr;
}

extern "C" const rf_variant rf_mut_sum_alloc_in_launch = {
    .name = "sum/mut-alloc-in-launch",
    .op = RF_OP_SUM,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT sum/two-pass that hipMallocs its partials in every launch",
    .constraints = "block power of two 1..1024; grid 1..2^31-1 (default min(ceil(n/block), "
        "1024)); no items",
    .configure = rf_mut_configure_two_pass,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_two_pass,
    .launch = rf_mut_alloc_in_launch_launch,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif

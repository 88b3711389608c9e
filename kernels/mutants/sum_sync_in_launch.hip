/* sum/mut-sync-in-launch: the two-pass sum (mut_two_pass.h) with a hipDeviceSynchronize()
 * between its kernels, "so that the partials are ready" (kernels on one stream run in order:
 * the wait orders nothing and stalls the host). A launch function must not synchronise: the
 * runner enqueues a batch of launches before one synchronisation, and a launch recorded into a
 * graph cannot wait. The launch contract checked on the simulator names the call and line. */
#include "mut_two_pass.h"

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_sync_in_launch_launch(const rf_launch_args *a) {
  const hipStream_t st = (hipStream_t)a->stream;
  float *partials = (float *)a->scratch;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_mut_tp_partials_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0, st,
                       a->x, (rf_mut_u64)a->cfg.n, partials);
    int err = (int)hipGetLastError();
    if (err) return err;
    err = (int)hipDeviceSynchronize();   /* BUG: a synchronisation inside launch */
    if (err) return err;
  }
  hipLaunchKernelGGL(rf_mut_tp_final_kernel, dim3(1), dim3(a->cfg.block), 0, st, partials,
                     (rf_mut_u64)(a->cfg.n ? a->cfg.grid : 0), (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_sum_sync_in_launch = {
    .name = "sum/mut-sync-in-launch",
    .op = RF_OP_SUM,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT sum/two-pass that calls hipDeviceSynchronize() between its kernels",
    .constraints = "block power of two 1..1024; grid 1..2^31-1 (default min(ceil(n/block), "
        "1024)); no items",
    .configure = rf_mut_configure_two_pass,
    .scratch_bytes = rf_mut_float_partials,
    .plan = rf_mut_plan_two_pass,
    .launch = rf_mut_sync_in_launch_launch,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif

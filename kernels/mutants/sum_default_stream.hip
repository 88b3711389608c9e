/* sum/mut-default-stream: the two-pass sum (mut_two_pass.h) whose second kernel is launched on
 * the default stream, stream 0, as kernels are launched when the stream argument is left out.
 * On a GPU the legacy default stream waits for the runner's stream, so the result is right,
 * but the work is outside a->stream: a launch graph recorded from a->stream misses it, and
 * another stream's work is serialised behind it. The launch contract checked on the simulator
 * (docs/SIMULATOR.md, "The launch contract") names the line. */
#include "mut_two_pass.h"

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_default_stream_launch(const rf_launch_args *a) {
  float *partials = (float *)a->scratch;
  if (a->cfg.n) {
    hipLaunchKernelGGL(rf_mut_tp_partials_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                       (hipStream_t)a->stream, a->x, (rf_mut_u64)a->cfg.n, partials);
    int err = (int)hipGetLastError();
    if (err) return err;
  }
  /* BUG: stream 0, not a->stream */
  hipLaunchKernelGGL(rf_mut_tp_final_kernel, dim3(1), dim3(a->cfg.block), 0, 0, partials,
                     (rf_mut_u64)(a->cfg.n ? a->cfg.grid : 0), (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_sum_default_stream = {
    .name = "sum/mut-default-stream",
    .op = RF_OP_SUM,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT sum/two-pass whose second kernel is launched on the default stream",
    .constraints = "block power of two 1..1024; grid 1..2^31-1 (default min(ceil(n/block), "
        "1024)); no items",
    .configure = rf_mut_configure_two_pass,
    .scratch_bytes = rf_mut_float_partials,
    .plan = rf_mut_plan_two_pass,
    .launch = rf_mut_default_stream_launch,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif

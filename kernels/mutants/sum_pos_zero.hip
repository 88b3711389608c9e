/* sum/mut-pos-zero: sum/lds (one element per thread, LDS tree, one atomic per block) written
 * with +0 as the identity: padding with 0.0f and a memset output. (+0) + (-0) = +0, so a sum of
 * only -0 comes out +0, where every IEEE order gives -0 (docs/ORACLE.md, "Sum"). Every other
 * input is unaffected. Exposed by dist signed-zero (its all -0 rows). */
#include "mut_common.h"

__global__ void rf_mut_pos_zero_kernel(const float *__restrict__ x, rf_mut_u64 n, float *out) {
  RF_SHARED(float, sd, RF_MUT_MAX_BLOCK);
  const rf_mut_u64 i = rf_mut_gid();
  sd[threadIdx.x] = i < n ? x[i] : 0.0f;   /* BUG: the identity is -0.0f */
  rf_prim_lds_sum_tree(sd);
  if (threadIdx.x == 0) atomicAdd(out, sd[0]);
}

#if !defined(__HIP_DEVICE_COMPILE__)
static int rf_mut_pos_zero_launch(const rf_launch_args *a) {
  int err = rf_mut_zero_output(a);   /* BUG (the same one): the output starts at +0 */
  if (err || a->cfg.n == 0) return err;
  hipLaunchKernelGGL(rf_mut_pos_zero_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, a->x, (rf_mut_u64)a->cfg.n, (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_sum_pos_zero = {
    .name = "sum/mut-pos-zero",
    .op = RF_OP_SUM,
    .deterministic = 0,
    .is_mutant = 1,
    .summary = "MUTANT sum/lds with +0 as the identity (0.0f padding, zeroed output): a sum of "
        "only -0 gives +0",
    .constraints = "block power of two 1..1024; grid = ceil(n/block), a requested grid is "
        "ignored; no items",
    .configure = rf_mut_configure_one_per_thread,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_plan_lds_atomic,
    .launch = rf_mut_pos_zero_launch,
    .in_dtype = RF_DTYPE_F32,
    .out_dtype = RF_DTYPE_F32,
    /* declared strict as sum/lds is (every sum mutant keeps the contract of the variant it
     * mutates, docs/MUTANTS.md): the rule its bug breaks; a sum from +0 is correct by the
     * default contract (include/redfuzz/variant.h) */
    .contract = RF_CONTRACT_SIGNED_ZERO};
#endif

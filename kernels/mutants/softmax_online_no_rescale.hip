/* softmax/mut-online-no-rescale: a one-block-per-row online softmax (Milakov & Gimelshein 2018,
 * "Online normalizer calculation for softmax": one pass keeps a running max m and
 * s = Σ exp(x - m) per thread, the (m, s) pairs merge in an LDS tree, then
 * y = expf(x - M) / S) whose per-thread step forgets to rescale s by expf(m_old - m_new) when
 * the running max grows: earlier terms stay relative to a smaller max and S comes out too
 * large. Exposed when some thread sees a larger element after a smaller one, i.e. cols > block
 * (e.g. 4096x1024 at the default block 256, or cols 257 with block 32). The tree's merge is
 * correct. */
#include "mut_common.h"

__global__ void rf_mut_no_rescale_kernel(const float *__restrict__ x, uint32_t cols, float *y) {
  RF_SHARED(float, sm, RF_MUT_MAX_BLOCK);
  RF_SHARED(float, ss, RF_MUT_MAX_BLOCK);
  const unsigned t = threadIdx.x;
  const float *xr = x + (size_t)blockIdx.x * cols;
  float *yr = y + (size_t)blockIdx.x * cols;

  float m = -INFINITY, s = 0.0f;
  for (uint32_t c = t; c < cols; c += blockDim.x) {
    const float v = xr[c];
    const float m_new = fmaxf(m, v);
    s += expf(v - m_new);   /* BUG: must be s = s * expf(m - m_new) + expf(v - m_new) */
    m = m_new;
  }
  sm[t] = m;
  ss[t] = s;
  rf_prim_lds_online_tree<true>(sm, ss);
  const float row_max = sm[0], row_sum = ss[0];
  for (uint32_t c = t; c < cols; c += blockDim.x) yr[c] = expf(xr[c] - row_max) / row_sum;
}

#if !defined(__HIP_DEVICE_COMPILE__)
/* The row sum: a chain of ceil(cols/block) adds and an LDS tree. Rescales: a thread's first
 * term is rescaled once per later element of the thread (k - 1), then at most once per tree
 * level. y = e / s. */
static void rf_mut_no_rescale_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  rf_mut_plan_row_per_block(cfg, p);
  if (!cfg->rows || !cfg->cols) return;
  p->rescales = rf_mut_chain(cfg->cols, 1, cfg->block) - 1 + rf_ceil_log2(cfg->block);
}

static int rf_mut_no_rescale_launch(const rf_launch_args *a) {
  if (a->cfg.rows == 0 || a->cfg.cols == 0) return 0;   /* nothing to write */
  hipLaunchKernelGGL(rf_mut_no_rescale_kernel, dim3(a->cfg.rows), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, a->x, a->cfg.cols, (float *)a->out);
  return (int)hipGetLastError();
}

extern "C" const rf_variant rf_mut_softmax_online_no_rescale = {
    .name = "softmax/mut-online-no-rescale",
    .op = RF_OP_SOFTMAX,
    .deterministic = 1,
    .is_mutant = 1,
    .summary = "MUTANT one-block-per-row online softmax whose per-thread running sum is not "
        "rescaled when the running max grows",
    .constraints = "block power of two 1..1024; grid = rows; any cols",
    .configure = rf_mut_configure_row_per_block,
    .scratch_bytes = rf_mut_no_scratch,
    .plan = rf_mut_no_rescale_plan,
    .launch = rf_mut_no_rescale_launch};
#endif

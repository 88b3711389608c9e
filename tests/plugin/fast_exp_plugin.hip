/* Softmax with the fast exponential (__expf), judged by the error its plan declares
 * (rf_plan.exp, docs/TOLERANCES.md). One block per row: strided max, LDS max tree, strided
 * sum of exps, LDS sum tree, y = e / s. Three variants that differ only in the exp:
 *   softmax/plugin-fast-exp             __expf(x - m), declares RF_EXP_FAST: must pass
 *   softmax/plugin-fast-exp-undeclared  __expf(x - m), declares the library expf
 *   softmax/plugin-fast-exp-factored    __expf(x) * __expf(-m), declares RF_EXP_FAST: its
 *       error grows with |x| and |m|, not with |x - m| as the declaration allows, so rows far
 *       from 0 exceed it
 * Built for every backend: on a GPU the same file runs with the hardware's own __expf. */
#include "kernels/port.h"
#include "redfuzz/plugin.h"

template <int kMode>
__device__ __forceinline__ float rf_fe_exp(float x, float m) {
  return kMode == 2 ? __expf(x) * __expf(-m) : __expf(x - m);
}

template <int kMode>
__global__ void rf_fe_softmax_kernel(const float *__restrict__ x, unsigned cols,
                                     float *__restrict__ y) {
  RF_SHARED(float, lds, 1024);
  const unsigned t = threadIdx.x, nt = blockDim.x;
  const float *row = x + (size_t)blockIdx.x * cols;
  float *out = y + (size_t)blockIdx.x * cols;
  float m = -INFINITY;
  for (unsigned c = t; c < cols; c += nt) m = fmaxf(m, row[c]);
  lds[t] = m;
  __syncthreads();
  for (unsigned s = nt / 2; s > 0; s >>= 1) {
    if (t < s) lds[t] = fmaxf(lds[t], lds[t + s]);
    __syncthreads();
  }
  const float row_max = lds[0];
  __syncthreads();
  float sum = 0.0f;
  for (unsigned c = t; c < cols; c += nt) sum += rf_fe_exp<kMode>(row[c], row_max);
  lds[t] = sum;
  __syncthreads();
  for (unsigned s = nt / 2; s > 0; s >>= 1) {
    if (t < s) lds[t] += lds[t + s];
    __syncthreads();
  }
  const float denom = lds[0];
  for (unsigned c = t; c < cols; c += nt) out[c] = rf_fe_exp<kMode>(row[c], row_max) / denom;
}

static const char *configure(rf_launch_cfg *cfg) {
  if (cfg->block == 0) cfg->block = 256;
  if (cfg->block > 1024 || (cfg->block & (cfg->block - 1)))
    return "block must be a power of two 1..1024";
  if (cfg->rows > 65535) return "rows above 65535";
  cfg->grid = cfg->rows ? cfg->rows : 1;
  cfg->items = 0;
  return NULL;
}
static size_t no_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }
static void plan_common(const rf_launch_cfg *cfg, rf_plan *p, rf_exp_kind exp) {
  *p = rf_plan();
  p->div = RF_DIV_IEEE;
  p->exp = exp;
  if (!cfg->rows || !cfg->cols) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_div_ceil(cfg->cols, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
}
static void plan_fast(const rf_launch_cfg *cfg, rf_plan *p) { plan_common(cfg, p, RF_EXP_FAST); }
static void plan_accurate(const rf_launch_cfg *cfg, rf_plan *p) {
  plan_common(cfg, p, RF_EXP_ACCURATE);
}
template <int kMode>
static int launch(const rf_launch_args *a) {
  if (!a->cfg.rows || !a->cfg.cols) return 0;
  hipLaunchKernelGGL(rf_fe_softmax_kernel<kMode>, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, a->x, a->cfg.cols, (float *)a->out);
  return (int)hipGetLastError();
}

static const char *const kShape = "block power of two 1..1024; grid = rows (<= 65535)";
static const rf_variant honest = {
    "softmax/plugin-fast-exp", RF_OP_SOFTMAX, 1, 0,
    "block per row, LDS trees, __expf(x - m), plan declares the fast exp", kShape, configure,
    no_scratch, plan_fast, launch<0>, 0};
static const rf_variant undeclared = {
    "softmax/plugin-fast-exp-undeclared", RF_OP_SOFTMAX, 1, 1,
    "test: __expf(x - m) while the plan declares the library expf", kShape, configure,
    no_scratch, plan_accurate, launch<1>, 0};
static const rf_variant factored = {
    "softmax/plugin-fast-exp-factored", RF_OP_SOFTMAX, 1, 1,
    "test: __expf(x) * __expf(-m), more error than the declared fast exp allows", kShape,
    configure, no_scratch, plan_fast, launch<2>, 0};
static const rf_variant *const variants[] = {&honest, &undeclared, &factored};

extern "C" int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }
extern "C" const rf_variant *const *rf_plugin_variants(size_t *count) {
  *count = 3;
  return variants;
}

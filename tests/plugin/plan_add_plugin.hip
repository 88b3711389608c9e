/* A softmax whose plan() is rf_plan_add calls alone, on the plan it is handed (plugin.h: it
 * arrives zeroed from every command). `redfuzz tolerance` once handed it an uninitialised
 * rf_plan (run/tol_rows.c): the levels added went after stack garbage, rf_plan_check refused
 * the plan, and the variant got "no tolerance" (tests/plugin/CMakeLists.txt, plugin.tolerance_
 * plan_add). One block per row: strided max, LDS max tree, strided sum of expf, LDS sum tree,
 * y = e / s (one IEEE division, the library expf: the zero plan's div and exp). */
#include "kernels/port.h"
#include "redfuzz/plugin.h"

__global__ void pa_softmax_kernel(const float *__restrict__ x, unsigned cols,
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
  for (unsigned c = t; c < cols; c += nt) sum += expf(row[c] - row_max);
  lds[t] = sum;
  __syncthreads();
  for (unsigned s = nt / 2; s > 0; s >>= 1) {
    if (t < s) lds[t] += lds[t + s];
    __syncthreads();
  }
  const float denom = lds[0];
  for (unsigned c = t; c < cols; c += nt) out[c] = expf(row[c] - row_max) / denom;
}

static const char *pa_configure(rf_launch_cfg *cfg) {
  if (cfg->block == 0) cfg->block = 128;
  if (cfg->block > 1024 || (cfg->block & (cfg->block - 1)))
    return "block must be a power of two 1..1024";
  if (cfg->rows > 65535) return "rows above 65535";
  cfg->grid = cfg->rows ? cfg->rows : 1;
  cfg->items = 0;
  return NULL;
}
static size_t pa_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }
/* No `*p = rf_plan()` first: the plan arrives zeroed. */
static void pa_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  if (!cfg->rows || !cfg->cols) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_div_ceil(cfg->cols, cfg->block));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(cfg->block));
}
static int pa_launch(const rf_launch_args *a) {
  if (!a->cfg.rows || !a->cfg.cols) return 0;
  hipLaunchKernelGGL(pa_softmax_kernel, dim3(a->cfg.grid), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, a->x, a->cfg.cols, (float *)a->out);
  return (int)hipGetLastError();
}

static const rf_variant pa_softmax = {
    "softmax/plugin-plan-add", RF_OP_SOFTMAX, 1, 0,
    "test: block per row, LDS trees, expf; its plan rf_plan_add calls alone",
    "block power of two 1..1024; grid = rows (<= 65535)", pa_configure, pa_scratch, pa_plan,
    pa_launch, 0};
static const rf_variant *const pa_variants[] = {&pa_softmax};

extern "C" int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }
extern "C" const rf_variant *const *rf_plugin_variants(size_t *count) {
  *count = 1;
  return pa_variants;
}

/* Kernels written the ways other libraries write them, each judged by the contract it declares
 * (include/redfuzz/variant.h, RF_CONTRACT_*; tests/plugin/CMakeLists.txt). Each pair shares one
 * kernel and differs only in the declaration:
 *   sum/plugin-test-pos-zero            accumulators start from +0.0f (CUB's T{}): a sum of only
 *                                       -0 gives +0; default contract (either zero): must pass
 *   sum/plugin-test-pos-zero-strict     the same, declared RF_CONTRACT_SIGNED_ZERO: wrong on
 *                                       signed-zero
 *   max/plugin-test-fmaxf               fmaxf fold (NaN ignored), default contract: must pass
 *   max/plugin-test-fmaxf-propagate     the same, declared RF_CONTRACT_NAN_PROPAGATES: wrong on
 *                                       nan-sprinkled
 *   max/plugin-test-propagate           a NaN-propagating max (torch.max), declared so: must pass
 *   max/plugin-test-propagate-undeclared the same, default contract: wrong on nan-sprinkled
 *   argmax/plugin-test-tie-last         ties give the LAST index, declared RF_CONTRACT_TIE_ANY:
 *                                       must pass
 *   argmax/plugin-test-tie-last-first   the same, default contract (first index): wrong on ties
 *   argmax/plugin-test-propagate        NaN propagates, the first NaN's index, declared so: must
 *                                       pass
 *   argmax/plugin-test-two-rules        ties give the last index and NaN is ignored, declared
 *                                       nan-propagates (tie-first): wrong on ties (rule
 *                                       tie-first) and on nan-sprinkled (rule nan-propagates),
 *                                       two signatures of one variant (run/rules.def)
 *   softmax/plugin-test-masked-zero     a row of only -inf gives 0s (attention kernels' masked
 *                                       row), declared RF_CONTRACT_MASKED_ROW_ZERO: must pass
 *   softmax/plugin-test-masked-zero-undeclared  the same, default contract (NaN, torch):
 *                                       wrong on all-neg-inf rows (rule masked-row-nan)
 *   softmax/plugin-test-masked-nan      the max-shifted softmax of torch (0/0 = NaN), default
 *                                       contract: must pass
 *   softmax/plugin-test-masked-nan-declared-zero  the same, declared masked-row-zero: wrong on
 *                                       all-neg-inf rows (rule masked-row-zero)
 * The failing ones are marked is_mutant (run by --mutants, expected to fail). One block of
 * RF_CT_BLOCK threads: a grid-stride chain per thread, then an LDS tree. */
#include "kernels/port.h"
#include "redfuzz/plugin.h"

#define RF_CT_BLOCK 256u

__global__ void rf_ct_sum_kernel(const float *__restrict__ x, unsigned long long n, float *out) {
  RF_SHARED(float, lds, RF_CT_BLOCK);
  const unsigned t = threadIdx.x;
  float acc = 0.0f;   /* the common start: +0, so a sum of only -0 is +0 */
  for (unsigned long long i = t; i < n; i += RF_CT_BLOCK) acc += x[i];
  lds[t] = acc;
  __syncthreads();
  for (unsigned s = RF_CT_BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) lds[t] += lds[t + s];
    __syncthreads();
  }
  if (t == 0) out[0] = lds[0];
}

/* kProp 0: fmaxf (NaN ignored; a fold started from NaN gives NaN only for an input of only
 * NaN). 1: NaN propagates (once NaN, NaN). */
template <int kProp>
__device__ __forceinline__ float rf_ct_max2(float a, float b) {
  if (kProp) return isnan(a) ? a : isnan(b) || b > a ? b : a;
  return fmaxf(a, b);
}

template <int kProp>
__global__ void rf_ct_max_kernel(const float *__restrict__ x, unsigned long long n, float *out) {
  RF_SHARED(float, lds, RF_CT_BLOCK);
  const unsigned t = threadIdx.x;
  float acc = kProp ? -INFINITY : NAN;
  for (unsigned long long i = t; i < n; i += RF_CT_BLOCK) acc = rf_ct_max2<kProp>(acc, x[i]);
  lds[t] = acc;
  __syncthreads();
  for (unsigned s = RF_CT_BLOCK / 2; s > 0; s >>= 1) {
    if (t < s) lds[t] = rf_ct_max2<kProp>(lds[t], lds[t + s]);
    __syncthreads();
  }
  if (t == 0) out[0] = n ? lds[0] : -INFINITY;
}

/* (value, index) pairs. kMode 0: NaN ignored, ties to the HIGHER index. 1: NaN propagates,
 * the lowest NaN index wins; ties otherwise to the lower index. Index -1: nothing seen. */
template <int kMode>
__device__ __forceinline__ int rf_ct_takes(float av, long long ai, float bv, long long bi) {
  if (bi < 0) return 0;
  if (ai < 0) return 1;
  if (kMode == 1) {
    if (isnan(av) || isnan(bv)) return isnan(bv) && (!isnan(av) || bi < ai);
    return bv > av || (bv == av && bi < ai);
  }
  return bv > av || (bv == av && bi > ai);
}

template <int kMode>
__global__ void rf_ct_argmax_kernel(const float *__restrict__ x, unsigned long long n,
                                    rf_argmax_out *out) {
  RF_SHARED(float, vals, RF_CT_BLOCK);
  RF_SHARED(long long, idxs, RF_CT_BLOCK);
  const unsigned t = threadIdx.x;
  float v = -INFINITY;
  long long k = -1;
  for (unsigned long long i = t; i < n; i += RF_CT_BLOCK) {
    const float e = x[i];
    if (kMode == 0 && isnan(e)) continue;
    if (rf_ct_takes<kMode>(v, k, e, (long long)i)) {
      v = e;
      k = (long long)i;
    }
  }
  vals[t] = v;
  idxs[t] = k;
  __syncthreads();
  for (unsigned s = RF_CT_BLOCK / 2; s > 0; s >>= 1) {
    if (t < s && rf_ct_takes<kMode>(vals[t], idxs[t], vals[t + s], idxs[t + s])) {
      vals[t] = vals[t + s];
      idxs[t] = idxs[t + s];
    }
    __syncthreads();
  }
  if (t == 0) {
    /* nothing kept: empty (-inf) or, NaN ignored, only NaN (NaN) */
    rf_argmax_out r = {idxs[0] >= 0 ? x[idxs[0]] : n ? NAN : -INFINITY, (int)idxs[0]};
    out[0] = r;
  }
}

/* Softmax, one row per block, its first thread alone: m = fmaxf over the row (a NaN or +inf
 * then makes every output NaN through exp(x - m)), the sum of expf(x_j - m) from 0.0f, then
 * each output expf(x_j - m) / s. kMaskedZero: a row of only -inf gives 0s instead of NaN
 * (exp(-inf - -inf) = NaN). */
template <int kMaskedZero>
__global__ void rf_ct_softmax_kernel(const float *__restrict__ x, unsigned cols, float *y) {
  if (threadIdx.x != 0) return;
  const float *xr = x + (size_t)blockIdx.x * cols;
  float *yr = y + (size_t)blockIdx.x * cols;
  float m = -INFINITY;
  int masked = 1;
  for (unsigned j = 0; j < cols; j++) {
    m = fmaxf(m, xr[j]);
    masked = masked && xr[j] == -INFINITY;   /* fmaxf skips NaN: m alone cannot tell */
  }
  if (kMaskedZero && masked) {
    for (unsigned j = 0; j < cols; j++) yr[j] = 0.0f;
    return;
  }
  float s = 0.0f;
  for (unsigned j = 0; j < cols; j++) s += expf(xr[j] - m);
  for (unsigned j = 0; j < cols; j++) yr[j] = expf(xr[j] - m) / s;
}

#if !defined(__HIP_DEVICE_COMPILE__)
static const char *configure(rf_launch_cfg *cfg) {
  if (cfg->block && cfg->block != RF_CT_BLOCK) return "block must be 256 (one block)";
  if (cfg->n >= (1ull << 31)) return "n above 2^31 - 1";
  cfg->block = RF_CT_BLOCK;
  cfg->grid = 1;
  cfg->items = 0;
  return NULL;
}
static size_t no_scratch(const rf_launch_cfg *cfg) { (void)cfg; return 0; }
/* Each thread's chain (its first add is to the +0 start), then the tree over the block. */
static void plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  rf_plan_add(p, RF_LEVEL_CHAIN, rf_div_ceil(cfg->n, RF_CT_BLOCK));
  rf_plan_add(p, RF_LEVEL_LDS, rf_ceil_log2(RF_CT_BLOCK));
}
static int launch_sum(const rf_launch_args *a) {
  hipLaunchKernelGGL(rf_ct_sum_kernel, dim3(1), dim3(RF_CT_BLOCK), 0, (hipStream_t)a->stream,
                     a->x, (unsigned long long)a->cfg.n, (float *)a->out);
  return (int)hipGetLastError();
}
template <int kProp>
static int launch_max(const rf_launch_args *a) {
  hipLaunchKernelGGL(rf_ct_max_kernel<kProp>, dim3(1), dim3(RF_CT_BLOCK), 0,
                     (hipStream_t)a->stream, a->x, (unsigned long long)a->cfg.n, (float *)a->out);
  return (int)hipGetLastError();
}
template <int kMode>
static int launch_argmax(const rf_launch_args *a) {
  hipLaunchKernelGGL(rf_ct_argmax_kernel<kMode>, dim3(1), dim3(RF_CT_BLOCK), 0,
                     (hipStream_t)a->stream, a->x, (unsigned long long)a->cfg.n,
                     (rf_argmax_out *)a->out);
  return (int)hipGetLastError();
}

static const char *const kShape = "block 256, grid 1; n < 2^31";
/* Softmax: one block of one wave per row, grid = rows. */
static const char *configure_rows(rf_launch_cfg *cfg) {
  if (cfg->block && cfg->block != cfg->wave) return "block must be the wave size";
  cfg->block = cfg->wave;
  cfg->grid = cfg->rows;
  cfg->items = 0;
  return NULL;
}
/* One thread's chain over the row's cols terms (its first add is to the 0.0f start). */
static void plan_rows(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (cfg->cols) rf_plan_add(p, RF_LEVEL_CHAIN, cfg->cols);
}
template <int kMaskedZero>
static int launch_softmax(const rf_launch_args *a) {
  if (!a->cfg.rows || !a->cfg.cols) return 0;
  hipLaunchKernelGGL(rf_ct_softmax_kernel<kMaskedZero>, dim3(a->cfg.rows), dim3(a->cfg.block), 0,
                     (hipStream_t)a->stream, a->x, a->cfg.cols, (float *)a->out);
  return (int)hipGetLastError();
}
#define RF_CT_SOFTMAX(var, name, bad, summary, fn, contract)                                  \
  static const rf_variant var = {name, RF_OP_SOFTMAX, 1, bad, summary,                        \
                                 "one block of one wave a row", configure_rows, no_scratch,   \
                                 plan_rows, fn, 0, RF_DTYPE_F32, RF_DTYPE_F32, contract};
RF_CT_SOFTMAX(sm_zero, "softmax/plugin-test-masked-zero", 0,
              "test: masked rows give 0, declared masked-row-zero", launch_softmax<1>,
              RF_CONTRACT_MASKED_ROW_ZERO)
RF_CT_SOFTMAX(sm_zero_undeclared, "softmax/plugin-test-masked-zero-undeclared", 1,
              "test: masked rows give 0, default contract (NaN)", launch_softmax<1>, 0)
RF_CT_SOFTMAX(sm_nan, "softmax/plugin-test-masked-nan", 0,
              "test: masked rows give NaN (torch), default contract", launch_softmax<0>, 0)
RF_CT_SOFTMAX(sm_nan_declared_zero, "softmax/plugin-test-masked-nan-declared-zero", 1,
              "test: masked rows give NaN, declared masked-row-zero", launch_softmax<0>,
              RF_CONTRACT_MASKED_ROW_ZERO)
#define RF_CT_VARIANT(var, name, op, bad, summary, fn, contract)                              \
  static const rf_variant var = {name, op, 1, bad, summary, kShape, configure, no_scratch,    \
                                 plan, fn, 0, RF_DTYPE_F32, RF_DTYPE_F32, contract};
RF_CT_VARIANT(sum_default, "sum/plugin-test-pos-zero", RF_OP_SUM, 0,
              "test: sum from +0.0f, default contract (either zero)", launch_sum, 0)
RF_CT_VARIANT(sum_strict, "sum/plugin-test-pos-zero-strict", RF_OP_SUM, 1,
              "test: sum from +0.0f declared signed-zero", launch_sum, RF_CONTRACT_SIGNED_ZERO)
RF_CT_VARIANT(max_fmaxf, "max/plugin-test-fmaxf", RF_OP_MAX, 0,
              "test: fmaxf fold, default contract (NaN ignored)", launch_max<0>, 0)
RF_CT_VARIANT(max_fmaxf_prop, "max/plugin-test-fmaxf-propagate", RF_OP_MAX, 1,
              "test: fmaxf fold declared nan-propagates", launch_max<0>,
              RF_CONTRACT_NAN_PROPAGATES)
RF_CT_VARIANT(max_prop, "max/plugin-test-propagate", RF_OP_MAX, 0,
              "test: NaN-propagating max declared nan-propagates", launch_max<1>,
              RF_CONTRACT_NAN_PROPAGATES)
RF_CT_VARIANT(max_prop_undeclared, "max/plugin-test-propagate-undeclared", RF_OP_MAX, 1,
              "test: NaN-propagating max, default contract (NaN ignored)", launch_max<1>, 0)
RF_CT_VARIANT(argmax_last, "argmax/plugin-test-tie-last", RF_OP_ARGMAX, 0,
              "test: ties to the last index declared tie-any", launch_argmax<0>,
              RF_CONTRACT_TIE_ANY)
RF_CT_VARIANT(argmax_last_first, "argmax/plugin-test-tie-last-first", RF_OP_ARGMAX, 1,
              "test: ties to the last index, default contract (first index)", launch_argmax<0>, 0)
RF_CT_VARIANT(argmax_prop, "argmax/plugin-test-propagate", RF_OP_ARGMAX, 0,
              "test: first NaN wins, declared nan-propagates", launch_argmax<1>,
              RF_CONTRACT_NAN_PROPAGATES)
RF_CT_VARIANT(argmax_two_rules, "argmax/plugin-test-two-rules", RF_OP_ARGMAX, 1,
              "test: ties to the last index, NaN ignored, declared nan-propagates",
              launch_argmax<0>, RF_CONTRACT_NAN_PROPAGATES)
static const rf_variant *const variants[] = {&sum_default, &sum_strict, &max_fmaxf,
                                             &max_fmaxf_prop, &max_prop, &max_prop_undeclared,
                                             &argmax_last, &argmax_last_first, &argmax_prop,
                                             &argmax_two_rules, &sm_zero, &sm_zero_undeclared,
                                             &sm_nan, &sm_nan_declared_zero};

/* Version 4, from before rf_variant.index_bits: its argmax kernels write the 8-byte
 * rf_argmax_out, which the loader's default (index_bits 0) says, so the sweeps below also show
 * an ABI-4 plugin loaded and judged in that layout. */
extern "C" int rf_plugin_abi_version(void) { return 4; }
extern "C" const rf_variant *const *rf_plugin_variants(size_t *count) {
  *count = sizeof variants / sizeof variants[0];
  return variants;
}
#endif

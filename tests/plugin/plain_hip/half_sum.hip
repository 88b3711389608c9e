/* A plain HIP sum of __half values (<hip/hip_fp16.h>), written as mixed-precision kernels are:
 * __half2 loads (two elements a load) after a scalar head that reaches a 4-byte boundary,
 * each value converted exactly to float (__low2float, __high2float, __half2float) and summed in
 * float, the waves' sums through a __shared__ array, one atomicAdd a block into a float, and a
 * last kernel that rounds the total once to __half (__float2half, round to nearest even).
 *   sum/plain-half-sum   correct (f16 in, f16 out) */
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include "kernels/launch_common.h"
#include "redfuzz/plugin.h"

#define MAX_WAVES 32

__device__ float wave_sum(float v) {
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
  return v;
}

__global__ void half_sum_kernel(const __half *__restrict__ x, size_t n, float *total) {
  __shared__ float partials[MAX_WAVES];
  const unsigned lane = threadIdx.x % warpSize, wave = threadIdx.x / warpSize;
  const unsigned waves = blockDim.x / warpSize;
  const size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  const size_t stride = (size_t)gridDim.x * blockDim.x;
  /* x is 2-byte aligned; one element first when it is not 4-byte aligned. */
  const size_t head = n && (reinterpret_cast<uintptr_t>(x) & 3) ? 1 : 0;
  const size_t pairs = (n - head) / 2;
  const __half2 *x2 = reinterpret_cast<const __half2 *>(x + head);
  float v = 0.0f;
  if (tid == 0 && head) v += __half2float(x[0]);
  for (size_t i = tid; i < pairs; i += stride) {
    const __half2 p = x2[i];
    v += __low2float(p);
    v += __high2float(p);
  }
  if (tid == 0 && head + 2 * pairs < n) v += __half2float(x[n - 1]);
  v = wave_sum(v);
  if (lane == 0) partials[wave] = v;
  __syncthreads();
  if (wave == 0) {
    v = wave_sum(lane < waves ? partials[lane] : 0.0f);
    if (lane == 0) atomicAdd(total, v);
  }
}

__global__ void half_sum_finish(const float *total, __half *out) { out[0] = __float2half(total[0]); }

/* Host code only from here (plugin.h, HOST-CODE GUARD). */
#if !defined(__HIP_DEVICE_COMPILE__)

static const char *half_sum_configure(rf_launch_cfg *cfg) {
  if (cfg->wave != 32 && cfg->wave != 64)
    return rf_reason("wave size %u is not supported (allowed: 32, 64)", cfg->wave);
  const char *why = rf_pick_block_pow2(cfg, 256, cfg->wave, 1024, 1);
  if (why) return why;
  cfg->items = 0;
  if (cfg->grid == 0) {
    uint64_t g = rf_div_ceil(cfg->n / 2 + 1, cfg->block), cap = 8ull * (cfg->num_cus ? cfg->num_cus : 1);
    cfg->grid = (uint32_t)(g < cap ? g : cap);
  } else if (cfg->grid > 65535) {
    return rf_reason("grid %u is not supported (allowed: 1..65535)", cfg->grid);
  }
  return NULL;
}

/* The float total the blocks add into. */
static size_t half_sum_scratch(const rf_launch_cfg *cfg) { (void)cfg; return sizeof(float); }

/* A thread's chain: two adds a pair it loads, plus the head and the tail (thread 0); then the
 * wave's tree, the tree over the waves' sums, one atomic a block. The final rounding to __half
 * is the output type's (out_dtype f16), which the bound adds itself. */
static void half_sum_plan(const rf_launch_cfg *cfg, rf_plan *p) {
  *p = rf_plan();
  if (!cfg->n) return;
  const uint64_t threads = (uint64_t)cfg->grid * cfg->block;
  rf_plan_add(p, RF_LEVEL_CHAIN, 2 * rf_div_ceil(cfg->n / 2, threads) + 2);
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->wave));
  rf_plan_add(p, RF_LEVEL_WAVE, rf_ceil_log2(cfg->block / cfg->wave));
  rf_plan_add(p, RF_LEVEL_ATOMIC, cfg->grid);
}

static int half_sum_launch(const rf_launch_args *a) {
  hipStream_t stream = (hipStream_t)a->stream;
  float *total = (float *)a->scratch;
  int err = (int)hipMemsetAsync(total, 0, sizeof(float), stream);
  if (err) return err;
  if (a->cfg.n) {
    half_sum_kernel<<<a->cfg.grid, a->cfg.block, 0, stream>>>((const __half *)a->x, a->cfg.n, total);
    if ((err = (int)hipGetLastError())) return err;
  }
  half_sum_finish<<<1, 1, 0, stream>>>(total, (__half *)a->out);
  return (int)hipGetLastError();
}

static const rf_variant half_sum = {
    "sum/plain-half-sum", RF_OP_SUM, 0, 0,
    "plain HIP: __half2 loads after a scalar head, float sums, __shared__ partials, one "
    "atomicAdd a block, __float2half once",
    "wave 32 or 64; block power of two, wave..1024; grid <= 65535", half_sum_configure,
    half_sum_scratch, half_sum_plan, half_sum_launch, 0, RF_DTYPE_F16, RF_DTYPE_F16};
static const rf_variant *const variants[] = {&half_sum};

extern "C" int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }
extern "C" const rf_variant *const *rf_plugin_variants(size_t *count) {
  *count = sizeof variants / sizeof variants[0];
  return variants;
}
#endif

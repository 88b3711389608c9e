/* The device input generator: element i of the case's input is rf_gen_elem(params, i), the
 * same pure function rf_generate runs on the host (model/gen_elem.h), so the bits agree on
 * every backend (tests/kernels/test_gen_device_sim.cpp). */
#include "../port.h"
#include "gen_device.h"
#include "launch_count.h"
#include "model/gen_elem.h"
#include "model/dtype_bits.h"

#define RF_GEN_BLOCK 256u
#define RF_GEN_MAX_GRID 4096u /* grid-stride beyond: enough blocks to fill any current GPU */

/* Launched at RF_GEN_BLOCK threads, but bounded for 1024 as every kernel is
 * (scripts/check-launch-resources.sh): the markers distribution's element function took the
 * unbounded kernels to 72 registers on sm_90, more than a 1024-thread block can have. */
__global__ void __launch_bounds__(1024) rf_gen_kernel(rf_gen_params p, float *__restrict__ out) {
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < p.total; i += stride)
    out[i] = rf_gen_elem(&p, i);
}

/* The 16-bit types: each value is exact in the type, so its encoding is too. */
__global__ void __launch_bounds__(1024) rf_gen_half_kernel(rf_gen_params p,
                                                           uint16_t *__restrict__ out) {
  const uint64_t stride = (uint64_t)gridDim.x * blockDim.x;
  for (uint64_t i = (uint64_t)blockIdx.x * blockDim.x + threadIdx.x; i < p.total; i += stride)
    out[i] = rf_f32_to_half(p.dtype, rf_gen_elem(&p, i));
}

extern "C" int rf_gen_launch(const rf_case *c, void *dev_out, void *stream) {
  const int softmax = rf_op_has_rows(c->op);
  const uint64_t total = softmax ? (uint64_t)c->rows * c->cols : c->n;
  if (total == 0) return 0;
  rf_gen_params p = rf_gen_params_make(c->seed, (uint32_t)c->dist, (uint32_t)softmax,
                                       softmax ? c->cols : total, total);
  p.dtype = (uint32_t)c->dtype;
  const uint64_t blocks = (total + RF_GEN_BLOCK - 1) / RF_GEN_BLOCK;
  const unsigned grid = blocks < RF_GEN_MAX_GRID ? (unsigned)blocks : RF_GEN_MAX_GRID;
  if (p.dtype != 0)
    hipLaunchKernelGGL(rf_gen_half_kernel, dim3(grid), dim3(RF_GEN_BLOCK), 0,
                       (hipStream_t)stream, p, (uint16_t *)dev_out);
  else
    hipLaunchKernelGGL(rf_gen_kernel, dim3(grid), dim3(RF_GEN_BLOCK), 0, (hipStream_t)stream, p,
                       (float *)dev_out);
  rf_launch_count_add(1);   /* one of the two */
  return (int)hipGetLastError();
}

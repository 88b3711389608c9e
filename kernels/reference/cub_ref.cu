/* The CUB reference on the cuda backend (cub_ref.h): cub::DeviceReduce from the CUDA
 * toolkit's CCCL. */
#include <climits>
#include <cub/device/device_reduce.cuh>
#include "cub_ref.h"

extern "C" int rf_cub_available(void) { return 1; }

extern "C" const char *rf_cub_name(rf_op op) {
  switch (op) {
  case RF_OP_SUM: return "cub::DeviceReduce::Sum";
  case RF_OP_MAX: return "cub::DeviceReduce::Max";
  case RF_OP_ARGMAX: return "cub::DeviceReduce::ArgMax";
  default: return NULL;
  }
}

/* Sum and Max take the count's type as a template parameter and pick 32- or 64-bit offsets
 * from its size: pass an int where n fits so CUB runs its usual 32-bit-offset kernels. */
template <typename Count>
static cudaError_t sum_or_max(rf_op op, void *tmp, size_t &tmp_bytes, const float *x,
                              float *out, Count n) {
  if (op == RF_OP_SUM) return cub::DeviceReduce::Sum(tmp, tmp_bytes, x, out, n, 0);
  return cub::DeviceReduce::Max(tmp, tmp_bytes, x, out, n, 0);
}

extern "C" int rf_cub_reduce(rf_op op, void *tmp, size_t *tmp_bytes, const float *x, void *out,
                             uint64_t n) {
  cudaError_t e;
  if (op == RF_OP_SUM || op == RF_OP_MAX) {
    float *o = static_cast<float *>(out);
    e = n <= (uint64_t)INT_MAX ? sum_or_max(op, tmp, *tmp_bytes, x, o, (int)n)
                               : sum_or_max(op, tmp, *tmp_bytes, x, o, (int64_t)n);
  } else if (op == RF_OP_ARGMAX) {
    /* CUDA 13's ArgMax writes the extremum and its index through two separate iterators
     * (the KeyValuePair overload is deprecated); the index lands in rf_argmax_out's int32. */
    rf_argmax_out *o = static_cast<rf_argmax_out *>(out);
    e = cub::DeviceReduce::ArgMax(tmp, *tmp_bytes, x, &o->value, &o->index,
                                  (::cuda::std::int64_t)n, 0);
  } else {
    return -1;
  }
  return (int)e;
}

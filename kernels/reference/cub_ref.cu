/* The CUB reference on the cuda backend (cub_ref.h): cub::DeviceReduce from the CUDA
 * toolkit's CCCL, one row per op that CUB has (the op table's CUB column: an op CUB lacks,
 * the row ops, has no row). */
#include <climits>
#include <cub/device/device_reduce.cuh>
#include "cub_ref.h"

extern "C" int rf_cub_available(void) { return 1; }

/* How a row calls CUB: a float reduction into one float, or an arg reduction into the
 * (value, index) pair of rf_argmax_out. */
enum cub_kind { CUB_SUM, CUB_MAX, CUB_MIN, CUB_ARGMAX, CUB_ARGMIN };
struct cub_row {
  rf_op op;
  const char *name;
  cub_kind kind;
};
static const cub_row cub_rows[] = {
    {RF_OP_SUM, "cub::DeviceReduce::Sum", CUB_SUM},
    {RF_OP_MAX, "cub::DeviceReduce::Max", CUB_MAX},
    {RF_OP_ARGMAX, "cub::DeviceReduce::ArgMax", CUB_ARGMAX},
    {RF_OP_MIN, "cub::DeviceReduce::Min", CUB_MIN},
    {RF_OP_ARGMIN, "cub::DeviceReduce::ArgMin", CUB_ARGMIN},
};

static const cub_row *cub_row_of(rf_op op) {
  for (const cub_row &r : cub_rows)
    if (r.op == op) return &r;
  return nullptr;
}

extern "C" const char *rf_cub_name(rf_op op) {
  const cub_row *r = cub_row_of(op);
  return r ? r->name : nullptr;
}

/* Sum and Max take the count's type as a template parameter and pick 32- or 64-bit offsets
 * from its size: pass an int where n fits so CUB runs its usual 32-bit-offset kernels. */
template <typename Count>
static cudaError_t reduce_float(cub_kind kind, void *tmp, size_t &tmp_bytes, const float *x,
                                float *out, Count n) {
  switch (kind) {
  case CUB_SUM: return cub::DeviceReduce::Sum(tmp, tmp_bytes, x, out, n, 0);
  case CUB_MIN: return cub::DeviceReduce::Min(tmp, tmp_bytes, x, out, n, 0);
  default: return cub::DeviceReduce::Max(tmp, tmp_bytes, x, out, n, 0);
  }
}

/* CUDA 13's ArgMax and ArgMin write the extremum and its index through two separate
 * iterators (the KeyValuePair overloads are deprecated); the index lands in rf_argmax_out's
 * int32. */
static cudaError_t reduce_arg(cub_kind kind, void *tmp, size_t &tmp_bytes, const float *x,
                              rf_argmax_out *o, uint64_t n) {
  if (kind == CUB_ARGMIN)
    return cub::DeviceReduce::ArgMin(tmp, tmp_bytes, x, &o->value, &o->index,
                                     (::cuda::std::int64_t)n, 0);
  return cub::DeviceReduce::ArgMax(tmp, tmp_bytes, x, &o->value, &o->index,
                                   (::cuda::std::int64_t)n, 0);
}

extern "C" int rf_cub_reduce(rf_op op, void *tmp, size_t *tmp_bytes, const float *x, void *out,
                             uint64_t n) {
  const cub_row *r = cub_row_of(op);
  if (!r) return -1;
  if (r->kind == CUB_ARGMAX || r->kind == CUB_ARGMIN)
    return (int)reduce_arg(r->kind, tmp, *tmp_bytes, x, static_cast<rf_argmax_out *>(out), n);
  float *o = static_cast<float *>(out);
  return (int)(n <= (uint64_t)INT_MAX ? reduce_float(r->kind, tmp, *tmp_bytes, x, o, (int)n)
                                      : reduce_float(r->kind, tmp, *tmp_bytes, x, o, (int64_t)n));
}

/* The fold of per-row judge records into one summary a variant (row_summary.h). A block a
 * variant: each thread scans its rows in order, then an LDS tree keeps the best candidate
 * (larger ratio, the lower row among equals: the order of a one-pass scan) and the first
 * bad row; thread 0 combines that with the summary of the rows before the chunk. */
#include "../port.h"
#include "row_summary.h"
#include "launch_count.h"

#define RF_RS_BLOCK 256u

/* Is candidate (ra, a) ahead of (rb, b) in the scan's order? RF_RS_NONE is no candidate. */
static __device__ __forceinline__ int rfrs_ahead(double ra, unsigned a, double rb, unsigned b) {
  if (a == RF_RS_NONE) return 0;
  if (b == RF_RS_NONE) return 1;
  return ra > rb || (ra == rb && a < b);
}

__global__ void __launch_bounds__(RF_RS_BLOCK)
rf_rs_fold_kernel(const rf_smd_rec *__restrict__ recs, unsigned rows, unsigned row0,
                  rf_rs_summary *__restrict__ sums) {
  RF_SHARED(double, sr, RF_RS_BLOCK);
  RF_SHARED(unsigned, sw, RF_RS_BLOCK);
  RF_SHARED(unsigned, sb, RF_RS_BLOCK);
  const unsigned t = threadIdx.x;
  const rf_smd_rec *__restrict__ rr = recs + (size_t)blockIdx.x * rows;
  double best = 0;
  unsigned worst = RF_RS_NONE, bad = RF_RS_NONE;
  for (unsigned i = t; i < rows; i += blockDim.x) {
    const double q = rr[i].ratio;
    if (bad == RF_RS_NONE && rr[i].verdict != RF_SMD_PASS) bad = i;
    /* above the scan's start of -1; false for a NaN ratio, as the host's comparison is */
    if (q > -1.0 && (worst == RF_RS_NONE || q > best)) {
      best = q;
      worst = i;
    }
  }
  sr[t] = best;
  sw[t] = worst;
  sb[t] = bad;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) {
      if (rfrs_ahead(sr[t + s], sw[t + s], sr[t], sw[t])) {
        sr[t] = sr[t + s];
        sw[t] = sw[t + s];
      }
      if (sb[t + s] < sb[t]) sb[t] = sb[t + s];
    }
    __syncthreads();
  }
  if (t != 0) return;
  rf_rs_summary o = {};
  if (row0 == 0) o.worst_row = o.bad_row = RF_RS_NONE;
  else o = sums[blockIdx.x];
  if (o.bad_row == RF_RS_NONE && sb[0] != RF_RS_NONE) {
    o.bad_row = row0 + sb[0];
    o.bad_verdict = rr[sb[0]].verdict;
  }
  /* rows of this chunk come after the summary's: a later row wins only by a larger ratio */
  if (sw[0] != RF_RS_NONE && (o.worst_row == RF_RS_NONE || sr[0] > o.worst.ratio)) {
    o.worst = rr[sw[0]];
    o.worst_row = row0 + sw[0];
  }
  sums[blockIdx.x] = o;
}

#if !defined(__HIP_DEVICE_COMPILE__)
extern "C" int rf_rs_fold_launch(const rf_smd_rec *recs, uint32_t nv, uint32_t rows,
                                 uint32_t row0, rf_rs_summary *sums, void *stream) {
  if (nv == 0) return 0;
  hipLaunchKernelGGL(rf_rs_fold_kernel, dim3(nv), dim3(RF_RS_BLOCK), 0, (hipStream_t)stream,
                     recs, rows, row0, sums);
  rf_launch_count_add(1);
  return (int)hipGetLastError();
}
#endif

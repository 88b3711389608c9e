/* The softmax oracle and judge on the device (softmax_device.h): one block per row, the
 * formulas of oracle/softmax_row_math.h, block reductions in LDS. Written apart from the
 * softmax variants (nothing shared but port.h and model/dtype_bits.h, the model's exact 16-bit
 * conversions). Summation order differs from the host's left-to-right loop; every bound used
 * holds for any order (a sum of C nonnegative terms in any order is within γ_{C-1}: each term
 * meets at most C - 1 additions), so the verdicts are the host's, the reported figures may
 * differ in their last bits. Inputs and outputs may be f16 or bf16, read exactly (rfs_load),
 * a 16-bit output's bound widened (softmax_device.h). */
#include "port.h"
#include "softmax_device.h"
#include "oracle/softmax_row_math.h"
#include "model/dtype_bits.h"
#include "launch_count.h"
#include <string.h>

#define RFS_BLOCK 256u
#define RFS_MAX_GRID 1024u

/* Sum (op 0) or maximum (op 1) of v over the block; every thread gets it. */
static __device__ double rfs_reduce(double *buf, double v, int op) {
  const unsigned t = threadIdx.x;
  buf[t] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) buf[t] = op ? (buf[t + s] > buf[t] ? buf[t + s] : buf[t]) : buf[t] + buf[t + s];
    __syncthreads();
  }
  const double r = buf[0];
  __syncthreads();
  return r;
}

/* Element i of a row in type dt (rf_dtype: 0 f32, 1 f16, 2 bf16), as the float it is: the
 * host judges a 16-bit input or output through the same exact conversion (model/dtype.h's
 * rf_dtype_load is model/dtype_bits.h's rf_db_load). dt is uniform across the grid. */
static __device__ __forceinline__ float rfs_load(const void *__restrict__ p, size_t i, unsigned dt) {
  return rf_db_load(p, i, dt);
}

static __device__ __forceinline__ int rfs_finite_f(float v) {
  return (__float_as_uint(v) & 0x7f800000u) != 0x7f800000u;
}

/* Launched with RFS_BLOCK threads, bounded for 1024 like every kernel
 * (scripts/check-launch-resources.sh): with the special-row rules it took 66 registers. */
__global__ void __launch_bounds__(1024)
rf_smd_oracle_kernel(const void *__restrict__ x, unsigned dt, unsigned rows, unsigned cols,
                     double *__restrict__ y, rf_smd_row *__restrict__ info) {
  RF_SHARED(double, buf, RFS_BLOCK);
  const unsigned t = threadIdx.x;
  for (unsigned row = blockIdx.x; row < rows; row += gridDim.x) {
    const size_t x0 = (size_t)row * cols;
    double *yr = y + (size_t)row * cols;
    const float first = rfs_load(x, x0, dt);
    /* The maximum, and whether the row is finite and constant (softmax_double.c). */
    /* NaN and +inf poison the row; -inf elements are deep ones (softmax_special.h). */
    float m = -1.0f / 0.0f;
    double poisoned = 0, uneq = 0;
    for (unsigned j = t; j < cols; j += blockDim.x) {
      const float v = rfs_load(x, x0 + j, dt);
      poisoned = rf_smr_poisons(v) ? 1 : poisoned;
      uneq = v == first ? uneq : 1;
      m = v > m ? v : m;
    }
    poisoned = rfs_reduce(buf, poisoned, 1);
    uneq = rfs_reduce(buf, uneq, 1);
    m = (float)rfs_reduce(buf, (double)m, 1);   /* exact: a float as a double */
    rf_smd_row r = {0, 0, 0, 0, m, 0, RF_SMD_NORMAL, 0};
    if (rf_smr_row_is_nan(poisoned != 0, m)) {
      if (t == 0) { r.kind = RF_SMD_NAN_ROW; r.rel = -1; info[row] = r; }
      continue;
    }
    if (uneq == 0 && cols > (1u << 24)) {
      if (t == 0) { r.kind = RF_SMD_REFUSED; r.rel = -1; info[row] = r; }
      continue;
    }
    if (uneq == 0) {   /* step 5: y = RN(1/C), rel 2^-53 */
      const double q = 1.0 / (double)cols;
      for (unsigned j = t; j < cols; j += blockDim.x) yr[j] = q;
      if (t == 0) { r.kind = RF_SMD_CONSTANT; r.rel = 0x1p-53; info[row] = r; }
      continue;
    }
    /* Steps 1-4: exps, their sum, the largest |d| that is not deep, then y = e / S. */
    const double md = m;
    double s = 0, dmax = 0;
    for (unsigned j = t; j < cols; j += blockDim.x) {
      const double d = (double)rfs_load(x, x0 + j, dt) - md;
      double e = 0;
      if (d >= RF_SMR_DEEP_D) {
        e = exp(d);
        dmax = -d > dmax ? -d : dmax;
      }
      yr[j] = e;
      s += e;
    }
    s = rfs_reduce(buf, s, 0);
    dmax = rfs_reduce(buf, dmax, 1);
    r.rel = rf_smr_oracle_rel(cols, dmax);
    if (r.rel < 0) {
      if (t == 0) { r.kind = RF_SMD_REFUSED; info[row] = r; }
      continue;
    }
    /* The bound's pass 1 (bounds.c) on the y just made: D_j, deep elements, Σ y_j D_j. */
    double span = 0, dm = 0, yd = 0, deep = 0;
    for (unsigned j = t; j < cols; j += blockDim.x) {
      const double yj = yr[j] / s;
      yr[j] = yj;
      const float xj = rfs_load(x, x0 + j, dt);
      const double dd = (double)m - (double)xj;
      span = dd > span ? dd : span;
      const double D = rf_smr_D(m, xj);
      if (D < 0) {
        deep += 1;
      } else {
        dm = D > dm ? D : dm;
        yd += yj * D;
      }
    }
    r.span = rfs_reduce(buf, span, 1);
    r.D_max = rfs_reduce(buf, dm, 1);
    r.yd_s = rfs_reduce(buf, yd, 0);
    r.n_deep = (uint32_t)rfs_reduce(buf, deep, 0);   /* exact: counts below 2^53 */
    if (t == 0) info[row] = r;
  }
}

/* The worst element of a thread's share and of the block: larger ratio, then lower column. */
static __device__ __forceinline__ int rfs_worse(double q, unsigned j, double bq, unsigned bj) {
  return q > bq || (q == bq && j < bj);
}

/* Launched with RFS_BLOCK threads, but bounded for 1024 like every kernel
 * (scripts/check-launch-resources.sh): unbounded, nvcc gave it 138 registers a thread. */
__global__ void __launch_bounds__(1024) rf_smd_judge_kernel(const void *__restrict__ x,
                                    const double *__restrict__ y,
                                    const rf_smd_row *__restrict__ info, unsigned rows,
                                    unsigned cols, rf_smd_variants vs, unsigned plant,
                                    rf_smd_rec *__restrict__ recs) {
  /* blockIdx.y: the variant (softmax_device.h): its output, bound parameters and types, and
   * its rows' records; everything below is one variant's judge, as when each had a launch. */
  const rf_smd_variant &jv = vs.v[blockIdx.y];
  const void *__restrict__ got = jv.got;
  const rf_smr_params &p = jv.p;
  const rf_smd_io &io = jv.io;
  rf_smd_rec *__restrict__ out = recs + (size_t)blockIdx.y * rows;
  RF_SHARED(double, buf, RFS_BLOCK);
  RF_SHARED(double, wq, RFS_BLOCK);
  RF_SHARED(unsigned, wj, RFS_BLOCK);
  const unsigned t = threadIdx.x;
  /* A 16-bit output: every bound widened by its final rounding as bounds.c's
   * rf_bound_softmax_output widens it (rf_smr_out_*), under the same condition (u_t != 0); a
   * float32 output is left as it is. */
  const int wide = io.out_ut != 0;
  const double ut = io.out_ut, eta = io.out_eta;
  for (unsigned row = blockIdx.x; row < rows; row += gridDim.x) {
    const rf_smd_row r = info[row];
    const size_t r0 = (size_t)row * cols;
    rf_smd_rec rec = {0, 0, 0, 0, 0, 0, RF_SMD_UNDECIDED, 0};
    if (r.kind == RF_SMD_REFUSED) {
      if (t == 0) out[row] = rec;
      continue;
    }
    if (r.kind == RF_SMD_NAN_ROW) {   /* every output NaN, or the row is wrong */
      double wrong = 0;
      for (unsigned j = t; j < cols; j += blockDim.x)
        wrong = rf_smr_nan_row_ok(rfs_load(got, r0 + j, io.out_dtype)) ? wrong : 1;
      wrong = rfs_reduce(buf, wrong, 1);
      if (t == 0) {
        const double nan = 0.0 / 0.0;
        rec.bound = nan;
        rec.want = nan;
        rec.got = rfs_load(got, r0, io.out_dtype);
        rec.verdict = wrong != 0 && !plant ? RF_SMD_WRONG : RF_SMD_PASS;
        out[row] = rec;
      }
      continue;
    }
    /* The row's bound (bounds.c): constant rows against RN(1/C) as exact (bound_constant_row,
     * the oracle's y within 2^-53), the others through the shared per-row constants. */
    rf_smr_consts k = {0, 0, 0, 0, 0, 0, 0, 0};
    double rel_c = 0;
    int useless = 0;
    if (r.kind == RF_SMD_CONSTANT) {
      const float q = 1.0f / (float)cols;
      const double rel_true = rf_smr_abs((double)q * cols - 1.0);   /* exact */
      rel_c = rf_smr_fold_rel(0x1p-53, dn_one_minus(0x1p-53), rel_true);
      k.row_sum_bound = rel_true;
      if (wide) rel_c = rf_smr_out_rel(rel_c, ut);
    } else {
      const rf_smr_facts f = {cols, r.n_deep, r.span, r.D_max, r.yd_s};
      useless = rf_smr_consts_make(&p, &f, r.rel, RF_SMR_ABS, &k) != 0;
    }
    if (useless) {
      if (t == 0) out[row] = rec;
      continue;
    }
    if (wide) {   /* a constant row's abs_floor and abs_kernel are 0 before the widening */
      k.abs_floor = rf_smr_out_abs(k.abs_floor, ut, eta);
      k.abs_kernel = rf_smr_out_abs(k.abs_kernel, ut, eta);
      k.row_sum_bound = rf_smr_out_row_sum(k.row_sum_bound, ut, eta, cols);
    }
    const double *yr = y + r0;
    double wrong = 0, nonfinite = 0, unsure = 0, sum = 0, asum = 0, not_q = 0;
    const float q_c = 1.0f / (float)cols;   /* constant rows: RN(1/C), the only right output */
    double bq = -1, berr = 0, bbound = 0, bwant = 0;
    float bgot = 0;
    unsigned bj = 0xffffffffu;
    for (unsigned j = t; j < cols; j += blockDim.x) {
      const float g = rfs_load(got, r0 + j, io.out_dtype);
      const double yv = yr[j];
      double rel, rel_k = 0;
      if (r.kind == RF_SMD_CONSTANT) {
        rel = rel_c;
      } else {
        const double D = rf_smr_D(r.m, rfs_load(x, r0 + j, io.x_dtype));
        rel_k = D >= 0 ? up_mul_add_pos(k.kappa, D, k.beta1) : 0;
        rel = D >= 0 ? up_mul_add_pos(k.kappa_f, D, k.beta_f) : k.rel_deep;
        if (wide) {
          rel_k = rf_smr_out_rel(rel_k, ut);
          rel = rf_smr_out_rel(rel, ut);
        }
      }
      double err;
      if (!rfs_finite_f(g)) {
        nonfinite = 1;
        err = 1.0 / 0.0;
      } else {
        err = rf_smr_abs((double)g - yv);
        sum += g;
        asum += rf_smr_abs(g);
        if (r.kind == RF_SMD_CONSTANT) {
          if (!rf_smr_within(rel_c, k.abs_floor, g, yv)) wrong = 1;
          if (g != q_c) not_q = 1;
        } else {
          const int c = rf_smr_check(rel_k, k.abs_kernel, r.rel, RF_SMR_ABS, g, yv);
          if (c == RF_SMR_UNSURE) unsure = 1;
          else if (c == RF_SMR_FAIL) wrong = 1;
        }
      }
      /* The worst element as the host judge picks it (err / allowed, the first among equals). */
      const double allowed = rel * yv + k.abs_floor;
      const double q = err == 0 ? 0 : allowed == 0 ? 1.0 / 0.0 : err / allowed;
      if (rfs_worse(q, j, bq, bj)) {
        bq = q; bj = j; berr = err; bbound = allowed; bwant = yv; bgot = g;
      }
    }
    wrong = rfs_reduce(buf, wrong, 1);
    nonfinite = rfs_reduce(buf, nonfinite, 1);
    unsure = rfs_reduce(buf, unsure, 1);
    sum = rfs_reduce(buf, sum, 0);
    asum = rfs_reduce(buf, asum, 0);
    not_q = rfs_reduce(buf, not_q, 1);
    /* The worst element of the block: a tree over (ratio, column). */
    wq[t] = bq;
    wj[t] = bj;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (t < s && rfs_worse(wq[t + s], wj[t + s], wq[t], wj[t])) {
        wq[t] = wq[t + s];
        wj[t] = wj[t + s];
      }
      __syncthreads();
    }
    const unsigned worst = wj[0];
    __syncthreads();
    if (worst == bj && bj != 0xffffffffu) {   /* the thread that holds it writes the record */
      rec.ratio = bq; rec.err = berr; rec.bound = bbound; rec.want = bwant; rec.got = bgot;
      rec.col = bj;
      /* The row sum (run/judge.c, row_sum_surely_within): decided here only when surely within
       * its bound; otherwise the host sums exactly. A constant row with a float32 output whose
       * every element is RN(1/C) sums to C RN(1/C) exactly (48 bits), which is its bound:
       * within. A 16-bit output's constant row has no such shortcut (its elements are RN_t of
       * the kernel's value, the bound widened): the surely-within test, as any row. */
      const double serr = 1.01 * (double)cols * 0x1p-53 * asum;
      const int sum_ok = r.kind == RF_SMD_CONSTANT && !wide
                         ? not_q == 0
                         : (rf_smr_abs(sum - 1.0) + serr) * (1 + 0x1p-40) < k.row_sum_bound;
      rec.verdict = nonfinite != 0 ? RF_SMD_NONFINITE : wrong != 0 ? RF_SMD_WRONG
                  : unsure != 0 || !sum_ok ? RF_SMD_UNDECIDED : RF_SMD_PASS;
      if (plant && rec.verdict != RF_SMD_UNDECIDED) rec.verdict = RF_SMD_PASS;
      out[row] = rec;
    }
  }
}

#if !defined(__HIP_DEVICE_COMPILE__)
static unsigned rfs_grid(uint32_t rows) { return rows < RFS_MAX_GRID ? rows : RFS_MAX_GRID; }

extern "C" int rf_smd_oracle_launch(const void *x, uint32_t x_dtype, uint32_t rows, uint32_t cols,
                                    double *y, rf_smd_row *info, void *stream) {
  if (rows == 0 || cols == 0) return 0;
  if (x_dtype > 2u) return 1;
  hipLaunchKernelGGL(rf_smd_oracle_kernel, dim3(rfs_grid(rows)), dim3(RFS_BLOCK), 0,
                     (hipStream_t)stream, x, (unsigned)x_dtype, rows, cols, y, info);
  rf_launch_count_add(1);
  return (int)hipGetLastError();
}

extern "C" int rf_smd_judge_launch(const void *x, const rf_smd_variant *vs, uint32_t nv,
                                   const double *y, const rf_smd_row *info, uint32_t rows,
                                   uint32_t cols, uint32_t plant, rf_smd_rec *out, void *stream) {
  if (rows == 0 || cols == 0 || nv == 0) return 0;
  for (uint32_t k = 0; k < nv; k++)
    if (vs[k].io.x_dtype > 2u || vs[k].io.out_dtype > 2u) return 1;
  rf_smd_variants chunk;
  for (uint32_t k0 = 0; k0 < nv; k0 += RF_SMD_MAX_VARIANTS) {
    const uint32_t m = nv - k0 < RF_SMD_MAX_VARIANTS ? nv - k0 : RF_SMD_MAX_VARIANTS;
    memset(&chunk, 0, sizeof chunk);
    memcpy(chunk.v, vs + k0, m * sizeof *vs);
    hipLaunchKernelGGL(rf_smd_judge_kernel, dim3(rfs_grid(rows), m), dim3(RFS_BLOCK), 0,
                       (hipStream_t)stream, x, y, info, rows, cols, chunk, plant,
                       out + (size_t)k0 * rows);
    rf_launch_count_add(1);
    const int e = (int)hipGetLastError();
    if (e) return e;
  }
  return 0;
}
#endif

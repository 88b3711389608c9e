/* The log ops' oracle and judge on the device (log_device.h): one block per row, the formulas
 * of oracle/log_row_math.h, block reductions in LDS. Inputs and outputs in f32, f16 or bf16,
 * read exactly (model/dtype_bits.h's rf_db_load, the host's rf_dtype_load). Written apart from the log variants
 * (kernels/logsumexp.hip: nothing shared but port.h). Summation order differs from the host's
 * left-to-right loop; every bound used holds for any order (a sum of C nonnegative terms in
 * any order is within γ_{C-1}, the products' sum within γ_C: each term meets at most C - 1
 * additions), so the verdicts are the host's, the reported figures may differ in their last
 * bits. */
#include "port.h"
#include "log_device.h"
#include "oracle/log_row_math.h"
#include "oracle/log_special.h"
#include "model/dtype_bits.h"
#include "launch_count.h"
#include <string.h>

#define RFL_BLOCK 256u
#define RFL_MAX_GRID 1024u

/* Sum (op 0) or maximum (op 1) of v over the block; every thread gets it. */
static __device__ double rfl_reduce(double *buf, double v, int op) {
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

/* Launched with RFL_BLOCK threads, bounded for 1024 like every kernel
 * (scripts/check-launch-resources.sh). */
__global__ void __launch_bounds__(1024)
rf_lgd_oracle_kernel(const void *__restrict__ x, unsigned xt, unsigned rows, unsigned cols,
                     rf_lgd_row *__restrict__ info) {
  RF_SHARED(double, buf, RFL_BLOCK);
  const unsigned t = threadIdx.x;
  for (unsigned row = blockIdx.x; row < rows; row += gridDim.x) {
    const size_t x0 = (size_t)row * cols;
    /* The scan of rf_row_scan_of: the maximum, NaN or +inf, the finite count. */
    float m = -1.0f / 0.0f;
    double has_nan = 0, has_pinf = 0, n_finite = 0;
    for (unsigned j = t; j < cols; j += blockDim.x) {
      const float v = rf_db_load(x, x0 + j, xt);
      has_nan = v != v ? 1 : has_nan;
      has_pinf = v == 1.0f / 0.0f ? 1 : has_pinf;
      n_finite += v - v == 0;
      m = v > m ? v : m;
    }
    has_nan = rfl_reduce(buf, has_nan, 1);
    has_pinf = rfl_reduce(buf, has_pinf, 1);
    n_finite = rfl_reduce(buf, n_finite, 0);   /* exact: counts below 2^53 */
    m = (float)rfl_reduce(buf, (double)m, 1);  /* exact: a float as a double */
    rf_lgd_row r;
    r.row.lse = r.row.log_s = r.row.wd = 0;
    r.row.m = m;
    r.mg.err_L = r.mg.wd_lo = r.mg.wd_hi = 0;
    r.span = 0;
    r.kind = RF_LGD_NORMAL;
    r.pad = 0;
    if (rf_lsp_row_is_special(has_nan != 0 || has_pinf != 0, m)) {
      /* log_special.h's want, the host MPFR oracle's row bit for bit (lse; log_s, wd 0; m the
       * maximum, +inf with a +inf: the host's m over the rest is then never read) */
      if (t == 0) {
        r.row.lse = rf_lsp_lse(has_nan != 0, has_pinf != 0);
        r.kind = RF_LGD_SPECIAL;
        info[row] = r;
      }
      continue;
    }
    if (n_finite == 1) {   /* exact: the MPFR row itself (logsumexp_double.c, exact_row) */
      if (t == 0) { rf_lsr_exact_row(m, &r.row, &r.mg); r.kind = RF_LGD_EXACT; info[row] = r; }
      continue;
    }
    /* rf_expsum_double: s, ds and dmax, and the span of rf_bound_lse_row. */
    const double md = m;
    double s = 0, ds = 0, dmax = 0, span = 0;
    for (unsigned j = t; j < cols; j += blockDim.x) {
      const float xv = rf_db_load(x, x0 + j, xt);
      const double d = (double)xv - md;
      if (d >= RF_SMR_DEEP_D) {   /* false for -inf entries */
        const double e = exp(d);
        dmax = -d > dmax ? -d : dmax;
        ds += e * -d;
        s += e;
      }
      if (xv != -1.0f / 0.0f) span = -d > span ? -d : span;
    }
    s = rfl_reduce(buf, s, 0);
    ds = rfl_reduce(buf, ds, 0);
    dmax = rfl_reduce(buf, dmax, 1);
    r.span = rfl_reduce(buf, span, 1);
    if (t == 0) {
      const double Lh = log(s);
      if (rf_lsr_margin_make(cols, dmax, s, ds, Lh, &r.mg)) {
        r.kind = RF_LGD_REFUSED;
      } else {
        r.row.log_s = Lh;
        r.row.lse = md + Lh;
        r.row.wd = r.mg.wd_hi;
      }
      info[row] = r;
    }
  }
}

/* The worst output of a thread's share and of the block: larger ratio, then lower column. */
static __device__ __forceinline__ int rfl_worse(double q, unsigned j, double bq, unsigned bj) {
  return q > bq || (q == bq && j < bj);
}

/* Launched with RFL_BLOCK threads, bounded for 1024 like every kernel. */
__global__ void __launch_bounds__(1024)
rf_lgd_judge_kernel(const void *__restrict__ x, unsigned xt, rf_lgd_variants vs,
                    const rf_lgd_row *__restrict__ info, unsigned rows, unsigned cols,
                    int is_lse, unsigned plant, rf_lgd_rec *__restrict__ recs) {
  /* blockIdx.y: the variant (log_device.h): its output and type, bound parameters and its
   * rows' records; everything below is one variant's judge, as when each had a launch. */
  const rf_lgd_variant &jv = vs.v[blockIdx.y];
  const void *__restrict__ got = jv.got;
  const unsigned ot = jv.out_dtype;
  const rf_lsr_params &p = jv.p;
  rf_lgd_rec *__restrict__ out = recs + (size_t)blockIdx.y * rows;
  RF_SHARED(double, buf, RFL_BLOCK);
  RF_SHARED(double, wq, RFL_BLOCK);
  RF_SHARED(unsigned, wj, RFL_BLOCK);
  const unsigned t = threadIdx.x;
  const unsigned n = is_lse ? 1u : cols;   /* outputs of a row */
  for (unsigned row = blockIdx.x; row < rows; row += gridDim.x) {
    const rf_lgd_row r = info[row];
    rf_lgd_rec rec = {0, 0, 0, 0, 0, 0, RF_LGD_UNDECIDED, 0};
    if (r.kind == RF_LGD_REFUSED) {
      if (t == 0) out[row] = rec;
      continue;
    }
    /* The bounds (judge_log.c, judge_row): an exact or special row's own (a special row's
     * are 0: rf_lsr_bound_row gives no bound around a NaN or infinite lse, as on the host);
     * a double row's at its lowest and highest MPFR rows. */
    const int exact = r.kind == RF_LGD_EXACT || r.kind == RF_LGD_SPECIAL;
    rf_lse_bound b_lo, b_hi;
    if (exact) {
      rf_lsr_bound_row(&p, r.span, cols, &r.row, &b_hi);
      b_lo = b_hi;
    } else {
      rf_lse_row lo, hi;
      rf_lsr_double_rows(&r.row, &r.mg, &lo, &hi);
      rf_lsr_bound_row(&p, r.span, cols, &lo, &b_lo);
      rf_lsr_bound_row(&p, r.span, cols, &hi, &b_hi);
    }
    const size_t x0 = (size_t)row * cols, g0 = is_lse ? row : x0;
    const double md = r.row.m;
    double wrong = 0, nonfinite = 0, unsure = 0;
    double bq = -1, berr = 0, bbound = 0, bwant = 0;
    float bgot = 0;
    unsigned bj = 0xffffffffu;
    for (unsigned j = t; j < n; j += blockDim.x) {
      const float g = rf_db_load(got, g0 + j, ot);
      /* the host oracle's want: lse, a special row's NaN outputs, or y_j as the host forms it */
      const double v = is_lse ? r.row.lse : r.kind == RF_LGD_SPECIAL ? rf_lsp_y()
                     : ((double)rf_db_load(x, x0 + j, xt) - md) - r.row.log_s;
      double err = 0, allowed = 0;
      const int k = exact
                    ? rf_lsr_judge_exact(is_lse, ot, &b_hi, g, v, &err, &allowed)
                    : rf_lsr_judge_double(is_lse, ot, &r.mg, &b_lo, &b_hi, g, v, &err, &allowed);
      if (k == RF_LSR_UNSURE) { unsure = 1; continue; }
      if (k == RF_LSR_NONFINITE) nonfinite = 1;
      if (k == RF_LSR_WRONG) wrong = 1;
      const double q = rf_lsr_ratio(err, allowed);
      if (rfl_worse(q, j, bq, bj)) {
        bq = q; bj = j; berr = err; bbound = allowed; bwant = v; bgot = g;
      }
    }
    wrong = rfl_reduce(buf, wrong, 1);
    nonfinite = rfl_reduce(buf, nonfinite, 1);
    unsure = rfl_reduce(buf, unsure, 1);
    /* The worst output of the block: a tree over (ratio, column). */
    wq[t] = bq;
    wj[t] = bj;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
      if (t < s && rfl_worse(wq[t + s], wj[t + s], wq[t], wj[t])) {
        wq[t] = wq[t + s];
        wj[t] = wj[t + s];
      }
      __syncthreads();
    }
    const unsigned worst = wj[0];
    __syncthreads();
    /* The thread that holds the worst output writes the record; thread 0 when every output
     * was undecided (no worst). */
    if ((worst == bj && bj != 0xffffffffu) || (worst == 0xffffffffu && t == 0)) {
      if (worst != 0xffffffffu) {
        rec.ratio = bq; rec.err = berr; rec.bound = bbound; rec.want = bwant; rec.got = bgot;
        rec.col = bj;
      }
      rec.verdict = unsure != 0 ? RF_LGD_UNDECIDED : nonfinite != 0 ? RF_LGD_NONFINITE
                  : wrong != 0 ? RF_LGD_WRONG : RF_LGD_PASS;
      if (plant && rec.verdict != RF_LGD_UNDECIDED) rec.verdict = RF_LGD_PASS;
      out[row] = rec;
    }
  }
}

#if !defined(__HIP_DEVICE_COMPILE__)
static unsigned rfl_grid(uint32_t rows) { return rows < RFL_MAX_GRID ? rows : RFL_MAX_GRID; }

extern "C" int rf_lgd_oracle_launch(const void *x, uint32_t x_dtype, uint32_t rows,
                                    uint32_t cols, rf_lgd_row *info, void *stream) {
  if (x_dtype > 2u) return 1;
  if (rows == 0 || cols == 0) return 0;
  hipLaunchKernelGGL(rf_lgd_oracle_kernel, dim3(rfl_grid(rows)), dim3(RFL_BLOCK), 0,
                     (hipStream_t)stream, x, (unsigned)x_dtype, rows, cols, info);
  rf_launch_count_add(1);
  return (int)hipGetLastError();
}

extern "C" int rf_lgd_judge_launch(const void *x, uint32_t x_dtype, const rf_lgd_variant *vs,
                                   uint32_t nv, const rf_lgd_row *info, uint32_t rows,
                                   uint32_t cols, int is_lse, uint32_t plant, rf_lgd_rec *out,
                                   void *stream) {
  if (x_dtype > 2u) return 1;
  for (uint32_t k = 0; k < nv; k++)
    if (vs[k].out_dtype > 2u) return 1;
  if (rows == 0 || cols == 0 || nv == 0) return 0;
  rf_lgd_variants chunk;
  for (uint32_t k0 = 0; k0 < nv; k0 += RF_LGD_MAX_VARIANTS) {
    const uint32_t m = nv - k0 < RF_LGD_MAX_VARIANTS ? nv - k0 : RF_LGD_MAX_VARIANTS;
    memset(&chunk, 0, sizeof chunk);
    memcpy(chunk.v, vs + k0, m * sizeof *vs);
    hipLaunchKernelGGL(rf_lgd_judge_kernel, dim3(rfl_grid(rows), m), dim3(RFL_BLOCK), 0,
                       (hipStream_t)stream, x, (unsigned)x_dtype, chunk, info, rows, cols,
                       is_lse, plant, out + (size_t)k0 * rows);
    rf_launch_count_add(1);
    const int e = (int)hipGetLastError();
    if (e) return e;
  }
  return 0;
}
#endif

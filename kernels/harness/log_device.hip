/* The log ops' oracle and judge on the device (log_device.h): one block per row, the formulas
 * of oracle/log_row_math.h; short rows a wave a row (row_team.h: the same sums, bit for bit). Inputs and outputs in f32, f16 or bf16,
 * read exactly (model/dtype_bits.h's rf_db_load, the host's rf_dtype_load). Written apart from the log variants
 * (kernels/logsumexp.hip: nothing shared but port.h). Summation order differs from the host's
 * left-to-right loop; every bound used holds for any order (a sum of C nonnegative terms in
 * any order is within γ_{C-1}, the products' sum within γ_C: each term meets at most C - 1
 * additions), so the verdicts are the host's, the reported figures may differ in their last
 * bits. */
#include "../port.h"
#include "log_device.h"
#include "oracle/log_row_math.h"
#include "oracle/log_special.h"
#include "model/dtype_bits.h"
#include "launch_count.h"
#include "row_team.h"
#include <string.h>

#define RFL_MAX_GRID 1024u

/* The oracle of one row by a team (row_team.h): every thread of it runs this and gets the
 * row's facts, the leader writes them to info[row]. Each slot's share (the block thread's
 * columns, in its order) ends in the arrays' entry k. */
template <class Team>
static __device__ __forceinline__ rf_lgd_row rfl_oracle_row(const Team &tm, const void *__restrict__ x,
                                                      unsigned xt, unsigned row, unsigned cols,
                                                      rf_lgd_row *__restrict__ info) {
  const unsigned n = tm.slots();
  const size_t x0 = (size_t)row * cols;
  /* The scan of rf_row_scan_of: the maximum, NaN or +inf, the finite count. */
  double nank[RF_RT_SLOTS], pinfk[RF_RT_SLOTS], nfk[RF_RT_SLOTS], mk[RF_RT_SLOTS];
RF_RT_UNROLL
  for (unsigned k = 0; k < n; k++) {
    float m = -1.0f / 0.0f;
    double has_nan = 0, has_pinf = 0, n_finite = 0;
    for (unsigned j = tm.thread(k); j < cols; j += RF_RT_BLOCK) {
      const float v = rf_db_load(x, x0 + j, xt);
      has_nan = v != v ? 1 : has_nan;
      has_pinf = v == 1.0f / 0.0f ? 1 : has_pinf;
      n_finite += v - v == 0;
      m = v > m ? v : m;
    }
    nank[k] = has_nan; pinfk[k] = has_pinf; nfk[k] = n_finite; mk[k] = m;
  }
  const int has_nan = tm.reduce(nank, 1) != 0, has_pinf = tm.reduce(pinfk, 1) != 0;
  const double n_finite = tm.reduce(nfk, 0);   /* exact: counts below 2^53 */
  const float m = (float)tm.reduce(mk, 1);      /* exact: a float as a double */
  rf_lgd_row r;
  r.row.lse = r.row.log_s = r.row.wd = 0;
  r.row.m = m;
  r.mg.err_L = r.mg.wd_lo = r.mg.wd_hi = 0;
  r.span = 0;
  r.kind = RF_LGD_NORMAL;
  r.pad = 0;
  if (rf_smr_row_is_nan(has_nan || has_pinf, m)) {
    /* log_special.h's want, the host MPFR oracle's row bit for bit (lse; log_s, wd 0; m the
     * maximum, +inf with a +inf: the host's m over the rest is then never read) */
    r.row.lse = rf_lsp_lse(has_nan, has_pinf);
    r.kind = RF_LGD_SPECIAL;
    if (tm.leader()) info[row] = r;
    return r;
  }
  if (n_finite == 1) {   /* exact: the MPFR row itself (logsumexp_double.c, exact_row) */
    rf_lsr_exact_row(m, &r.row, &r.mg);
    r.kind = RF_LGD_EXACT;
    if (tm.leader()) info[row] = r;
    return r;
  }
  /* rf_expsum_double: s, ds and dmax, and the span of rf_bound_lse_row. */
  const double md = m;
  double sk[RF_RT_SLOTS], dsk[RF_RT_SLOTS], dmk[RF_RT_SLOTS], spank[RF_RT_SLOTS];
RF_RT_UNROLL
  for (unsigned k = 0; k < n; k++) {
    double s = 0, ds = 0, dmax = 0, span = 0;
    for (unsigned j = tm.thread(k); j < cols; j += RF_RT_BLOCK) {
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
    sk[k] = s; dsk[k] = ds; dmk[k] = dmax; spank[k] = span;
  }
  const double s = tm.reduce(sk, 0), ds = tm.reduce(dsk, 0), dmax = tm.reduce(dmk, 1);
  r.span = tm.reduce(spank, 1);
  const double Lh = log(s);   /* every thread: the same s, the same facts */
  if (rf_lsr_margin_make(cols, dmax, s, ds, Lh, &r.mg)) {
    r.kind = RF_LGD_REFUSED;
  } else {
    r.row.log_s = Lh;
    r.row.lse = md + Lh;
    r.row.wd = r.mg.wd_hi;
  }
  if (tm.leader()) info[row] = r;
  return r;
}

/* Long rows: a block a row, launched with RF_RT_BLOCK threads, bounded for 1024 like every
 * kernel (scripts/check-launch-resources.sh). */
__global__ void __launch_bounds__(1024)
rf_lgd_oracle_kernel(const void *__restrict__ x, unsigned xt, unsigned rows, unsigned cols,
                     rf_lgd_row *__restrict__ info) {
  RF_SHARED(double, buf, RF_RT_BLOCK);
  const rf_rt_block tm = {buf, NULL, NULL};
  for (unsigned row = blockIdx.x; row < rows; row += gridDim.x)
    rfl_oracle_row(tm, x, xt, row, cols, info);
}

/* Short rows: a wave a row (row_team.h), RF_RT_WAVE_BLOCK threads a block, no barrier. */
__global__ void __launch_bounds__(1024)
rf_lgd_oracle_wave_kernel(const void *__restrict__ x, unsigned xt, unsigned rows, unsigned cols,
                          rf_lgd_row *__restrict__ info) {
  const rf_rt_wave tm;
  const unsigned per = blockDim.x / RF_RT_WAVE;
  for (unsigned row = blockIdx.x * per + threadIdx.x / RF_RT_WAVE; row < rows; row += gridDim.x * per)
    rfl_oracle_row(tm, x, xt, row, cols, info);
}

/* One variant's judge of one row (its oracle's facts r, every thread's copy) by a team
 * (row_team.h); the thread (or lane) holding the worst output writes out[row], the leader
 * when every output was undecided (no worst). */
template <class Team>
static __device__ __forceinline__ void rfl_judge_row(const Team &tm, const void *__restrict__ x,
                                                     unsigned xt, const rf_lgd_variant &jv,
                                                     const rf_lgd_row &r, unsigned row, unsigned cols, int is_lse,
                                                     unsigned plant,
                                                     rf_lgd_rec *__restrict__ out) {
  const void *__restrict__ got = jv.got;
  const unsigned ot = jv.out_dtype;
  const rf_lsr_params &p = jv.p;
  const unsigned n = tm.slots();
  const unsigned n_out = is_lse ? 1u : cols;   /* outputs of a row */
  rf_lgd_rec rec = {0, 0, 0, 0, 0, 0, RF_LGD_UNDECIDED, 0};
  if (r.kind == RF_LGD_REFUSED) {
    if (tm.leader()) out[row] = rec;
    return;
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
  /* Flags, 0 or 1, through their maximum. */
  double wrk[RF_RT_SLOTS], nfk[RF_RT_SLOTS], unk[RF_RT_SLOTS];
  double bq = -1, berr = 0, bbound = 0, bwant = 0;
  float bgot = 0;
  unsigned bj = 0xffffffffu;
RF_RT_UNROLL
  for (unsigned k = 0; k < n; k++) {
    double wrong = 0, nonfinite = 0, unsure = 0;
    for (unsigned j = tm.thread(k); j < n_out; j += RF_RT_BLOCK) {
      const float g = rf_db_load(got, g0 + j, ot);
      /* the host oracle's want: lse, a special row's NaN outputs, or y_j as the host forms it */
      const double v = is_lse ? r.row.lse : r.kind == RF_LGD_SPECIAL ? rf_lsp_y()
                     : ((double)rf_db_load(x, x0 + j, xt) - md) - r.row.log_s;
      double err = 0, allowed = 0;
      const int c = exact
                    ? rf_lsr_judge_exact(is_lse, ot, &b_hi, g, v, &err, &allowed)
                    : rf_lsr_judge_double(is_lse, ot, &r.mg, &b_lo, &b_hi, g, v, &err, &allowed);
      if (c == RF_LSR_UNSURE) { unsure = 1; continue; }
      if (c == RF_LSR_NONFINITE) nonfinite = 1;
      if (c == RF_LSR_WRONG) wrong = 1;
      const double q = rf_lsr_ratio(err, allowed);
      if (rf_rt_worse(q, j, bq, bj)) {
        bq = q; bj = j; berr = err; bbound = allowed; bwant = v; bgot = g;
      }
    }
    wrk[k] = wrong; nfk[k] = nonfinite; unk[k] = unsure;
  }
  const int wrong = tm.reduce(wrk, 1) != 0, nonfinite = tm.reduce(nfk, 1) != 0;
  const int unsure = tm.reduce(unk, 1) != 0;
  const unsigned worst = tm.worst(bq, bj);
  if ((worst == bj && bj != 0xffffffffu) || (worst == 0xffffffffu && tm.leader())) {
    if (worst != 0xffffffffu) {
      rec.ratio = bq; rec.err = berr; rec.bound = bbound; rec.want = bwant; rec.got = bgot;
      rec.col = bj;
    }
    rec.verdict = unsure ? RF_LGD_UNDECIDED : nonfinite ? RF_LGD_NONFINITE
                : wrong ? RF_LGD_WRONG : RF_LGD_PASS;
    if (plant && rec.verdict != RF_LGD_UNDECIDED) rec.verdict = RF_LGD_PASS;
    out[row] = rec;
  }
}

/* Long rows: a block a (row, variant), launched with RF_RT_BLOCK threads, bounded for 1024
 * like every kernel. blockIdx.y: the variant (log_device.h): its output and type, bound
 * parameters and its rows' records, as when each had a launch. */
__global__ void __launch_bounds__(1024)
rf_lgd_judge_kernel(const void *__restrict__ x, unsigned xt, rf_lgd_variants vs,
                    const rf_lgd_row *__restrict__ info, unsigned rows, unsigned cols,
                    int is_lse, unsigned plant, rf_lgd_rec *__restrict__ recs) {
  RF_SHARED(double, buf, RF_RT_BLOCK);
  RF_SHARED(double, wq, RF_RT_BLOCK);
  RF_SHARED(unsigned, wj, RF_RT_BLOCK);
  const rf_rt_block tm = {buf, wq, wj};
  rf_lgd_rec *__restrict__ out = recs + (size_t)blockIdx.y * rows;
  for (unsigned row = blockIdx.x; row < rows; row += gridDim.x) {
    const rf_lgd_row r = info[row];
    rfl_judge_row(tm, x, xt, vs.v[blockIdx.y], r, row, cols, is_lse, plant, out);
  }
}

/* Short rows: a wave a (row, variant) (row_team.h), RF_RT_WAVE_BLOCK threads a block. */
__global__ void __launch_bounds__(1024)
rf_lgd_judge_wave_kernel(const void *__restrict__ x, unsigned xt, rf_lgd_variants vs,
                         const rf_lgd_row *__restrict__ info, unsigned rows, unsigned cols,
                         int is_lse, unsigned plant, rf_lgd_rec *__restrict__ recs) {
  const rf_rt_wave tm;
  const unsigned per = blockDim.x / RF_RT_WAVE;
  rf_lgd_rec *__restrict__ out = recs + (size_t)blockIdx.y * rows;
  for (unsigned row = blockIdx.x * per + threadIdx.x / RF_RT_WAVE; row < rows; row += gridDim.x * per) {
    const rf_lgd_row r = info[row];
    rfl_judge_row(tm, x, xt, vs.v[blockIdx.y], r, row, cols, is_lse, plant, out);
  }
}

#if !defined(__HIP_DEVICE_COMPILE__)
extern "C" int rf_lgd_oracle_launch_team(const void *x, uint32_t x_dtype, uint32_t rows,
                                         uint32_t cols, rf_lgd_row *info, uint32_t team,
                                         void *stream) {
  if (x_dtype > 2u || team > RF_ROW_TEAM_WAVE) return 1;
  if (rows == 0 || cols == 0) return 0;
  const int wave = rf_rt_use_wave(rows, cols, team);
  hipLaunchKernelGGL((wave ? rf_lgd_oracle_wave_kernel : rf_lgd_oracle_kernel),
                     dim3(rf_rt_grid(rows, wave, RFL_MAX_GRID)), dim3(rf_rt_block_dim(wave)), 0,
                     (hipStream_t)stream, x, (unsigned)x_dtype, rows, cols, info);
  rf_launch_count_add(1);
  return (int)hipGetLastError();
}

extern "C" int rf_lgd_oracle_launch(const void *x, uint32_t x_dtype, uint32_t rows,
                                    uint32_t cols, rf_lgd_row *info, void *stream) {
  return rf_lgd_oracle_launch_team(x, x_dtype, rows, cols, info, RF_ROW_TEAM_AUTO, stream);
}

extern "C" int rf_lgd_judge_launch_team(const void *x, uint32_t x_dtype, const rf_lgd_variant *vs,
                                        uint32_t nv, const rf_lgd_row *info, uint32_t rows,
                                        uint32_t cols, int is_lse, uint32_t plant,
                                        rf_lgd_rec *out, uint32_t team, void *stream) {
  if (x_dtype > 2u || team > RF_ROW_TEAM_WAVE) return 1;
  for (uint32_t k = 0; k < nv; k++)
    if (vs[k].out_dtype > 2u) return 1;
  if (rows == 0 || cols == 0 || nv == 0) return 0;
  const int wave = rf_rt_use_wave(rows, cols, team);
  rf_lgd_variants chunk;
  for (uint32_t k0 = 0; k0 < nv; k0 += RF_LGD_MAX_VARIANTS) {
    const uint32_t m = nv - k0 < RF_LGD_MAX_VARIANTS ? nv - k0 : RF_LGD_MAX_VARIANTS;
    memset(&chunk, 0, sizeof chunk);
    memcpy(chunk.v, vs + k0, m * sizeof *vs);
    hipLaunchKernelGGL((wave ? rf_lgd_judge_wave_kernel : rf_lgd_judge_kernel),
                       dim3(rf_rt_grid(rows, wave, RFL_MAX_GRID), m), dim3(rf_rt_block_dim(wave)), 0,
                       (hipStream_t)stream, x, (unsigned)x_dtype, chunk, info, rows, cols,
                       is_lse, plant, out + (size_t)k0 * rows);
    rf_launch_count_add(1);
    const int e = (int)hipGetLastError();
    if (e) return e;
  }
  return 0;
}

extern "C" int rf_lgd_case_launch(const void *x, uint32_t x_dtype, const rf_lgd_variant *vs,
                                  uint32_t nv, rf_lgd_row *info, uint32_t rows, uint32_t cols,
                                  int is_lse, uint32_t plant, rf_lgd_rec *out, void *stream) {
  const int e = rf_lgd_oracle_launch(x, x_dtype, rows, cols, info, stream);
  return e ? e : rf_lgd_judge_launch(x, x_dtype, vs, nv, info, rows, cols, is_lse, plant, out,
                                     stream);
}

extern "C" int rf_lgd_judge_launch(const void *x, uint32_t x_dtype, const rf_lgd_variant *vs,
                                   uint32_t nv, const rf_lgd_row *info, uint32_t rows,
                                   uint32_t cols, int is_lse, uint32_t plant, rf_lgd_rec *out,
                                   void *stream) {
  return rf_lgd_judge_launch_team(x, x_dtype, vs, nv, info, rows, cols, is_lse, plant, out,
                                  RF_ROW_TEAM_AUTO, stream);
}
#endif

/* The softmax oracle and judge on the device (softmax_device.h): one block per row, the
 * formulas of oracle/softmax_row_math.h, block reductions in LDS; short rows a wave a row
 * (row_team.h: the same sums, bit for bit). Written apart from the
 * softmax variants (nothing shared but port.h and model/dtype_bits.h, the model's exact 16-bit
 * conversions). Summation order differs from the host's left-to-right loop; every bound used
 * holds for any order (a sum of C nonnegative terms in any order is within γ_{C-1}: each term
 * meets at most C - 1 additions), so the verdicts are the host's, the reported figures may
 * differ in their last bits. Inputs and outputs may be f16 or bf16, read exactly (rfs_load),
 * a 16-bit output's bound widened (softmax_device.h). */
#include "../port.h"
#include "softmax_device.h"
#include "redfuzz/variant.h"   /* RF_CONTRACT_MASKED_ROW_ZERO */
#include "oracle/softmax_row_math.h"
#include "model/dtype_bits.h"
#include "launch_count.h"
#include "row_team.h"
#include <string.h>

#define RFS_MAX_GRID 1024u

/* Element i of a row in type dt (rf_dtype: 0 f32, 1 f16, 2 bf16), as the float it is: the
 * host judges a 16-bit input or output through the same exact conversion (model/dtype.h's
 * rf_dtype_load is model/dtype_bits.h's rf_db_load). dt is uniform across the grid. */
static __device__ __forceinline__ float rfs_load(const void *__restrict__ p, size_t i, unsigned dt) {
  return rf_db_load(p, i, dt);
}

static __device__ __forceinline__ int rfs_finite_f(float v) {
  return (__float_as_uint(v) & 0x7f800000u) != 0x7f800000u;
}

/* The oracle of one row by a team (row_team.h): every thread of it runs this and gets the
 * row's facts, the leader writes them to info[row]. The loops walk each of the lane's slots
 * (the block's threads it plays) in the block thread's column order; slot k's share ends in
 * the arrays' entry k. */
template <class Team>
static __device__ __forceinline__ rf_smd_row rfs_oracle_row(const Team &tm, const void *__restrict__ x, unsigned dt,
                                      unsigned row, unsigned cols, double *__restrict__ y,
                                      rf_smd_row *__restrict__ info) {
  const unsigned n = tm.slots();
  const size_t x0 = (size_t)row * cols;
  double *yr = y + (size_t)row * cols;
  const float first = rfs_load(x, x0, dt);
  /* The maximum, and whether the row is finite and constant (softmax_double.c). */
  /* NaN and +inf poison the row; -inf elements are deep ones (softmax_special.h). */
  double poisoned[RF_RT_SLOTS], uneq[RF_RT_SLOTS], mk[RF_RT_SLOTS];
RF_RT_UNROLL
  for (unsigned k = 0; k < n; k++) {
    float m = -1.0f / 0.0f;
    double po = 0, un = 0;
    for (unsigned j = tm.thread(k); j < cols; j += RF_RT_BLOCK) {
      const float v = rfs_load(x, x0 + j, dt);
      po = rf_smr_poisons(v) ? 1 : po;
      un = v == first ? un : 1;
      m = v > m ? v : m;
    }
    poisoned[k] = po; uneq[k] = un; mk[k] = m;
  }
  const int any_poison = tm.reduce(poisoned, 1) != 0, any_uneq = tm.reduce(uneq, 1) != 0;
  const float m = (float)tm.reduce(mk, 1);   /* exact: a float as a double */
  rf_smd_row r = {0, 0, 0, 0, m, 0, RF_SMD_NORMAL, 0};
  if (rf_smr_row_is_nan(any_poison, m)) {
    r.kind = RF_SMD_NAN_ROW; r.rel = -1;
    if (tm.leader()) info[row] = r;
    return r;
  }
  if (!any_uneq && cols > (1u << 24)) {
    r.kind = RF_SMD_REFUSED; r.rel = -1;
    if (tm.leader()) info[row] = r;
    return r;
  }
  if (!any_uneq) {   /* step 5: y = RN(1/C), rel 2^-53 */
    const double q = 1.0 / (double)cols;
RF_RT_UNROLL
    for (unsigned k = 0; k < n; k++)
      for (unsigned j = tm.thread(k); j < cols; j += RF_RT_BLOCK) yr[j] = q;
    r.kind = RF_SMD_CONSTANT; r.rel = 0x1p-53;
    if (tm.leader()) info[row] = r;
    return r;
  }
  /* Steps 1-4: exps, their sum, the largest |d| that is not deep, then y = e / S. */
  const double md = m;
  double sk[RF_RT_SLOTS], dk[RF_RT_SLOTS];
RF_RT_UNROLL
  for (unsigned k = 0; k < n; k++) {
    double s = 0, dmax = 0;
    for (unsigned j = tm.thread(k); j < cols; j += RF_RT_BLOCK) {
      const double d = (double)rfs_load(x, x0 + j, dt) - md;
      double e = 0;
      if (d >= RF_SMR_DEEP_D) {
        e = exp(d);
        dmax = -d > dmax ? -d : dmax;
      }
      yr[j] = e;
      s += e;
    }
    sk[k] = s; dk[k] = dmax;
  }
  const double s = tm.reduce(sk, 0);
  r.rel = rf_smr_oracle_rel(cols, tm.reduce(dk, 1));
  if (r.rel < 0) {
    r.kind = RF_SMD_REFUSED;
    if (tm.leader()) info[row] = r;
    return r;
  }
  /* The bound's pass 1 (bounds.c) on the y just made: D_j, deep elements, Σ y_j D_j. Each
   * y_j is read back by the thread (or slot) that wrote it: no barrier. */
  double spank[RF_RT_SLOTS], dmk[RF_RT_SLOTS], ydk[RF_RT_SLOTS], deepk[RF_RT_SLOTS];
RF_RT_UNROLL
  for (unsigned k = 0; k < n; k++) {
    double span = 0, dm = 0, yd = 0, deep = 0;
    for (unsigned j = tm.thread(k); j < cols; j += RF_RT_BLOCK) {
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
    spank[k] = span; dmk[k] = dm; ydk[k] = yd; deepk[k] = deep;
  }
  r.span = tm.reduce(spank, 1);
  r.D_max = tm.reduce(dmk, 1);
  r.yd_s = tm.reduce(ydk, 0);
  r.n_deep = (uint32_t)tm.reduce(deepk, 0);   /* exact: counts below 2^53 */
  if (tm.leader()) info[row] = r;
  return r;
}

/* Long rows: a block a row, launched with RF_RT_BLOCK threads, bounded for 1024 like every
 * kernel (scripts/check-launch-resources.sh): with the special-row rules it took 66
 * registers. */
__global__ void __launch_bounds__(1024)
rf_smd_oracle_kernel(const void *__restrict__ x, unsigned dt, unsigned rows, unsigned cols,
                     double *__restrict__ y, rf_smd_row *__restrict__ info) {
  RF_SHARED(double, buf, RF_RT_BLOCK);
  const rf_rt_block tm = {buf, NULL, NULL};
  for (unsigned row = blockIdx.x; row < rows; row += gridDim.x)
    rfs_oracle_row(tm, x, dt, row, cols, y, info);
}

/* Short rows: a wave a row (row_team.h), RF_RT_WAVE_BLOCK threads a block, no barrier. */
__global__ void __launch_bounds__(1024)
rf_smd_oracle_wave_kernel(const void *__restrict__ x, unsigned dt, unsigned rows, unsigned cols,
                          double *__restrict__ y, rf_smd_row *__restrict__ info) {
  const rf_rt_wave tm;
  const unsigned per = blockDim.x / RF_RT_WAVE;
  for (unsigned row = blockIdx.x * per + threadIdx.x / RF_RT_WAVE; row < rows; row += gridDim.x * per)
    rfs_oracle_row(tm, x, dt, row, cols, y, info);
}

/* One variant's judge of one row (its oracle's facts r, every thread's copy) by a team
 * (row_team.h); the thread (or lane) holding the worst element writes out[row]. */
template <class Team>
static __device__ __forceinline__ void rfs_judge_row(const Team &tm, const void *__restrict__ x,
                                     const double *__restrict__ y, const rf_smd_row &r,
                                     unsigned row,
                                     unsigned cols, const rf_smd_variant &jv, unsigned plant,
                                     rf_smd_rec *__restrict__ out) {
  const void *__restrict__ got = jv.got;
  const rf_smr_params &p = jv.p;
  const rf_smd_io &io = jv.io;
  const unsigned n = tm.slots();
  /* A 16-bit output: every bound widened by its final rounding as bounds.c's
   * rf_bound_softmax_output widens it (rf_smr_out_*), under the same condition (u_t != 0); a
   * float32 output is left as it is. */
  const int wide = io.out_ut != 0;
  const double ut = io.out_ut, eta = io.out_eta;
  const size_t r0 = (size_t)row * cols;
  rf_smd_rec rec = {0, 0, 0, 0, 0, 0, RF_SMD_UNDECIDED, 0};
  if (r.kind == RF_SMD_REFUSED) {
    if (tm.leader()) out[row] = rec;
    return;
  }
  if (r.kind == RF_SMD_NAN_ROW) {   /* every output NaN, or the row is wrong */
    /* ...or, a row of only -inf under the masked-row contract, every output 0 (judge.c). */
    const int mz = (io.contract & RF_CONTRACT_MASKED_ROW_ZERO) != 0;
    double wk[RF_RT_SLOTS], zk[RF_RT_SLOTS], uk[RF_RT_SLOTS];
RF_RT_UNROLL
    for (unsigned k = 0; k < n; k++) {
      double wrong = 0, wrong0 = 0, unmasked = 0;
      for (unsigned j = tm.thread(k); j < cols; j += RF_RT_BLOCK) {
        const float g = rfs_load(got, r0 + j, io.out_dtype);
        wrong = rf_smr_nan_row_ok(g) ? wrong : 1;
        wrong0 = rf_smr_masked_row_ok(g) ? wrong0 : 1;
        unmasked = !mz || rf_smr_masked(rfs_load(x, r0 + j, io.x_dtype)) ? unmasked : 1;
      }
      wk[k] = wrong;
      zk[k] = wrong0;
      uk[k] = unmasked;
    }
    const int masked_zero = mz && tm.reduce(uk, 1) == 0;
    const int wrong = masked_zero ? tm.reduce(zk, 1) != 0 : tm.reduce(wk, 1) != 0;
    if (tm.leader()) {
      const double nan = 0.0 / 0.0;
      rec.bound = nan;
      rec.want = masked_zero ? 0.0 : nan;
      rec.got = rfs_load(got, r0, io.out_dtype);
      rec.verdict = wrong && !plant ? RF_SMD_WRONG : RF_SMD_PASS;
      out[row] = rec;
    }
    return;
  }
  /* The row's bound (bounds.c): constant rows against RN(1/C) as exact (bound_constant_row,
   * the oracle's y within 2^-53), the others through the shared per-row constants. */
  rf_smr_consts c = {0, 0, 0, 0, 0, 0, 0, 0};
  double rel_c = 0;
  int useless = 0;
  if (r.kind == RF_SMD_CONSTANT) {
    const float q = 1.0f / (float)cols;
    const double rel_true = rf_smr_abs((double)q * cols - 1.0);   /* exact */
    rel_c = rf_smr_fold_rel(0x1p-53, dn_one_minus(0x1p-53), rel_true);
    c.row_sum_bound = rel_true;
    if (wide) rel_c = rf_smr_out_rel(rel_c, ut);
  } else {
    const rf_smr_facts f = {cols, r.n_deep, r.span, r.D_max, r.yd_s};
    useless = rf_smr_consts_make(&p, &f, r.rel, RF_SMR_ABS, &c) != 0;
  }
  if (useless) {
    if (tm.leader()) out[row] = rec;
    return;
  }
  if (wide) {   /* a constant row's abs_floor and abs_kernel are 0 before the widening */
    c.abs_floor = rf_smr_out_abs(c.abs_floor, ut, eta);
    c.abs_kernel = rf_smr_out_abs(c.abs_kernel, ut, eta);
    c.row_sum_bound = rf_smr_out_row_sum(c.row_sum_bound, ut, eta, cols);
  }
  const double *yr = y + r0;
  const float q_c = 1.0f / (float)cols;   /* constant rows: RN(1/C), the only right output */
  /* Flags (0 or 1, their maximum) and the sums of the outputs and their magnitudes. */
  double wrk[RF_RT_SLOTS], nfk[RF_RT_SLOTS], unk[RF_RT_SLOTS], nqk[RF_RT_SLOTS];
  double sumk[RF_RT_SLOTS], asumk[RF_RT_SLOTS];
  double bq = -1, berr = 0, bbound = 0, bwant = 0;
  float bgot = 0;
  unsigned bj = 0xffffffffu;
RF_RT_UNROLL
  for (unsigned k = 0; k < n; k++) {
    double wrong = 0, nonfinite = 0, unsure = 0, sum = 0, asum = 0, not_q = 0;
    for (unsigned j = tm.thread(k); j < cols; j += RF_RT_BLOCK) {
      const float g = rfs_load(got, r0 + j, io.out_dtype);
      const double yv = yr[j];
      double rel, rel_k = 0;
      if (r.kind == RF_SMD_CONSTANT) {
        rel = rel_c;
      } else {
        const double D = rf_smr_D(r.m, rfs_load(x, r0 + j, io.x_dtype));
        rel_k = D >= 0 ? up_mul_add_pos(c.kappa, D, c.beta1) : 0;
        rel = D >= 0 ? up_mul_add_pos(c.kappa_f, D, c.beta_f) : c.rel_deep;
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
          if (!rf_smr_within(rel_c, c.abs_floor, g, yv)) wrong = 1;
          if (g != q_c) not_q = 1;
        } else {
          const int ck = rf_smr_check(rel_k, c.abs_kernel, r.rel, RF_SMR_ABS, g, yv);
          if (ck == RF_SMR_UNSURE) unsure = 1;
          else if (ck == RF_SMR_FAIL) wrong = 1;
        }
      }
      /* The worst element as the host judge picks it (err / allowed, the first among equals). */
      const double allowed = rel * yv + c.abs_floor;
      const double q = err == 0 ? 0 : allowed == 0 ? 1.0 / 0.0 : err / allowed;
      if (rf_rt_worse(q, j, bq, bj)) {
        bq = q; bj = j; berr = err; bbound = allowed; bwant = yv; bgot = g;
      }
    }
    wrk[k] = wrong; nfk[k] = nonfinite; unk[k] = unsure; nqk[k] = not_q;
    sumk[k] = sum; asumk[k] = asum;
  }
  const int wrong = tm.reduce(wrk, 1) != 0, nonfinite = tm.reduce(nfk, 1) != 0;
  const int unsure = tm.reduce(unk, 1) != 0;
  const double sum = tm.reduce(sumk, 0), asum = tm.reduce(asumk, 0);
  const int not_q = tm.reduce(nqk, 1) != 0;
  const unsigned worst = tm.worst(bq, bj);
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
                       ? !not_q
                       : (rf_smr_abs(sum - 1.0) + serr) * (1 + 0x1p-40) < c.row_sum_bound;
    rec.verdict = nonfinite ? RF_SMD_NONFINITE : wrong ? RF_SMD_WRONG
                : unsure || !sum_ok ? RF_SMD_UNDECIDED : RF_SMD_PASS;
    if (plant && rec.verdict != RF_SMD_UNDECIDED) rec.verdict = RF_SMD_PASS;
    out[row] = rec;
  }
}

/* Long rows: a block a (row, variant), launched with RF_RT_BLOCK threads, but bounded for 1024
 * like every kernel (scripts/check-launch-resources.sh): unbounded, nvcc gave it 138
 * registers a thread. blockIdx.y: the variant (softmax_device.h): its output, bound
 * parameters and types, and its rows' records, as when each had a launch. */
__global__ void __launch_bounds__(1024) rf_smd_judge_kernel(const void *__restrict__ x,
                                    const double *__restrict__ y,
                                    const rf_smd_row *__restrict__ info, unsigned rows,
                                    unsigned cols, rf_smd_variants vs, unsigned plant,
                                    rf_smd_rec *__restrict__ recs) {
  RF_SHARED(double, buf, RF_RT_BLOCK);
  RF_SHARED(double, wq, RF_RT_BLOCK);
  RF_SHARED(unsigned, wj, RF_RT_BLOCK);
  const rf_rt_block tm = {buf, wq, wj};
  rf_smd_rec *__restrict__ out = recs + (size_t)blockIdx.y * rows;
  for (unsigned row = blockIdx.x; row < rows; row += gridDim.x) {
    const rf_smd_row r = info[row];
    rfs_judge_row(tm, x, y, r, row, cols, vs.v[blockIdx.y], plant, out);
  }
}

/* Short rows: a wave a (row, variant) (row_team.h), RF_RT_WAVE_BLOCK threads a block. */
__global__ void __launch_bounds__(1024) rf_smd_judge_wave_kernel(const void *__restrict__ x,
                                    const double *__restrict__ y,
                                    const rf_smd_row *__restrict__ info, unsigned rows,
                                    unsigned cols, rf_smd_variants vs, unsigned plant,
                                    rf_smd_rec *__restrict__ recs) {
  const rf_rt_wave tm;
  const unsigned per = blockDim.x / RF_RT_WAVE;
  rf_smd_rec *__restrict__ out = recs + (size_t)blockIdx.y * rows;
  for (unsigned row = blockIdx.x * per + threadIdx.x / RF_RT_WAVE; row < rows; row += gridDim.x * per) {
    const rf_smd_row r = info[row];
    rfs_judge_row(tm, x, y, r, row, cols, vs.v[blockIdx.y], plant, out);
  }
}

#if !defined(__HIP_DEVICE_COMPILE__)
extern "C" int rf_smd_oracle_launch_team(const void *x, uint32_t x_dtype, uint32_t rows,
                                         uint32_t cols, double *y, rf_smd_row *info,
                                         uint32_t team, void *stream) {
  if (rows == 0 || cols == 0) return 0;
  if (x_dtype > 2u || team > RF_ROW_TEAM_WAVE) return 1;
  const int wave = rf_rt_use_wave(rows, cols, team);
  hipLaunchKernelGGL((wave ? rf_smd_oracle_wave_kernel : rf_smd_oracle_kernel),
                     dim3(rf_rt_grid(rows, wave, RFS_MAX_GRID)), dim3(rf_rt_block_dim(wave)), 0,
                     (hipStream_t)stream, x, (unsigned)x_dtype, rows, cols, y, info);
  rf_launch_count_add(1);
  return (int)hipGetLastError();
}

extern "C" int rf_smd_oracle_launch(const void *x, uint32_t x_dtype, uint32_t rows, uint32_t cols,
                                    double *y, rf_smd_row *info, void *stream) {
  return rf_smd_oracle_launch_team(x, x_dtype, rows, cols, y, info, RF_ROW_TEAM_AUTO, stream);
}

extern "C" int rf_smd_judge_launch_team(const void *x, const rf_smd_variant *vs, uint32_t nv,
                                        const double *y, const rf_smd_row *info, uint32_t rows,
                                        uint32_t cols, uint32_t plant, rf_smd_rec *out,
                                        uint32_t team, void *stream) {
  if (rows == 0 || cols == 0 || nv == 0) return 0;
  if (team > RF_ROW_TEAM_WAVE) return 1;
  for (uint32_t k = 0; k < nv; k++)
    if (vs[k].io.x_dtype > 2u || vs[k].io.out_dtype > 2u) return 1;
  const int wave = rf_rt_use_wave(rows, cols, team);
  rf_smd_variants chunk;
  for (uint32_t k0 = 0; k0 < nv; k0 += RF_SMD_MAX_VARIANTS) {
    const uint32_t m = nv - k0 < RF_SMD_MAX_VARIANTS ? nv - k0 : RF_SMD_MAX_VARIANTS;
    memset(&chunk, 0, sizeof chunk);
    memcpy(chunk.v, vs + k0, m * sizeof *vs);
    hipLaunchKernelGGL((wave ? rf_smd_judge_wave_kernel : rf_smd_judge_kernel),
                       dim3(rf_rt_grid(rows, wave, RFS_MAX_GRID), m), dim3(rf_rt_block_dim(wave)), 0,
                       (hipStream_t)stream, x, y, info, rows, cols, chunk, plant,
                       out + (size_t)k0 * rows);
    rf_launch_count_add(1);
    const int e = (int)hipGetLastError();
    if (e) return e;
  }
  return 0;
}

extern "C" int rf_smd_case_launch(const void *x, uint32_t x_dtype, const rf_smd_variant *vs,
                                  uint32_t nv, double *y, rf_smd_row *info, uint32_t rows,
                                  uint32_t cols, uint32_t plant, rf_smd_rec *out, void *stream) {
  for (uint32_t k = 0; k < nv; k++)
    if (vs[k].io.x_dtype != x_dtype) return 1;
  const int e = rf_smd_oracle_launch(x, x_dtype, rows, cols, y, info, stream);
  return e ? e : rf_smd_judge_launch(x, vs, nv, y, info, rows, cols, plant, out, stream);
}

extern "C" int rf_smd_judge_launch(const void *x, const rf_smd_variant *vs, uint32_t nv,
                                   const double *y, const rf_smd_row *info, uint32_t rows,
                                   uint32_t cols, uint32_t plant, rf_smd_rec *out, void *stream) {
  return rf_smd_judge_launch_team(x, vs, nv, y, info, rows, cols, plant, out,
                                  RF_ROW_TEAM_AUTO, stream);
}
#endif

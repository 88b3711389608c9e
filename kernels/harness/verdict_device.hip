/* Guard zones and verdict records on the device (verdict_device.h). Written apart from every
 * variant (nothing shared but port.h and the oracle's record layout), like the device oracle,
 * so that a bug in a variant's building blocks cannot also be in its judge. Integer
 * operations only: no floating-point mode (flush-to-zero, fast math) can change a check. */
#include "../port.h"
#include "verdict_device.h"
#include "launch_count.h"
#include "oracle_device.h"

__global__ void rf_vd_guards_kernel(unsigned *p, unsigned long long lead,
                                    unsigned long long skip, unsigned long long tail,
                                    unsigned bits) {
  for (unsigned long long i = threadIdx.x; i < lead + tail; i += blockDim.x)
    p[i < lead ? i : i + skip] = bits;
}

/* One 32-bit word per thread, grid-stride: word w holds bytes 4w..4w+3, each from the zone
 * it lies in (a payload may end inside a word). */
__global__ void rf_vd_fill_kernel(unsigned *p, unsigned long long from_w,
                                  unsigned long long end_w, unsigned long long off,
                                  unsigned long long pend, unsigned guard, unsigned poison) {
  const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
  for (unsigned long long w = from_w + (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
       w < end_w; w += stride) {
    const unsigned long long a = 4 * w;
    unsigned v;
    if (a >= off && a + 4 <= pend) v = poison;
    else if (a + 4 <= off || a >= pend) v = guard;
    else {
      v = 0;
      for (unsigned k = 0; k < 4; k++) {
        const unsigned bits = a + k >= off && a + k < pend ? poison : guard;
        v |= bits & (0xffu << (8 * k));
      }
    }
    p[w] = v;
  }
}

/* include/redfuzz/variant.h's RF_CONTRACT_NAN_PROPAGATES and RF_CONTRACT_TIE_ANY (not
 * included: this judge shares no header with the variants). */
#define RFV_NAN_PROPAGATES 0x2u
#define RFV_TIE_ANY 0x4u
#define RFV_BLOCK 128u
#define RFV_MAX_GRID 4096u
#define RFV_GUARD_BYTES 256u   /* run/buffers.h's RF_GUARD_BYTES: every leading guard */

static __device__ __forceinline__ int rfv_is_nan(unsigned b) {
  return (b & 0x7fffffffu) > 0x7f800000u;
}

/* The host judge's "same float" (a == b, or both NaN) on the bits: -0 equals +0. */
static __device__ __forceinline__ int rfv_same(unsigned a, unsigned b) {
  if (rfv_is_nan(a) || rfv_is_nan(b)) return rfv_is_nan(a) && rfv_is_nan(b);
  return a == b || ((a | b) & 0x7fffffffu) == 0u;
}

/* Sets *flag (LDS) when a byte of base[from, to) is not the guard pattern tiled from the
 * base. Byte by byte: a trailing guard starts wherever the payload ends. */
static __device__ void rfv_guard(const unsigned char *base, unsigned long long from,
                                 unsigned long long to, unsigned bits, unsigned *flag) {
  for (unsigned long long i = from + threadIdx.x; i < to; i += blockDim.x)
    if (base[i] != ((bits >> (8u * (unsigned)(i & 3u))) & 0xffu)) atomicMax(flag, 1u);
}

/* Outputs longer than RFV_CHUNK bytes are scanned (poison, repeat) by RFV_CHUNK-byte chunks,
 * a block each, before the record kernel: one block per variant took 2.2 ms for the eight
 * 4 MB outputs of a softmax 256x4096 case on an H200 (ncu), more than the variants' own
 * kernels, while 128 of its 132 SMs idled (docs/RESULTS.md, fifth GPU session). A chunk's
 * findings, as the record kernel keeps them: the poison key of each run (0xffffffff - first
 * word, 0 = none) and whether the runs differ. */
#define RFV_CHUNK (128u << 10)
#define RFV_SCAN_BLOCK 256u
typedef struct { unsigned key[2], differ, pad; } rfv_part;

__global__ void rf_vd_scan_kernel(const unsigned char *base, const rf_vd_item *items,
                                  unsigned n, unsigned chunks, rfv_part *parts,
                                  unsigned poison_bits) {
  RF_SHARED(unsigned, acc, 3);
  const unsigned t = threadIdx.x;
  for (unsigned long long q = blockIdx.x; q < (unsigned long long)n * chunks; q += gridDim.x) {
    const rf_vd_item *d = &items[q / chunks];
    const unsigned long long ob = d->out_bytes, c0 = (q % chunks) * (unsigned long long)RFV_CHUNK;
    const unsigned long long c1 = c0 + RFV_CHUNK < ob ? c0 + RFV_CHUNK : ob;
    if (t < 3) acc[t] = 0;
    __syncthreads();
    /* Words wholly inside the output (the poison is checked on those, as in one block), then
     * the bytes of a last partial word for the repeat. c0 is a multiple of 4. */
    const unsigned long long w0 = c0 / 4, w1 = c1 < (ob & ~3ull) ? c1 / 4 : ob / 4;
    for (unsigned k = 0; k < d->runs && k < 2; k++) {
      const unsigned *w = (const unsigned *)(base + d->out_off[k]);
      for (unsigned long long i = w0 + t; i < w1; i += blockDim.x)
        if (w[i] == poison_bits) atomicMax(&acc[k], 0xffffffffu - (unsigned)i);
    }
    if (d->runs == 2) {
      const unsigned *a = (const unsigned *)(base + d->out_off[0]);
      const unsigned *b = (const unsigned *)(base + d->out_off[1]);
      for (unsigned long long i = w0 + t; i < w1; i += blockDim.x)
        if (a[i] != b[i]) atomicMax(&acc[2], 1u);
      for (unsigned long long i = (w1 > w0 ? w1 : w0) * 4 + t; i < c1; i += blockDim.x)
        if (base[d->out_off[0] + i] != base[d->out_off[1] + i]) atomicMax(&acc[2], 1u);
    }
    __syncthreads();
    if (t == 0) parts[q] = rfv_part{{acc[0], acc[1]}, acc[2], 0};
    __syncthreads();
  }
}

/* One block per item (grid-stride beyond RFV_MAX_GRID). LDS words, each only ever raised by
 * atomicMax (so threads meeting the same finding do not race): per run the four guard flags
 * and the poison key (0xffffffff - first word, 0 = none), and whether the runs differ; taken
 * from the chunks' findings when parts is not NULL (rf_vd_scan_kernel). */
__global__ void rf_vd_check_kernel(const unsigned char *base, const rf_vd_item *items,
                                   unsigned n, rf_vd_record *records, unsigned guard_bits,
                                   unsigned poison_bits, unsigned plant, const rfv_part *parts,
                                   unsigned chunks) {
  RF_SHARED(unsigned, flags, 2 * 4);
  RF_SHARED(unsigned, poison_key, 2);
  RF_SHARED(unsigned, differ, 1);
  const unsigned t = threadIdx.x;
  for (unsigned it = blockIdx.x; it < n; it += gridDim.x) {
    const rf_vd_item *d = &items[it];
    if (t < 8) flags[t] = 0;
    if (t < 2) poison_key[t] = 0;
    if (t == 0) differ[0] = 0;
    __syncthreads();
    for (unsigned k = 0; k < d->runs && k < 2; k++) {
      const unsigned long long o = d->out_off[k], ob = d->out_bytes;
      rfv_guard(base, o - RFV_GUARD_BYTES, o, guard_bits, &flags[4 * k + 0]);
      rfv_guard(base, o + ob, d->out_end[k], guard_bits, &flags[4 * k + 1]);
      if (d->scratch_bytes) {
        const unsigned long long s = d->scratch_off[k];
        rfv_guard(base, s - RFV_GUARD_BYTES, s, guard_bits, &flags[4 * k + 2]);
        rfv_guard(base, s + d->scratch_bytes, d->scratch_end[k], guard_bits, &flags[4 * k + 3]);
      }
      if (parts) {
        for (unsigned j = t; j < chunks; j += blockDim.x)
          atomicMax(&poison_key[k], parts[(unsigned long long)it * chunks + j].key[k]);
        continue;
      }
      const unsigned *w = (const unsigned *)(base + o);   /* payloads are 256-byte aligned */
      for (unsigned i = t; i < ob / 4u; i += blockDim.x)
        if (w[i] == poison_bits) atomicMax(&poison_key[k], 0xffffffffu - i);
    }
    if (parts && d->runs == 2) {
      for (unsigned j = t; j < chunks; j += blockDim.x)
        atomicMax(&differ[0], parts[(unsigned long long)it * chunks + j].differ);
    } else if (d->runs == 2) {
      const unsigned char *a = base + d->out_off[0], *b = base + d->out_off[1];
      for (unsigned i = t; i < d->out_bytes; i += blockDim.x)
        if (a[i] != b[i]) atomicMax(&differ[0], 1u);
    }
    __syncthreads();
    if (t == 0) {
      rf_vd_record rec;
      const unsigned char *g = base + d->out_off[0];
      for (unsigned w = 0; w < 4; w++) {
        unsigned v = 0;
        for (unsigned byte = 0; byte < 4; byte++)
          if (4 * w + byte < d->out_bytes) v |= (unsigned)g[4 * w + byte] << (8 * byte);
        rec.got[w] = v;
      }
      for (unsigned k = 0; k < 2; k++) {
        rec.guard[k] = (flags[4 * k] ? RF_VD_GUARD_OUT_BEFORE : 0u) |
                       (flags[4 * k + 1] ? RF_VD_GUARD_OUT_AFTER : 0u) |
                       (flags[4 * k + 2] ? RF_VD_GUARD_SCRATCH_BEFORE : 0u) |
                       (flags[4 * k + 3] ? RF_VD_GUARD_SCRATCH_AFTER : 0u);
        rec.poison[k] = poison_key[k] ? (int)(0xffffffffu - poison_key[k]) : -1;
      }
      rec.differ = differ[0];
      rec.decided = RF_VD_UNDECIDED;
      if (d->oracle_off >= 0 && d->check != RF_VD_CHECK_NONE) {
        const rf_oracle_dev_out *want = (const rf_oracle_dev_out *)(base + d->oracle_off);
        /* The contract's answer (run/judge.c, rf_judge_maxarg_want): NaN at the first NaN
         * when NaN propagates and the input has one; else the oracle's. */
        const int nan_due = (d->contract & RFV_NAN_PROPAGATES) && want->first_nan >= 0;
        const int minimum = d->check == RF_VD_CHECK_MIN || d->check == RF_VD_CHECK_ARGMIN;
        const unsigned want_bits = nan_due ? 0x7fc00000u
                                 : __float_as_uint(minimum ? want->min_value : want->max_value);
        const long long want_index = nan_due ? (long long)want->first_nan
                                   : (long long)(minimum ? want->argmin_index : want->argmax_index);
        const int same_value = rfv_same(rec.got[0], want_bits);
        int same = same_value;
        if (d->check == RF_VD_CHECK_ARGMAX || d->check == RF_VD_CHECK_ARGMIN)
          same = same && (d->index_bits == 64
                              ? (long long)(((unsigned long long)rec.got[3] << 32) | rec.got[2])
                              : (long long)(int)rec.got[1]) == want_index;
        rec.decided = same ? RF_VD_EQUAL : RF_VD_DIFFERENT;
        /* Another index with the maximum's value may be a tie the contract allows: only the
         * element there decides, which the host reads (from_record). */
        if (!same && same_value && !nan_due && (d->contract & RFV_TIE_ANY))
          rec.decided = RF_VD_UNDECIDED;
      }
      if (plant) rec.got[0] ^= 1u;
      records[it] = rec;
    }
    __syncthreads();
  }
}

#if !defined(__HIP_DEVICE_COMPILE__)
extern "C" int rf_vd_guards_launch(uint32_t *p, size_t lead, size_t skip, size_t tail,
                                   uint32_t bits, void *stream) {
  if (lead + tail == 0) return 0;
  hipLaunchKernelGGL(rf_vd_guards_kernel, dim3(1), dim3(256), 0, (hipStream_t)stream,
                     (unsigned *)p, (unsigned long long)lead, (unsigned long long)skip,
                     (unsigned long long)tail, bits);
  rf_launch_count_add(1);
  return (int)hipGetLastError();
}

extern "C" int rf_vd_fill_launch(void *base, uint64_t from, uint64_t off, uint64_t bytes,
                                 uint64_t end, uint32_t guard_bits, uint32_t poison_bits,
                                 void *stream) {
  if (end <= from) return 0;
  const unsigned long long words = (end - from) / 4;
  const unsigned long long blocks = (words + 255) / 256;
  const unsigned grid = blocks < 1024 ? (unsigned)blocks : 1024u;
  hipLaunchKernelGGL(rf_vd_fill_kernel, dim3(grid), dim3(256), 0, (hipStream_t)stream,
                     (unsigned *)base, (unsigned long long)(from / 4), (unsigned long long)(end / 4),
                     (unsigned long long)off, (unsigned long long)(off + bytes), guard_bits,
                     poison_bits);
  rf_launch_count_add(1);
  return (int)hipGetLastError();
}

extern "C" int rf_vd_check_launch(const void *arena, const rf_vd_item *items, uint32_t n,
                                  rf_vd_record *records, uint32_t guard_bits,
                                  uint32_t poison_bits, uint32_t plant,
                                  size_t max_out_bytes, void *stream) {
  if (n == 0) return 0;
  const unsigned grid = n < RFV_MAX_GRID ? n : RFV_MAX_GRID;
  /* Outputs over a chunk: the chunked scan first, into a buffer kept for the process (grown
   * when a batch needs more; one runner launches at a time). */
  static rfv_part *parts;
  static size_t parts_cap;
  const unsigned chunks = max_out_bytes > RFV_CHUNK
                        ? (unsigned)((max_out_bytes + RFV_CHUNK - 1) / RFV_CHUNK) : 0;
  if (chunks) {
    const size_t need = (size_t)n * chunks;
    if (need > parts_cap) {
      if (parts) (void)hipFree(parts);
      parts = NULL;
      parts_cap = 0;
      const hipError_t e = hipMalloc((void **)&parts, need * sizeof *parts);
      if (e != hipSuccess) return (int)e;
      parts_cap = need;
    }
    const unsigned long long blocks = (unsigned long long)need;
    hipLaunchKernelGGL(rf_vd_scan_kernel, dim3(blocks < 65535u ? (unsigned)blocks : 65535u),
                       dim3(RFV_SCAN_BLOCK), 0, (hipStream_t)stream,
                       (const unsigned char *)arena, items, (unsigned)n, chunks, parts,
                       poison_bits);
    rf_launch_count_add(1);
  }
  const unsigned block = max_out_bytes >= (64u << 10) ? 1024u : RFV_BLOCK;
  hipLaunchKernelGGL(rf_vd_check_kernel, dim3(grid), dim3(block), 0, (hipStream_t)stream,
                     (const unsigned char *)arena, items, (unsigned)n, records, guard_bits,
                     poison_bits, plant, (const rfv_part *)(chunks ? parts : NULL), chunks);
  rf_launch_count_add(1);
  return (int)hipGetLastError();
}
#endif

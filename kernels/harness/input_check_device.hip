/* The input check's kernels (input_check_device.h). */
#include "../port.h"
#include "input_check_device.h"
#include "launch_count.h"

#define RF_IC_BLOCK 256u
#define RF_IC_MAX_GRID 65535u

/* A word's share of its chunk's hash: position-dependent (a swap of two words changes it),
 * added up (wrapping) so that the block may sum in any order. A mix of SplitMix64's and
 * MurmurHash3's finaliser constants; not cryptographic: a kernel that writes its input by
 * mistake does not aim at a collision. */
__device__ __forceinline__ unsigned long long rf_ic_mix(unsigned w, unsigned long long i) {
  unsigned long long h = ((unsigned long long)w + 1) ^ (i * 0x9E3779B97F4A7C15ull);
  h *= 0xFF51AFD7ED558CCDull;
  return h ^ (h >> 31);
}

/* The chunk's hash, summed over the block; every thread returns it. */
__device__ unsigned long long rf_ic_chunk_hash(const unsigned *x, unsigned long long c0,
                                               unsigned long long words, unsigned long long *part) {
  unsigned long long h = 0;
  for (unsigned k = threadIdx.x; k < RF_IC_CHUNK_WORDS && c0 + k < words; k += blockDim.x)
    h += rf_ic_mix(x[c0 + k], c0 + k);
  part[threadIdx.x] = h;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  const unsigned long long total = part[0];
  __syncthreads();   /* part is written again by the next chunk */
  return total;
}

__global__ void rf_ic_hash_kernel(const unsigned *x, unsigned long long words,
                                  unsigned long long chunks, unsigned long long *hashes) {
  RF_SHARED(unsigned long long, part, RF_IC_BLOCK);
  for (unsigned long long c = blockIdx.x; c < chunks; c += gridDim.x) {
    const unsigned long long h = rf_ic_chunk_hash(x, c * RF_IC_CHUNK_WORDS, words, part);
    if (threadIdx.x == 0) hashes[c] = h;
  }
}

__global__ void rf_ic_check_kernel(unsigned *x, const unsigned *pristine,
                                   unsigned long long words, unsigned long long chunks,
                                   const unsigned long long *hashes, rf_ic_record *rec) {
  RF_SHARED(unsigned long long, part, RF_IC_BLOCK);
  for (unsigned long long c = blockIdx.x; c < chunks; c += gridDim.x) {
    const unsigned long long c0 = c * RF_IC_CHUNK_WORDS;
    if (rf_ic_chunk_hash(x, c0, words, part) == hashes[c]) continue;   /* the block agrees */
    for (unsigned k = threadIdx.x; k < RF_IC_CHUNK_WORDS && c0 + k < words; k += blockDim.x) {
      const unsigned long long w = c0 + k;
      if (x[w] == pristine[w]) continue;
      atomicMax(&rec->first_inv, ~w);
      atomicAdd(&rec->changed, 1ull);
      x[w] = pristine[w];
    }
  }
}

static unsigned ic_grid(unsigned long long chunks) {
  return chunks < RF_IC_MAX_GRID ? (unsigned)chunks : RF_IC_MAX_GRID;
}

extern "C" int rf_ic_hash_launch(const uint32_t *x, size_t words, uint64_t *hashes, void *stream) {
  const unsigned long long chunks = rf_ic_chunks(words);
  if (!chunks) return 0;
  hipLaunchKernelGGL(rf_ic_hash_kernel, dim3(ic_grid(chunks)), dim3(RF_IC_BLOCK), 0,
                     (hipStream_t)stream, (const unsigned *)x, (unsigned long long)words, chunks,
                     (unsigned long long *)hashes);
  rf_launch_count_add(1);
  return (int)hipGetLastError();
}

extern "C" int rf_ic_check_launch(uint32_t *x, const uint32_t *pristine, size_t words,
                                  const uint64_t *hashes, rf_ic_record *rec, void *stream) {
  const unsigned long long chunks = rf_ic_chunks(words);
  if (!chunks) return 0;
  hipLaunchKernelGGL(rf_ic_check_kernel, dim3(ic_grid(chunks)), dim3(RF_IC_BLOCK), 0,
                     (hipStream_t)stream, (unsigned *)x, (const unsigned *)pristine,
                     (unsigned long long)words, chunks, (const unsigned long long *)hashes, rec);
  rf_launch_count_add(1);
  return (int)hipGetLastError();
}

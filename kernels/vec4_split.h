/* The float4 split of a 1-D input shared by the vectorised max and argmax variants: the input
 * may start anywhere on a 4-byte boundary (the runner passes misaligned pointers), so the
 * elements before the first 16-byte boundary are a scalar head, then aligned float4 quads,
 * then the (n - head) mod 4 elements after the last quad as a scalar tail. Head and tail are
 * at most 3 elements each; threads 0..2 of the grid take them. */
#ifndef RF_VEC4_SPLIT_H
#define RF_VEC4_SPLIT_H
#include "port.h"

typedef unsigned long long rf_vec4_u64;

typedef struct {
  rf_vec4_u64 head;        /* elements x[0 .. head) are scalar, head <= 3 and head <= n */
  rf_vec4_u64 quads;       /* float4 quads at x + head */
  rf_vec4_u64 tail_start;  /* head + 4 * quads; x[tail_start .. n) is the scalar tail */
} rf_vec4_split;

static __device__ __forceinline__ rf_vec4_split rf_vec4_split_of(const float *x, rf_vec4_u64 n) {
  rf_vec4_split s;
  const rf_vec4_u64 past_boundary = ((uintptr_t)x / sizeof(float)) % 4;
  s.head = (4 - past_boundary) % 4;
  if (s.head > n) s.head = n;
  s.quads = (n - s.head) / 4;
  s.tail_start = s.head + 4 * s.quads;
  return s;
}
#endif

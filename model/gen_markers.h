/* The `markers` distribution (model/dists.def): +0 everywhere but at most RF_GEN_MARKERS_MAX
 * places where index arithmetic breaks (docs/CASE_FORMAT.md, "Sparse inputs"). Included by
 * gen_elem.h; usable on the host and the device like it.
 *
 * Candidates in priority order, each kept when it lies inside the row and no earlier one took
 * its place: 0, len-1 (the ends), 2^31-1, 2^31 (a signed 32-bit index turns negative),
 * 2^32-1, 2^32 (an unsigned 32-bit offset wraps), 1, len-2, 255, 256, 1023, 1024 (block
 * edges), 2^16, 2^20-1, 2^24 (tile and grid-stride edges of the usual launches) and one
 * seeded place. Marker k of the m kept gets 2^((k + rot) mod m), rot seeded: distinct powers
 * of two below 2^16, so
 *   - the sum is exact in float32 for any order (every partial sum is an integer < 2^16), and
 *     a dropped, doubled or misplaced marker changes it (a sum of distinct powers of two has
 *     one binary form);
 *   - the maximum 2^(m-1) is unique, at a seeded one of the places: argmax names it exactly;
 *   - every value is exact in f16 and bf16 too.
 * The `signed-markers` distribution (sign = 1) has the same places, but sizes by place, not by
 * seed: the k-th place from the start gets 2^k, and the signs alternate by size from the top:
 * +2^(m-1) at the last place, -2^(m-2) at the one before, +2^(m-3), ... So its maximum and its
 * minimum are the two farthest markers (past 2^32 at n = 2^32+3, past 2^31 at 2^31+5), where
 * 32-bit index arithmetic fails: with `markers` the minimum is the +0 background at index 2 and
 * the maximum sits at a seeded place, so min and argmin past 2^31 saw only a kernel that read
 * nothing (a blind test of 2026-12-06: an argmin with an `unsigned` n passed at 2^32+3). The
 * sum stays exact (every partial sum an integer of magnitude < 2^16) and changes with any
 * dropped, doubled or misplaced marker (each by a distinct power of two). */
#ifndef RF_GEN_MARKERS_H
#define RF_GEN_MARKERS_H

#define RF_GEN_MARKERS_MAX 16u

/* The markers of a row of len elements, in candidate order (not sorted): positions into pos,
 * values into val; returns how many (0 for an empty row). */
RF_HD unsigned rf_gen_markers(uint64_t key, uint64_t len, int sign, uint64_t *pos, float *val) {
  if (!len) return 0;
  const uint64_t two31 = UINT64_C(1) << 31, two32 = UINT64_C(1) << 32;
  const uint64_t cand[RF_GEN_MARKERS_MAX] = {
      0, len - 1, two31 - 1, two31, two32 - 1, two32, 1, len >= 2 ? len - 2 : 0, 255, 256,
      1023, 1024, UINT64_C(1) << 16, (UINT64_C(1) << 20) - 1, UINT64_C(1) << 24,
      rf_gen_mix(key ^ UINT64_C(0x6D61726B657273)) % len};
  unsigned m = 0;
  for (unsigned k = 0; k < RF_GEN_MARKERS_MAX; k++) {
    const uint64_t at = cand[k];
    int dup = at >= len;
    for (unsigned j = 0; j < m && !dup; j++) dup = pos[j] == at;
    if (!dup) pos[m++] = at;
  }
  const unsigned rot = (unsigned)(rf_gen_mix(key) % m);
  for (unsigned k = 0; k < m; k++) {
    unsigned e = (k + rot) % m;   /* its size: 2^e */
    if (sign) {                   /* by place: the markers before it */
      e = 0;
      for (unsigned j = 0; j < m; j++) e += pos[j] < pos[k];
    }
    val[k] = (sign && ((m - 1 - e) & 1) ? -1.0f : 1.0f) * (float)(1u << e);
  }
  return m;
}

/* Element j of a row of len: its marker's value, else +0. */
RF_HD float rf_gen_marker_elem(uint64_t key, uint64_t len, int sign, uint64_t j) {
  uint64_t pos[RF_GEN_MARKERS_MAX];
  float val[RF_GEN_MARKERS_MAX];
  const unsigned m = rf_gen_markers(key, len, sign, pos, val);
  for (unsigned k = 0; k < m; k++)
    if (pos[k] == j) return val[k];
  return 0.0f;
}
#endif

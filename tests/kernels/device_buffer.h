/* Shared by the kernel tests: a growable device buffer, and NaN poison to see which floats a
 * launch wrote. Include inside the test's anonymous namespace, after rf_test.h. */
#ifndef RF_TESTS_DEVICE_BUFFER_H
#define RF_TESTS_DEVICE_BUFFER_H

constexpr uint32_t kPoisonBits = 0xffc0deadu;   /* a NaN no kernel produces */

struct Buffer {
  float *p = nullptr;
  size_t floats = 0;
  ~Buffer() { rf_dev_free(p); }
  void reserve(size_t want) {
    if (want <= floats) return;
    rf_dev_free(p);
    p = nullptr;
    floats = 0;
    void *q = nullptr;
    if (rf_dev_alloc(&q, want * sizeof(float)) != 0) {
      fprintf(stderr, "device allocation of %zu floats failed\n", want);
      exit(2);
    }
    p = (float *)q;
    floats = want;
  }
};

inline void fill_poison(Buffer *b, size_t floats) {
  std::vector<uint32_t> bits(floats, kPoisonBits);
  CHECK(rf_dev_upload(b->p, bits.data(), floats * sizeof(float)) == 0);
}

/* Counts floats in [from, to) of b whose poison changed. */
inline size_t poison_changed(const Buffer &b, size_t from, size_t to) {
  if (to == from) return 0;
  std::vector<uint32_t> bits(to - from);
  CHECK(rf_dev_download(bits.data(), b.p + from, bits.size() * sizeof(float)) == 0);
  size_t changed = 0;
  for (uint32_t v : bits) changed += v != kPoisonBits;
  return changed;
}
#endif

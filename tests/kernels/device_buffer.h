/* Shared by the kernel tests: a growable device buffer, NaN poison to see which floats a
 * launch wrote, and one poisoned launch with its report. Include inside the test's anonymous namespace, after rf_test.h. */
#ifndef RF_TESTS_DEVICE_BUFFER_H
#define RF_TESTS_DEVICE_BUFFER_H

constexpr uint32_t kPoisonBits = 0xffc0deadu;   /* a NaN no kernel produces */
constexpr size_t kGuardFloats = 16;             /* poisoned floats after output and scratch */

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
/* One launch with poisoned output and scratch (each followed by kGuardFloats of guard):
 * the launcher's, synchronisation's and last errors, the simulator's status, and how many
 * guard floats changed. The first out_floats of output are downloaded into result. Each test
 * decides how a problem counts (a failure, or a mutant's expected miss). */
struct LaunchReport {
  int rc = 0, sync = 0, last = 0, status = 0;
  char msg[512] = "";
  size_t out_guard = 0, scratch_guard = 0;
  int error() const { return rc ? rc : sync ? sync : last; }
  bool ok() const {
    return error() == 0 && status == RF_DEV_STATUS_OK && out_guard == 0 && scratch_guard == 0;
  }
};

inline LaunchReport launch_poisoned(Buffer &out, Buffer &scratch, const rf_variant *v,
                                    const rf_launch_args &a, size_t out_floats,
                                    size_t scratch_floats, void *result) {
  LaunchReport r;
  fill_poison(&out, out_floats + kGuardFloats);
  fill_poison(&scratch, scratch_floats + kGuardFloats);
  r.rc = v->launch(&a);
  r.sync = rf_dev_sync();
  r.last = rf_dev_last_error();
  r.status = rf_dev_sim_take_status(r.msg, sizeof r.msg);
  if (out_floats)
    CHECK(rf_dev_download(result, out.p, out_floats * sizeof(float)) == 0);
  r.out_guard = poison_changed(out, out_floats, out_floats + kGuardFloats);
  r.scratch_guard = poison_changed(scratch, scratch_floats, scratch_floats + kGuardFloats);
  return r;
}
#endif

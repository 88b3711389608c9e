/* Runs every sum variant of the registry on the device of this build (the simulator in the
 * default build, at wave 32 and 64 and two schedules) over the boundary lengths, misaligned
 * inputs, several block/grid/items requests and three input kinds, and checks each result
 * exactly:
 *   every input is k * 2^-24 with an integer k, so every partial sum is a multiple of 2^-24 and
 *   the true sum K (in those units) and A = Σ|k| are exact int64 values. The result must then
 *   be exact when the data allow it (all k multiples of 2^t and A <= 2^(24+t): ones,
 *   alternating), else within Higham's bound |ŝ - s| <= γ_h Σ|x_i| with h from the variant's
 *   plan, compared in integers (err (2^24 - h) <= h A).
 * Special values with fixed IEEE results: all -0 gives -0, mixed zeros +0, +inf with -inf NaN.
 * Also: the output is written (NaN poison gone), nothing past the output or the scratch is
 * touched, deterministic variants repeat their bits, the simulator saw no race or divergent
 * barrier, and unsupported requests give a reason. The checker itself is shown to reject
 * planted errors first.
 * Every sum mutant of the registry must fail some run of the same harness (on the simulator;
 * on GPUs the catches are only printed; skipped under ThreadSanitizer).
 * n = 2^24 runs on GPUs by default, on the simulator only with RF_SUM_TEST_BIG=1 (minutes);
 * RF_SUM_TEST_BIG=0 skips it everywhere. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vector>
#include "rf_test.h"
#include "kernels/harness/device.h"
#include "redfuzz/variant.h"
#include "kernels/huge_mutants.h"
#include "model/case.h"
#include "redfuzz/plan.h"

namespace {

#include "device_buffer.h"
constexpr uint64_t kBigN = 1ull << 24;
/* Sanitizer builds run the kernels several times slower: there a lighter matrix (one simulator
 * configuration, offsets 0 and 3) keeps the test within a few minutes. */
#if defined(RF_TSAN)
constexpr bool kTsan = true;
#else
constexpr bool kTsan = false;
#endif
#if defined(RF_TSAN) || defined(RF_ASAN)
constexpr bool kLight = true;
#else
constexpr bool kLight = false;
#endif

/* ---- the checker ------------------------------------------------------------------------- */

struct Truth {
  int64_t K = 0;      /* exact sum in units of 2^-24 */
  int64_t A = 0;      /* Σ|k| */
  int tz = 63;        /* every k is a multiple of 2^tz */
};

enum Verdict { PASS, WRONG, NONFINITE };

/* got must equal K * 2^-24 exactly when the data allow, else lie within γ_h A (units 2^-24). */
Verdict check_sum(float got, const Truth &t, uint64_t h, char *why, size_t len) {
  if (!isfinite(got)) { snprintf(why, len, "result %a is not finite", got); return NONFINITE; }
  const double scaled = ldexp((double)got, 24);   /* exact: a float times a power of two */
  if (scaled != floor(scaled) || fabs(scaled) > 0x1p62) {
    snprintf(why, len, "result %a is not a multiple of 2^-24", got);
    return WRONG;
  }
  const __int128 err = (__int128)(int64_t)scaled - t.K;
  const __int128 abs_err = err < 0 ? -err : err;
  const bool exact = t.A == 0 || (t.tz <= 38 && t.A <= ((int64_t)1 << (24 + t.tz)));
  if (exact) {
    if (abs_err == 0) return PASS;
    snprintf(why, len, "exact data: got %a, want %a", got, ldexp((double)t.K, -24));
    return WRONG;
  }
  if (h >= (1u << 24)) return PASS;               /* γ_h is infinite: any finite result */
  if (abs_err * (__int128)((1 << 24) - (int64_t)h) <= (__int128)h * t.A) return PASS;
  snprintf(why, len, "got %a, want %a: error %.3g exceeds gamma_%llu * sum|x| = %.3g", got,
           ldexp((double)t.K, -24), ldexp((double)abs_err, -24), (unsigned long long)h,
           ldexp((double)h * (double)t.A / (double)((1 << 24) - (int64_t)h), -24));
  return WRONG;
}

void test_checker_catches_planted_errors() {
  char why[256];
  Truth ones;   /* 1027 ones: exact data */
  ones.K = ones.A = 1027ll << 24;
  ones.tz = 24;
  CHECK(check_sum(1027.0f, ones, 19, why, sizeof why) == PASS);
  CHECK(check_sum(1026.0f, ones, 19, why, sizeof why) == WRONG);   /* a dropped element */
  CHECK(check_sum(1028.0f, ones, 19, why, sizeof why) == WRONG);   /* a doubled one */
  CHECK(check_sum(NAN, ones, 19, why, sizeof why) == NONFINITE);   /* poison survived */
  CHECK(check_sum(INFINITY, ones, 19, why, sizeof why) == NONFINITE);
  Truth alt;    /* +1 -1 ... +1: exact data, sum 1 */
  alt.K = 1ll << 24;
  alt.A = 1027ll << 24;
  alt.tz = 24;
  CHECK(check_sum(1.0f, alt, 19, why, sizeof why) == PASS);
  CHECK(check_sum(0.0f, alt, 19, why, sizeof why) == WRONG);
  /* Inexact data: sum 0.5, A = 2^30 units (Σ|x| = 64), h = 8: the bound is
   * 8 * 2^30 / (2^24 - 8) units, 512.0002.. units; 512 passes, 513 does not. */
  Truth wide;
  wide.K = 1ll << 23;
  wide.A = 1ll << 30;
  wide.tz = 0;
  CHECK(check_sum(0.5f + 512 * 0x1p-24f, wide, 8, why, sizeof why) == PASS);
  CHECK(check_sum(0.5f - 512 * 0x1p-24f, wide, 8, why, sizeof why) == PASS);
  CHECK(check_sum(0.5f + 513 * 0x1p-24f, wide, 8, why, sizeof why) == WRONG);
  CHECK(check_sum(0.5f - 513 * 0x1p-24f, wide, 8, why, sizeof why) == WRONG);
  /* Within the bound but off the 2^-24 grid that every partial sum of these inputs is on. */
  wide.K = 1ll << 20;
  CHECK(check_sum(0x1p-4f, wide, 8, why, sizeof why) == PASS);
  CHECK(check_sum(0x1p-4f + 0x1p-27f, wide, 8, why, sizeof why) == WRONG);
}

/* ---- inputs ------------------------------------------------------------------------------ */

enum Dist { ONES, ALTERNATING, UNIFORM, DIST_COUNT };
const char *dist_name(int d) {
  static const char *names[] = {"ones", "alternating", "uniform"};
  return names[d];
}

uint64_t splitmix64(uint64_t *s) {
  uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* x_i = k_i * 2^-24; uniform k in [-2^24, 2^24), so x in [-1, 1). */
Truth make_input(int dist, uint64_t n, uint64_t seed, std::vector<float> *x) {
  Truth t;
  x->resize(n);
  for (uint64_t i = 0; i < n; i++) {
    int64_t k;
    if (dist == ONES) k = 1 << 24;
    else if (dist == ALTERNATING) k = (i % 2 == seed % 2) ? (1 << 24) : -(1 << 24);
    else k = (int64_t)(splitmix64(&seed) >> 39) - (1 << 24);
    (*x)[i] = ldexpf((float)k, -24);
    t.K += k;
    t.A += k < 0 ? -k : k;
    if (k) {
      int z = 0;
      while (!((k >> z) & 1)) z++;
      if (z < t.tz) t.tz = z;
    }
  }
  return t;
}

/* ---- running one variant ----------------------------------------------------------------- */

/* A result expectation. For a correct variant a miss is a test failure; while a known-bug
 * mutant runs, misses are only counted (each mutant must be caught at least once). */
bool g_mutant_run = false;
unsigned g_mutant_misses = 0;
#define EXPECT(cond, ...) do { \
    if (g_mutant_run) g_mutant_misses += !(cond); \
    else CHECK_MSG(cond, __VA_ARGS__); \
  } while (0)

struct Env {
  rf_device_info dev;
  bool sim = false;
  unsigned wave = 32;
  int sched = 0;
  Buffer in, out, scratch;
};

struct Tally {
  unsigned runs = 0, passed = 0, unsupported = 0;
};

/* Launches once with poisoned output and scratch; returns the result bits (or poison). */
bool launch_once(Env &e, const rf_variant *v, const rf_launch_args &a, size_t scratch_floats,
                 uint32_t *bits, const char *what) {
  const LaunchReport r = launch_poisoned(e.out, e.scratch, v, a, 1, scratch_floats, bits);
  EXPECT(r.error() == 0, "%s: launch %d sync %d error %d (%s)", what, r.rc, r.sync, r.last,
         rf_dev_error_string(r.error()));
  EXPECT(r.status == RF_DEV_STATUS_OK, "%s: simulator status %d: %s", what, r.status, r.msg);
  EXPECT(r.out_guard == 0, "%s: %zu floats past the output overwritten", what, r.out_guard);
  EXPECT(r.scratch_guard == 0, "%s: %zu floats past the scratch overwritten", what,
         r.scratch_guard);
  return r.ok();
}

void run_variant(Env &e, const rf_variant *v, uint64_t n, size_t offset, const Truth &t,
                 int dist, uint32_t block, uint32_t grid, uint32_t items, Tally *tally) {
  rf_launch_cfg cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.n = n;
  cfg.block = block;
  cfg.grid = grid;
  cfg.items = items;
  cfg.wave = e.wave;
  cfg.num_cus = e.dev.num_cus;
  char what[256];
  snprintf(what, sizeof what, "%s n=%llu %s offset=%zu block=%u grid=%u items=%u wave=%u sched=%d",
           v->name, (unsigned long long)n, dist_name(dist), offset, block, grid, items, e.wave,
           e.sched);
  tally->runs++;
  const char *why = v->configure(&cfg);
  if (why) {
    /* Only these requests may be refused: the block the variant cannot run. */
    const bool expected = (block & (block - 1)) != 0 || block % e.wave != 0;
    if (!g_mutant_run)   /* a mutant's refusal is no catch */
      CHECK_MSG(expected && why[0], "%s: unexpectedly unsupported: %s", what, why);
    tally->unsupported++;
    return;
  }
  rf_plan plan;
  memset(&plan, 0, sizeof plan);
  v->plan(&cfg, &plan);
  const uint64_t h = rf_plan_depth(&plan);
  if (!g_mutant_run) {   /* metadata: checked for the correct variants only */
    CHECK_MSG(cfg.block >= 1 && cfg.block <= 1024 && cfg.grid >= 1,
              "%s: resolved block %u grid %u", what, cfg.block, cfg.grid);
    /* Any binary combining tree over n leaves has a leaf at depth >= ceil(log2 n). */
    CHECK_MSG(n == 0 ? h == 0 : h >= rf_ceil_log2(n) && h >= 1, "%s: plan depth %llu", what,
              (unsigned long long)h);
  }
  const size_t scratch_bytes = v->scratch_bytes(&cfg);
  const size_t scratch_floats = (scratch_bytes + sizeof(float) - 1) / sizeof(float);
  e.scratch.reserve(scratch_floats + kGuardFloats);

  rf_launch_args a;
  memset(&a, 0, sizeof a);
  a.x = e.in.p + offset;
  a.out = e.out.p;
  a.scratch = scratch_bytes ? e.scratch.p : nullptr;
  a.cfg = cfg;
  uint32_t bits = kPoisonBits;
  bool ok = launch_once(e, v, a, scratch_floats, &bits, what);
  float got;
  memcpy(&got, &bits, sizeof got);
  char detail[256] = "";
  const Verdict verdict = check_sum(got, t, h, detail, sizeof detail);
  EXPECT(verdict == PASS, "%s: %s%s", what, bits == kPoisonBits ? "unwritten: " : "", detail);
  ok = ok && verdict == PASS;
  if (v->deterministic) {
    uint32_t again = kPoisonBits;
    ok = launch_once(e, v, a, scratch_floats, &again, what) && ok;
    EXPECT(again == bits, "%s: deterministic variant gave %08x then %08x", what, bits, again);
    ok = ok && again == bits;
  }
  tally->passed += ok;
}

/* Every variant over one input: the block and knob requests that matter for it. */
void run_input(Env &e, const std::vector<const rf_variant *> &vars, uint64_t n, size_t offset,
               const Truth &t, int dist, bool small, std::vector<Tally> *tallies) {
  static const uint32_t blocks_small[] = {0, 1, 32, 64, 96, 1024};
  static const uint32_t blocks_big[] = {0};
  static const uint32_t grids[] = {1, 3, 7};
  for (size_t vi = 0; vi < vars.size(); vi++) {
    const rf_variant *v = vars[vi];
    Tally *tally = &(*tallies)[vi];
    const uint32_t *blocks = small ? blocks_small : blocks_big;
    const size_t nb = small ? sizeof blocks_small / sizeof *blocks_small : 1;
    for (size_t b = 0; b < nb; b++) run_variant(e, v, n, offset, t, dist, blocks[b], 0, 0, tally);
    if (!small) continue;
    /* Grid and items requests (ignored by variants without those knobs). */
    for (uint32_t g : grids) run_variant(e, v, n, offset, t, dist, 64, g, 0, tally);
    run_variant(e, v, n, offset, t, dist, 32, 0, 1, tally);
    run_variant(e, v, n, offset, t, dist, 32, 0, 3, tally);
  }
}

/* Uploads x at `offset` floats into the input buffer, poison around it: a kernel that reads
 * before or past its input sums a NaN. */
void upload_input(Env &e, const std::vector<float> &x, size_t offset) {
  const size_t floats = x.size() + 4 + kGuardFloats;
  std::vector<uint32_t> bits(floats, kPoisonBits);
  if (!x.empty()) memcpy(&bits[offset], x.data(), x.size() * sizeof(float));
  e.in.reserve(floats);
  CHECK(rf_dev_upload(e.in.p, bits.data(), floats * sizeof(float)) == 0);
}

void run_all(Env &e, const std::vector<const rf_variant *> &vars, bool big,
             std::vector<Tally> *tallies) {
  static const uint64_t lengths[] = {0, 1, 2, 3, 4, 5, 31, 32, 33, 255, 256, 257, 1027, 4099};
  std::vector<float> x;
  for (uint64_t n : lengths)
    for (int dist = 0; dist < DIST_COUNT; dist++) {
      const Truth t = make_input(dist, n, 0x5eed + n, &x);
      for (size_t offset = 0; offset < 4; offset += kLight ? 3 : 1) {
        upload_input(e, x, offset);
        run_input(e, vars, n, offset, t, dist, true, tallies);
      }
    }
  if (!big) return;
  for (int dist = 0; dist < DIST_COUNT; dist++) {
    const Truth t = make_input(dist, kBigN, 0x5eed, &x);
    const size_t offset = dist;   /* aligned, then misaligned by 4 and 8 bytes */
    upload_input(e, x, offset);
    run_input(e, vars, kBigN, offset, t, dist, false, tallies);
  }
}

/* Special values, where IEEE fixes the result bits whatever the order: a sum of only -0 is
 * -0, of zeros of both signs +0, and +inf with -inf gives NaN (docs/ORACLE.md, "Sum"). */
void run_special(Env &e, const std::vector<const rf_variant *> &vars,
                 std::vector<Tally> *tallies) {
  enum { NEG_ZEROS, MIXED_ZEROS, INF_PAIR, KINDS };
  static const char *const names[KINDS] = {"all -0", "+0 and -0", "+inf and -inf"};
  for (uint64_t n : {1ull, 33ull, 1027ull})
    for (int kind = 0; kind < KINDS; kind++) {
      if (kind != NEG_ZEROS && n < 2) continue;
      std::vector<float> x(n, kind == INF_PAIR ? 1.0f : -0.0f);
      if (kind == MIXED_ZEROS) x[n / 2] = 0.0f;
      if (kind == INF_PAIR) {
        x[0] = INFINITY;
        x[n - 1] = -INFINITY;
      }
      upload_input(e, x, 0);
      for (size_t vi = 0; vi < vars.size(); vi++) {
        const rf_variant *v = vars[vi];
        rf_launch_cfg cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.n = n;
        cfg.wave = e.wave;
        cfg.num_cus = e.dev.num_cus;
        (*tallies)[vi].runs++;
        if (v->configure(&cfg)) {
          EXPECT(false, "%s: default launch refused", v->name);
          (*tallies)[vi].unsupported++;
          continue;
        }
        const size_t scratch_bytes = v->scratch_bytes(&cfg);
        const size_t scratch_floats = (scratch_bytes + sizeof(float) - 1) / sizeof(float);
        e.scratch.reserve(scratch_floats + kGuardFloats);
        rf_launch_args a;
        memset(&a, 0, sizeof a);
        a.x = e.in.p;
        a.out = e.out.p;
        a.scratch = scratch_bytes ? e.scratch.p : nullptr;
        a.cfg = cfg;
        char what[160];
        snprintf(what, sizeof what, "%s n=%llu %s", v->name, (unsigned long long)n, names[kind]);
        uint32_t bits = kPoisonBits;
        bool ok = launch_once(e, v, a, scratch_floats, &bits, what);
        const bool right = kind == NEG_ZEROS   ? bits == 0x80000000u
                           : kind == MIXED_ZEROS ? bits == 0u
                                                 : (bits & 0x7fffffffu) > 0x7f800000u &&
                                                       bits != kPoisonBits;
        EXPECT(right, "%s: result bits %08x", what, bits);
        (*tallies)[vi].passed += ok && right;
      }
    }
}

/* Every sum mutant in the registry (REDFUZZ_MUTANTS builds) must fail some run of this
 * harness on the simulator: it shows the checks catch real kernel bugs, not only planted
 * numbers. The huge-only mutants are left out, as every sweep leaves them out: their bugs
 * show past 2^31 elements, far beyond this harness's sizes (kernels/huge_mutants.h;
 * scripts/bench-huge.sh catches them at their boundary). */
void test_harness_catches_mutants(Env &e) {
  std::vector<const rf_variant *> mutants;
  for (size_t i = 0; i < rf_variant_count(); i++) {
    const rf_variant *v = rf_variant_at(i);
    if (v->op == RF_OP_SUM && v->is_mutant && v->in_dtype == RF_DTYPE_F32 &&
        !rf_variant_huge_only(v))
      mutants.push_back(v);
  }
  if (e.sim) {
    e.wave = 32;
    e.sched = RF_SCHED_RANDOM;
    rf_dev_sim_configure(e.sched, 777, e.wave);
  }
  for (const rf_variant *m : mutants) {
    std::vector<Tally> tally(1);
    g_mutant_run = true;
    g_mutant_misses = 0;
    run_all(e, {m}, false, &tally);
    run_special(e, {m}, &tally);
    g_mutant_run = false;
    /* On a GPU a race or a divergent barrier may go unseen (hardware tolerates some), so
     * only the simulator, which reports them deterministically, must catch every mutant. */
    /* A missing device-scope fence is seen only by the race detector: the simulator's blocks
     * run one after another on sequentially consistent memory (docs/SIMULATOR.md), and this
     * harness is not built with ThreadSanitizer (cli.tsan_replay_fence_mutants is). */
    const bool needs_race_detector = strstr(m->name, "/mut-last-block-no-fence") != nullptr;
    /* A breach of the launch contract (work on the default stream, a synchronisation or an
     * allocation inside launch) computes the right sum: only the runner's contract window sees
     * it (run/runner.c; their cases in kernels/mutants/cases/sim/, which
     * cli.replay_mutant_cases replays), and this harness launches directly, on the default
     * stream itself. */
    const bool needs_contract_window = strstr(m->name, "/mut-default-stream") != nullptr ||
                                       strstr(m->name, "/mut-sync-in-launch") != nullptr ||
                                       strstr(m->name, "/mut-alloc-in-launch") != nullptr;
    if (e.sim && !needs_race_detector && !needs_contract_window)
      CHECK_MSG(g_mutant_misses > 0, "mutant %s was not caught in %u runs", m->name,
                tally[0].runs);
    printf("%-30s %u of %u runs failed%s\n", m->name,
           tally[0].runs - tally[0].passed - tally[0].unsupported, tally[0].runs,
           g_mutant_misses ? "" : " (not caught)");
  }
}

}  // namespace

int main() {
  test_checker_catches_planted_errors();

  Env e;
  CHECK(rf_dev_info(&e.dev) == 0);
  e.sim = e.dev.backend && strcmp(e.dev.backend, "sim") == 0;
  e.out.reserve(1 + kGuardFloats);
  std::vector<const rf_variant *> vars;
  for (size_t i = 0; i < rf_variant_count(); i++) {
    const rf_variant *v = rf_variant_at(i);
    /* float32 inputs: the 16-bit variants are checked by sweeps (tests/cli) */
    if (v->op == RF_OP_SUM && !v->is_mutant && v->in_dtype == RF_DTYPE_F32) vars.push_back(v);
  }
  CHECK(vars.size() == 8);
  /* n = 2^24 takes minutes on the simulator: there only on request (RF_SUM_TEST_BIG=1). */
  const char *big_env = getenv("RF_SUM_TEST_BIG");
  const bool big = big_env ? strcmp(big_env, "0") != 0 : !e.sim;

  std::vector<Tally> tallies(vars.size());
  if (e.sim) {
    /* Wave 32 (gfx1201, NVIDIA) and 64 (CDNA); a seeded random schedule and in order. */
    const int scheds[] = {RF_SCHED_RANDOM, RF_SCHED_IN_ORDER};
    for (unsigned wave : {32u, 64u})
      for (int sched : scheds) {
        if (kLight && (wave != 32 || sched != RF_SCHED_RANDOM)) continue;
        e.wave = wave;
        e.sched = sched;
        rf_dev_sim_configure(sched, 12345, wave);
        run_all(e, vars, big && wave == 32 && sched == RF_SCHED_RANDOM, &tallies);
        run_special(e, vars, &tallies);
      }
  } else {
    e.wave = e.dev.wave;
    run_all(e, vars, big, &tallies);
    run_special(e, vars, &tallies);
  }
  printf("device %s (%s), wave %u, %u CUs; n = 2^24 %s%s\n", e.dev.name, e.dev.backend,
         e.dev.wave, e.dev.num_cus, big ? "included" : "skipped",
         kLight ? "; light matrix (sanitizer build)" : "");
  fflush(stdout);
  for (size_t i = 0; i < vars.size(); i++)
    printf("%-22s %5u runs: %5u pass, %4u unsupported, %u failed\n", vars[i]->name,
           tallies[i].runs, tallies[i].passed, tallies[i].unsupported,
           tallies[i].runs - tallies[i].passed - tallies[i].unsupported);
  /* Under ThreadSanitizer a racing mutant's launches crawl (each race is reported), so the
   * mutant check runs in the plain and AddressSanitizer builds only. */
  if (kTsan) printf("mutants skipped (ThreadSanitizer build)\n");
  else test_harness_catches_mutants(e);
  return rf_test_done();
}

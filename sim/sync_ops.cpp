/* The kernel-facing scheduling points: block barriers, wave collectives and LDS
 * declarations, plus __threadfence and the atomics' hook. */
#include <string.h>
#include "engine.h"
#include "sanitizer_hooks.h"

namespace rf_sim {

/* Two spellings of one file name (the same __FILE__ from two translation units whose
 * literals were not merged). Out of line: a call on the common path (the pointers equal)
 * would make the barrier save and restore callee-saved registers at every arrival. */
__attribute__((noinline, cold)) static bool same_file(const char *f1, const char *f2) {
  return strcmp(f1, f2) == 0;
}

static bool same_site(const char *f1, int l1, const char *f2, int l2) {
  return l1 == l2 && (f1 == f2 || same_file(f1, f2));
}

/* Kept out of line: the barrier's frame stays small. */
__attribute__((noinline, cold)) static Fiber *outside_kernel(const char *what, const char *file,
                                                             int line) {
  abandon_from_host(RF_SIM_LAUNCH_ERROR, "%s outside a kernel at %s:%d", what, short_path(file),
                    line);
  return nullptr;
}

/* The calling GPU thread, or null (a launch error) when the host called. `current` is the
 * host's record whenever no GPU thread runs, outside launches too (engine.h), and a GPU
 * thread's only inside one. */
static Fiber *running_fiber(const char *what, const char *file, int line) {
  Engine &e = engine();
  Fiber *f = e.current.get();
  if (__builtin_expect(f == &e.host, 0)) return outside_kernel(what, file, line);
  return f;
}

/* ---- ordered arrivals ---------------------------------------------------------------- */

/* In-order and reverse, plain build. The running thread is the lowest (in-order) or highest
 * (reverse) runnable thread: the schedule picked it, and no thread becomes runnable while it
 * runs (only a barrier's or wave's completion adds threads, and a pick follows it). So when it
 * arrives, the thread the schedule runs next is its neighbour self + order_step whenever that
 * one is runnable, which in a phase (every thread runnable) it is; its record lies next to
 * self's. The switch takes the neighbour's address from self's, not from a search of the run
 * set: its loads start without waiting for the set's word and a bit search, and the word only
 * confirms the guess, in a branch the CPU predicts (a switch's time is a chain of dependent
 * loads: docs/SIMULATOR.md, "Ordered arrivals"). Null when the guess fails (the neighbour has
 * ended or lies in another word of the set): suspend searches. The same thread as suspend's
 * search whenever it answers; sim.test_trace_pin pins the interleavings. */
static inline bool ordered(const Engine &e) {
  return !san::tsan && !san::asan && e.order_step != 0;
}

/* Self leaves the run set at a barrier or wave operation; under ThreadSanitizer it releases
 * what it did to `sync`, the barrier generation's or the wave operation's. Returns the thread
 * to run next when the ordered path knows it (above), else null: suspend searches. */
__attribute__((always_inline)) static inline Fiber *leave(Engine &e, Fiber *self,
                                                          uintptr_t sync) {
  unsigned i = self->index;
  if (!ordered(e)) {
    e.run.remove(i);
    if (san::tsan) {
      self->sync.set(sync);
      san::release(sync);
    }
    return nullptr;
  }
  uint64_t rest = e.run.remove_unranked(i);  // never the random schedule
  unsigned j = i + e.order_step;  // -1 wraps: another word
  return (j >> 6) == (i >> 6) && (rest >> (j & 63) & 1) ? self + e.order_step : nullptr;
}

/* ---- __syncthreads ------------------------------------------------------------------ */

/* The barrier is split so that an arrival makes no call but the tail call that suspends
 * it: syncthreads itself then needs no callee-saved registers (no pushes and pops, one
 * stack line fewer per switch). The rarer parts are functions of their own, tail-called:
 * an arrival from another call site than the generation's first (or one spelt with
 * another file-name pointer), and the last arrival, which completes the generation. */

/* Every thread is here: the generation completes and a new phase starts. (Each thread
 * marks itself running when it resumes: no pass over all the records here.) */
__attribute__((noinline)) static void barrier_complete(Fiber *self) {
  Engine &e = engine();
  BarrierState &b = e.barrier;
  if (b.mismatch.get()) abandon_divergent();
  b.arrived.set(0);
  e.run.fill(e.nthreads);
  e.skew_wave.set(e.rng.below(e.nwaves));
  yield(self);  // tail calls: both mark self running again (engine.cpp, resumed)
}

/* Thread self is the (n+1)-th of the generation to arrive, from file:line, which was
 * compared with the generation's site already. */
__attribute__((always_inline)) static inline void barrier_arrive(Engine &e, Fiber *self,
                                                                 unsigned n, const char *file,
                                                                 int line) {
  BarrierState &b = e.barrier;
  self->site_file.set(file);
  self->site_line.set(line);
  self->wait.set(kAtBarrier);
  Fiber *next = leave(e, self, b.sync.get());
  b.arrived.set(n + 1);
  if (n + 1 == e.nthreads)
    barrier_complete(self);
  else if (next)
    suspend_to(self, next);
  else
    suspend(self);
}

/* An arrival whose site's line or file-name pointer differs from the generation's first. */
__attribute__((noinline)) static void barrier_arrive_elsewhere(Fiber *self, unsigned n,
                                                               const char *file, int line) {
  Engine &e = engine();
  BarrierState &b = e.barrier;
  if (!same_site(b.file.get(), b.line.get(), file, line)) b.mismatch.set(true);
  barrier_arrive(e, self, n, file, line);
}

void syncthreads(const char *file, int line) {
  Engine &e = engine();
  Fiber *self = running_fiber("__syncthreads()", file, line);
  if (!self) return;
  BarrierState &b = e.barrier;
  unsigned n = b.arrived.get();
  if (n == 0) {
    b.file.set(file);
    b.line.set(line);
    if (san::tsan) b.sync.set(e.cells.take());  // a fresh sync object per barrier generation
  } else if (b.file.get() != file || b.line.get() != line) {
    return barrier_arrive_elsewhere(self, n, file, line);
  }
  barrier_arrive(e, self, n, file, line);
}

/* ---- wave collectives --------------------------------------------------------------- */

/* Source lane of lane `lane` (HIP's definitions, amd_warp_functions.h / the CUDA guide):
 * width splits the wave into segments; up/down out of the segment and xor past its end
 * read the lane's own value; __shfl takes the source lane modulo width. */
static unsigned source_lane(unsigned lane, int kind, int arg, int width, unsigned wave) {
  long long self = lane, w = width, seg = self & ~(w - 1);
  long long src;
  switch (kind) {
    case SHFL_UP:
      src = self - arg;
      if (src < seg) src = self;
      break;
    case SHFL_DOWN: src = ((self & (w - 1)) + arg >= w) ? self : self + arg; break;
    case SHFL_XOR:
      src = self ^ arg;
      if (src >= ((self + w) & ~(w - 1))) src = self;
      break;
    default: src = (arg & (w - 1)) + seg; break;
  }
  return static_cast<unsigned>(src) & (wave - 1);  // the hardware lane index wraps
}

/* The lanes of wave w: a whole wave, or the block's last, partial one. */
static inline unsigned wave_lanes(const Engine &e, unsigned w) {
  unsigned first = w * e.wave;
  return e.nthreads - first < e.wave ? e.nthreads - first : e.wave;
}

static void complete_wave(unsigned w) {
  Engine &e = engine();
  unsigned first = w * e.wave;
  unsigned lanes = wave_lanes(e, w);
  for (unsigned l = 0; l < lanes; l++) {
    Fiber &f = e.fiber(first + l);
    unsigned src = source_lane(l, f.xkind.get(), f.xarg.get(), f.xwidth.get(), e.wave);
    // A lane past the end of a partial wave does not exist: it reads as poison.
    f.xout.set(src < lanes ? e.fiber(first + src).xin.get() : kPoisonBits);
    f.wait.set(kRunning);
  }
  e.run.add_span(first, lanes);  // every lane had left the set when it arrived
  e.waves[w].arrived.set(0);
}

/* Split like the barrier above: the common arrival makes no call but its tail call. */

[[noreturn]] __attribute__((noinline, cold)) static void bad_width(const char *file, int line,
                                                                   int width) {
  abandon_in_fiber(RF_SIM_LAUNCH_ERROR,
                   "launch error: wave operation at %s:%d with width %d (must be a power of "
                   "two <= warpSize %u)",
                   short_path(file), line, width, engine().wave);
}

/* Self is the last lane of its wave to arrive: every lane receives its value. */
__attribute__((noinline)) static uint32_t wave_complete(Fiber *self) {
  Engine &e = engine();
  unsigned w = self->index >> e.wave_shift;
  if (e.waves[w].mismatch.get()) abandon_divergent();
  complete_wave(w);
  return yield(self);  // tail calls: the result is self->xout (engine.cpp, resumed)
}

/* Self, whose exchange arguments are stored, is the (n+1)-th lane of its wave to arrive,
 * from file:line, which was compared with the collective's site already. */
__attribute__((always_inline)) static inline uint32_t wave_arrive(Engine &e, Fiber *self,
                                                                  unsigned n, const char *file,
                                                                  int line) {
  unsigned w = self->index >> e.wave_shift;
  WaveState &ws = e.waves[w];
  self->site_file.set(file);
  self->site_line.set(line);
  self->wait.set(kAtWave);
  Fiber *next = leave(e, self, ws.sync.get());
  ws.arrived.set(n + 1);
  if (n + 1 == wave_lanes(e, w)) return wave_complete(self);
  return next ? suspend_to(self, next) : suspend(self);
}

/* An arrival whose site's line or file-name pointer differs from the collective's first. */
__attribute__((noinline)) static uint32_t wave_arrive_elsewhere(Fiber *self, unsigned n,
                                                                const char *file, int line) {
  Engine &e = engine();
  WaveState &ws = e.waves[self->index >> e.wave_shift];
  if (!same_site(ws.file.get(), ws.line.get(), file, line)) ws.mismatch.set(true);
  return wave_arrive(e, self, n, file, line);
}

uint32_t wave_exchange(uint32_t bits, int kind, int arg, int width, const char *file, int line) {
  Engine &e = engine();
  Fiber *self = running_fiber("wave operation", file, line);
  if (!self) return bits;
  if (width <= 0 || (width & (width - 1)) || static_cast<unsigned>(width) > e.wave)
    bad_width(file, line, width);
  self->xin.set(bits);
  self->xkind.set(kind);
  self->xarg.set(arg);
  self->xwidth.set(width);
  WaveState &ws = e.waves[self->index >> e.wave_shift];
  unsigned n = ws.arrived.get();
  if (n == 0) {
    ws.file.set(file);
    ws.line.set(line);
    if (san::tsan) ws.sync.set(e.cells.take());  // a fresh sync object per (wave, collective)
    ws.mismatch.set(false);
  } else if (ws.file.get() != file || ws.line.get() != line) {
    return wave_arrive_elsewhere(self, n, file, line);
  }
  return wave_arrive(e, self, n, file, line);
}

/* ---- memory ordering ---------------------------------------------------------------- */

// __threadfence publishes this thread's earlier writes; a later fence or atomic of any
// thread observes them. An over-approximation of the GPU memory model that keeps the
// usual "write, fence, atomic counter" pattern free of false race reports.
static char fence_sync;

void threadfence() {
  if (engine().gate_armed) wait_for_earlier_blocks();  // parallel blocks (parallel.cpp)
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  san::release(reinterpret_cast<uintptr_t>(&fence_sync));
  san::acquire(reinterpret_cast<uintptr_t>(&fence_sync));
}

// An LDS atomic concerns its block alone: it does not wait.
void atomic_gate(const void *p) {
  Engine &e = engine();
  if (e.gate_armed && !e.lds.contains(p)) wait_for_earlier_blocks();
}

void atomic_observed() { san::acquire(reinterpret_cast<uintptr_t>(&fence_sync)); }

/* ---- LDS --------------------------------------------------------------------------- */

void *lds_static(LdsSite *site, size_t bytes, size_t align, const char *file, int line) {
  Engine &e = engine();
  if (!running_fiber("RF_SHARED", file, line)) return nullptr;
  return e.lds.place(site, bytes, align, file, line, e.cells);
}

void *lds_dynamic() {
  Engine &e = engine();
  if (!running_fiber("RF_DYN_SHARED", "?", 0)) return nullptr;
  return e.lds.dynamic_base();
}

}  // namespace rf_sim

/* The kernel-facing scheduling points: block barriers, wave collectives and LDS
 * declarations, plus __threadfence and the atomics' hook. */
#include <stdarg.h>
#include <stdio.h>
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

/* The ballot of the wave's lanes: bit l set when lane l gave a nonzero value. */
__attribute__((noinline)) static uint64_t wave_ballot(Engine &e, unsigned first, unsigned lanes) {
  uint64_t b = 0;
  for (unsigned l = 0; l < lanes; l++)
    if (e.fiber(first + l).xin.get()) b |= uint64_t{1} << l;
  return b;
}

static void complete_wave(unsigned w) {
  Engine &e = engine();
  unsigned first = w * e.wave;
  unsigned lanes = wave_lanes(e, w);
  for (unsigned l = 0; l < lanes; l++) {
    Fiber &f = e.fiber(first + l);
    const int kind = f.xkind.get();
    if (__builtin_expect(kind == SHFL_BALLOT, 0)) {
      f.xout.set(static_cast<uint32_t>(wave_ballot(e, first, lanes) >> (32 * (f.xarg.get() & 1))));
    } else {
      unsigned src = source_lane(l, kind, f.xarg.get(), f.xwidth.get(), e.wave);
      // A lane past the end of a partial wave does not exist: it reads as poison.
      f.xout.set(src < lanes ? e.fiber(first + src).xin.get() : kPoisonBits);
    }
    f.wait.set(kRunning);
  }
  e.run.add_span(first, lanes);  // every lane had left the set when it arrived
  e.waves[w].arrived.set(0);
}

/* ---- masks of the `_sync` collectives (plain HIP, sim_plain_hip.h) ---------------------
 * CUDA's rule, which HIP's _sync functions share: each calling lane has its own bit set in
 * the mask, and every non-exited lane the mask names executes the same collective with the
 * same mask; a lane reads only from a lane its mask names (CUDA C++ Programming Guide, "Warp
 * Shuffle Functions" and "Warp Vote Functions"). On the simulator every existing lane of the
 * wave takes part in each collective (a lane that does not is a divergent wave operation
 * already), so a mask that omits a lane, names lanes calling with another mask, or lets a
 * lane read outside it is undefined behaviour on the hardware: status divergent-barrier,
 * naming the lane, its mask and the call site (bits of lanes past the wave's end, or past a
 * partial last wave's, are ignored, so a 64-bit full mask is right on a wave of 32). */
[[noreturn]] __attribute__((noinline, cold)) static void bad_mask(unsigned w, unsigned lane,
                                                                 const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void bad_mask(unsigned w, unsigned lane, const char *fmt, ...) {
  Engine &e = engine();
  const unsigned first = w * e.wave, lanes = wave_lanes(e, w);
  const uint64_t mask = e.fiber(first + lane).xmask.get();
  const rf_sim_uint3 t = thread_index_of(first + lane);
  char why[240];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(why, sizeof why, fmt, ap);
  va_end(ap);
  abandon_in_fiber(RF_SIM_DIVERGENT_BARRIER,
                   "divergent wave operation: block (%u,%u,%u) wave %u (threads %u..%u): lane "
                   "%u (thread (%u,%u,%u)) calls the wave operation at %s:%d with mask "
                   "0x%016llx, %s%s",
                   e.block_x.get(), e.block_y.get(), e.block_z.get(), w, first,
                   first + lanes - 1, lane, t.x, t.y, t.z, short_path(e.waves[w].file.get()),
                   e.waves[w].line.get(), static_cast<unsigned long long>(mask), why,
                   e.wave > 32 && (mask >> 32) == 0
                       ? " (a 32-bit mask names lanes 0..31 only, and this wave has 64)"
                       : "");
}

__attribute__((noinline, cold)) static void check_masks(unsigned w) {
  Engine &e = engine();
  const unsigned first = w * e.wave, lanes = wave_lanes(e, w);
  const uint64_t exist = lanes >= 64 ? ~uint64_t{0} : (uint64_t{1} << lanes) - 1;
  const uint64_t m0 = e.fiber(first).xmask.get() & exist;
  bool same = true;
  for (unsigned l = 1; l < lanes && same; l++) same = (e.fiber(first + l).xmask.get() & exist) == m0;
  if (same && m0 == exist) return;  // one mask naming every lane: the common case
  for (unsigned l = 0; l < lanes; l++) {
    const Fiber &f = e.fiber(first + l);
    const uint64_t m = f.xmask.get() & exist;
    if (!(m >> l & 1))
      bad_mask(w, l, "which omits the lane itself; every lane of the wave takes part (each "
               "calling lane must be in its mask)");
    for (uint64_t rest = m; rest; rest &= rest - 1) {
      const unsigned j = static_cast<unsigned>(__builtin_ctzll(rest));
      const uint64_t mj = e.fiber(first + j).xmask.get() & exist;
      if (mj != m)
        bad_mask(w, l, "which names lane %u, and lane %u calls it with mask 0x%016llx (every "
                 "lane a mask names must call with the same mask)", j, j,
                 static_cast<unsigned long long>(e.fiber(first + j).xmask.get()));
    }
    const int kind = f.xkind.get();
    if (kind == SHFL_BALLOT) continue;
    const unsigned src = source_lane(l, kind, f.xarg.get(), f.xwidth.get(), e.wave);
    if (src < lanes && !(m >> src & 1))
      bad_mask(w, l, "and reads lane %u, which the mask does not name (the value read is "
               "undefined)", src);
  }
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
  if (e.waves[w].masked.get()) check_masks(w);
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

__attribute__((always_inline)) static inline uint32_t exchange(uint32_t bits, int kind, int arg,
                                                              int width, uint64_t mask,
                                                              const char *file, int line) {
  Engine &e = engine();
  Fiber *self = running_fiber("wave operation", file, line);
  if (!self) return bits;
  if (width <= 0 || (width & (width - 1)) || static_cast<unsigned>(width) > e.wave)
    bad_width(file, line, width);
  self->xin.set(bits);
  self->xkind.set(kind);
  self->xarg.set(arg);
  self->xwidth.set(width);
  self->xmask.set(mask);
  WaveState &ws = e.waves[self->index >> e.wave_shift];
  unsigned n = ws.arrived.get();
  if (n == 0) {
    ws.file.set(file);
    ws.line.set(line);
    if (san::tsan) ws.sync.set(e.cells.take());  // a fresh sync object per (wave, collective)
    ws.mismatch.set(false);
    ws.masked.set(mask != kNoMask);
  } else if (ws.file.get() != file || ws.line.get() != line) {
    if (mask != kNoMask) ws.masked.set(true);
    return wave_arrive_elsewhere(self, n, file, line);
  } else if (mask != kNoMask) {
    ws.masked.set(true);
  }
  return wave_arrive(e, self, n, file, line);
}

uint32_t wave_exchange(uint32_t bits, int kind, int arg, int width, const char *file, int line) {
  return exchange(bits, kind, arg, width, kNoMask, file, line);
}

uint32_t wave_exchange_masked(uint32_t bits, int kind, int arg, int width, uint64_t mask,
                              const char *file, int line) {
  return exchange(bits, kind, arg, width, mask, file, line);
}

/* The lanes of the caller's wave that have not exited (__activemask): on the simulator every
 * one of them takes part in the wave's next collective. Not a scheduling point. */
uint64_t active_mask(const char *file, int line) {
  Engine &e = engine();
  Fiber *self = running_fiber("__activemask()", file, line);
  if (!self) return 0;
  const unsigned w = self->index >> e.wave_shift, first = w * e.wave, lanes = wave_lanes(e, w);
  uint64_t m = 0;
  for (unsigned l = 0; l < lanes; l++)
    if (e.fiber(first + l).wait.get() != kDone) m |= uint64_t{1} << l;
  return m;
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

// __threadfence_block orders the calling block's threads alone: a sync object of the block's
// own (Engine::block_fence_sync), so that it cannot hide a race between blocks the way a
// device-scope fence's would not either.
void threadfence_block() {
  __atomic_thread_fence(__ATOMIC_SEQ_CST);
  if (!san::tsan) return;
  Engine &e = engine();
  uintptr_t sync = e.block_fence_sync.get();
  if (!sync) e.block_fence_sync.set(sync = e.cells.take());
  san::release(sync);
  san::acquire(sync);
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

/* Launches: the grid runs block by block on the calling thread (or, with parallel blocks,
 * on worker threads: parallel.cpp); inside a block every GPU thread is a fiber, and a fiber
 * runs until it reaches a barrier, a wave operation or its end, then hands over directly to
 * the next fiber the schedule picks. */
#include "engine.h"
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <mutex>
#include <vector>
#include "context.h"
#include "fiber_stacks.h"
#include "sanitizer_hooks.h"
#include "status.h"

namespace rf_sim {

__thread const ThreadView *current_view = nullptr;
LaunchView launch_view;
int wave_size = 32;

Engine the_engine;
__thread Engine *this_engine = &the_engine;
void (*coverage_hook)(CoveragePhase) = nullptr;
void (*coverage_quiet)(bool) = nullptr;
void (*coverage_fold_mode)(int) = nullptr;
bool coverage_cmp_all = false;
bool coverage_counters = false;

// Happens-before edges with the host: the host releases host_to_kernel after preparing a
// block, every fiber acquires it when it starts; every fiber releases kernel_to_host when
// it ends, the host acquires it after the grid. Nothing orders one block after another.
static char host_to_kernel, kernel_to_host;

static const ThreadView host_view{};

const char *short_path(const char *file) {
#ifdef RF_SIM_SOURCE_ROOT
  size_t n = strlen(RF_SIM_SOURCE_ROOT);
  if (file && strncmp(file, RF_SIM_SOURCE_ROOT, n) == 0) return file + n;
#endif
  return file ? file : "?";
}

rf_sim_uint3 thread_index_of(unsigned linear) {
  const dim3 &b = launch_view.block_dim;
  // One-dimensional blocks (nearly every kernel's) without the three divisions: they were
  // the longest stall of a thread's start (perf, docs/SIMULATOR.md "Performance").
  if (b.y == 1 && b.z == 1) return rf_sim_uint3{linear, 0, 0};
  return rf_sim_uint3{linear % b.x, linear / b.x % b.y, linear / (b.x * b.y)};
}

/* ---- switching ------------------------------------------------------------------------ */

static FiberStacks &stacks() {
  static FiberStacks s;
  return s;
}

static void runner();

/* See "ThreadSanitizer identities" below. */
static constexpr unsigned kTsanSet = 125;

/* ThreadSanitizer build: stack i of set s runs thread i of that set's blocks only. */
static Stack dedicated[san::tsan ? 2 : 1][san::tsan ? kMaxBlockThreads : 1];

static void make_stack(Stack *s, unsigned number) {
  stacks().get(number, &s->lo, &s->size);
  s->own.sp = context_make(s->lo + s->size, s->size, runner);
}

static void *tsan_identity(unsigned set, unsigned member);

/* An idle stack of the pool (plain and AddressSanitizer builds), or null when none is
 * left; release_stack gives it back. */
static inline Stack *take_free_stack(Engine &e) {
  Stack *s = e.free_stacks;
  if (s) e.free_stacks = s->next_free;
  return s;
}

/* An idle stack for thread t, which has not started. */
static Stack *stack_for(Fiber *t) {
  Engine &e = engine();
  if (san::tsan) return &dedicated[e.identity_set.get()][t->index];  // made by prepare_records
  if (Stack *s = take_free_stack(e)) return s;
  Stack *s = &e.pool[e.stacks_made];
  make_stack(s, e.worker * kMaxBlockThreads + e.stacks_made++);  // numbers apart per worker
  return s;
}

static void release_stack(Stack *s) {
  if (san::tsan) return;  // dedicated: nothing to give back
  Engine &e = engine();
  s->next_free = e.free_stacks;
  e.free_stacks = s;
}

/* The stacks of the block's threads do not all fit in the first-level cache, and each switch
 * resumes a stack that was left a whole round earlier: its few lines (saved registers, the
 * frames between the kernel and the switch) come from the second level, one dependent load
 * after another. While `next` runs, the lines of the thread the schedule will most likely
 * pick after it are fetched: in-order runs a phase's threads in ascending order, reverse in
 * descending order (the others are not predicted). A wrong guess costs a few wasted loads. */
static constexpr size_t kPrefetchBytes = 320;

static inline void prefetch_after(Fiber *next) {
  // Not under ThreadSanitizer: a switch that follows a thread's end would read launch
  // constants after the thread's last release (see runner), a race in the instrumented build.
  if (san::tsan) return;
  Engine &e = engine();
  int step = e.order_step;
  if (!step) return;
  // The record two ahead (its stack pointer is read at the next switch), the stack one ahead.
  // Records are contiguous (next is record next->index): no reload of the records' base.
  unsigned k1 = next->index + step;
  if (k1 >= e.nthreads) return;  // past either end (-1 wraps), and so is the one after it
  Fiber &f = next[step];
  if (k1 + step < e.nthreads) __builtin_prefetch(&f + step);
  const Stack *idle = e.free_stacks;
  const char *sp = static_cast<const char *>(f.stack.get() ? f.sp : idle ? idle->own.sp : nullptr);
  if (!sp) return;
  for (size_t b = 0; b < kPrefetchBytes; b += 64) __builtin_prefetch(sp + b);
}

/* Leaves the running code for thread `next` (or the host when null); the running context is
 * saved in *save. A thread that has not started gets an idle stack, where the runner loop
 * starts it. Returns when some switch resumes *save. Every case: the out-of-line path of
 * transfer below (and the only one of the sanitizer builds). */
__attribute__((noinline)) static void transfer_any(void **save, Fiber *next) {
  Engine &e = engine();
  Stack *target;
  void *to;
  if (!next) {
    next = &e.host;
    target = &e.host_stack;
    to = target->own.sp;
  } else if (Stack *s = next->stack.get()) {
    target = s;
    to = next->sp;
  } else {
    target = stack_for(next);
    next->stack.set(target);
    to = target->own.sp;
  }
  if (coverage_hook) coverage_hook(kCoverageSegment);
  if (next != &e.host) prefetch_after(next);
  e.current.set(next);
  __atomic_store_n(&current_view, next == &e.host ? &host_view : &next->view, __ATOMIC_RELAXED);
  san::switch_to(target->tsan);
  void *fake_stack = nullptr;
  san::start_switch(&fake_stack, target->lo, target->size);
  if (san::asan) e.switched_from = e.running_stack.get();
  e.running_stack.set(target);
  context_switch(save, to);
  // Resumed.
  if (san::asan) {
    const void *bottom = nullptr;
    size_t size = 0;
    san::finish_switch(fake_stack, &bottom, &size);
    if (e.switched_from == &e.host_stack && bottom) {
      e.host_stack.lo = static_cast<char *>(const_cast<void *>(bottom));
      e.host_stack.size = size;
    }
  }
}

/* The same switch. Inline, the common cases of the plain build only, without a coverage
 * hook: to a thread that has started (nearly every switch at a barrier or wave operation),
 * or to one that starts on an idle stack of the pool. What transfer_any does then, minus its
 * tests; the rarer cases are a call, so that the inline part holds nothing across a call but
 * the switch itself and the callers keep only their own values in callee-saved registers
 * (fewer pushes and pops, fewer stack lines per switch). A start inline too: a thread that
 * hands over to a starting thread then waits with the same frames (park, then the switch)
 * as one that hands over to a started one, so the return that resumes it is the one the CPU
 * predicts (docs/SIMULATOR.md, "Thread ends through park"). sim.test_trace_pin pins the
 * interleavings either path gives. */
__attribute__((always_inline)) static inline void transfer(void **save, Fiber *next) {
  Engine &e = engine();
  Stack *s = nullptr;
  void *to = nullptr;
  if (!san::tsan && !san::asan && next && !coverage_hook) {
    if ((s = next->stack.get())) {
      to = next->sp;
    } else if ((s = take_free_stack(e))) {
      next->stack.set(s);
      to = s->own.sp;
    }
  }
  if (!s) {  // a sanitizer build, the host, the coverage hook, or a stack to make
    transfer_any(save, next);
    return;
  }
  prefetch_after(next);
  e.current.set(next);
  __atomic_store_n(&current_view, &next->view, __ATOMIC_RELAXED);
  e.running_stack.set(s);
  context_switch(save, to);
}

/* In-order and reverse inline here (the same choice pick_next makes: lowest / highest
 * runnable), the other schedules through pick_next: the common switch makes no call.
 * In-order expected: a compare and a branch instead of the jump table the compiler makes
 * of the four cases (an indirect jump at every switch). */
__attribute__((always_inline)) static inline Fiber *next_runnable() {
  Engine &e = engine();
  int i = __builtin_expect(e.schedule == RF_SIM_SCHED_IN_ORDER, 1) ? e.run.lowest()
          : e.schedule == RF_SIM_SCHED_REVERSE
              ? e.run.highest()
              : pick_next(e.run, e.schedule, e.rng, e.skew_wave.get(), e.wave, e.nthreads);
  return i < 0 ? nullptr : &e.fiber(i);
}

static void count_switch() {
  Engine &e = engine();
  uint64_t n = e.switches.get() + 1;
  e.switches.set(n);
  if (san::tsan) {
    watchdog_poll(n);  // no timer there (watchdog.cpp says why)
    // A race found is the launch's verdict (the first problem wins), so the launch ends at
    // the next switch: what it would run after that only raises more reports of the same
    // race, each symbolised by the runtime before the hook can drop it (about a millisecond
    // a report; a racy tree raised ~1,600 a launch and a sweep of it crawled, issue 47).
    if (race_pending()) abandon_in_fiber(RF_SIM_RACE, "race");
  }
  // Relaxed load: the watchdog (its signal handler, or watchdog_poll above) lowers the
  // budget to 0 at the launch's limit or at a stop (watchdog.cpp, stage 1), so this check
  // ends the launch at its next switch.
  if (n > __atomic_load_n(&e.budget, __ATOMIC_RELAXED)) {
    if (const int why = watchdog_fired()) {
      char what[300];
      describe_end(what, sizeof what);
      abandon_in_fiber(why, "%s", what);
    }
    abandon_in_fiber(RF_SIM_TIMEOUT,
                     "timeout: the launch exceeded the step budget of %llu thread switches",
                     static_cast<unsigned long long>(e.budget));
  }
}

static void check_abandoned() {
  if (engine().abort_code.get() != RF_SIM_OK) throw AbortUnwind{};
}

/* What a thread does when it runs again after a scheduling point: it is running, and
 * under ThreadSanitizer it acquires what the others released at that barrier or wave
 * operation. Here rather than in the callers, so that they end in a tail call (their frame
 * is gone before the switch: fewer stack lines to save and reload per switch). */
__attribute__((always_inline)) static inline uint32_t resumed(Fiber *self) {
  self->wait.set(kRunning);
  if (san::tsan) san::acquire(self->sync.get());
  return self->xout.get();
}

/* The switch itself, shared by every suspend_to and the runner's end of a thread (runner):
 * one call site of the switch for all of them, so that the return which resumes a waiting
 * thread goes where the CPU's return predictor expects. suspend_to reaches it by a tail call
 * (no frame of its own left between the kernel's call and this one). */
__attribute__((noinline)) static uint32_t park(Fiber *self, Fiber *next) {
  transfer(&self->sp, next);  // null: no runnable thread, the host decides
  check_abandoned();
  return resumed(self);
}

uint32_t suspend_to(Fiber *self, Fiber *next) {
  count_switch();
  return park(self, next);
}

uint32_t suspend(Fiber *self) { return suspend_to(self, next_runnable()); }

uint32_t yield(Fiber *self) {
  Fiber *next = next_runnable();
  if (next != self) {
    count_switch();
    transfer(&self->sp, next);
    check_abandoned();
  }
  return resumed(self);
}

/* ---- abandoning a launch ------------------------------------------------------------- */

static void abandon(int code, const char *fmt, va_list ap) {
  Engine &e = engine();
  if (e.abort_code.get() == RF_SIM_OK) {
    e.abort_code.set(code);
    // A parallel attempt reports nothing: the launch is re-run sequentially, and that run
    // reports (the first problem in the launch's order, with the sequential run's message).
    if (e.speculative)
      speculation_failed();
    else
      status_vreport(code, fmt, ap);
  }
}

void abandon_in_fiber(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  abandon(code, fmt, ap);
  va_end(ap);
  throw AbortUnwind{};
}

void abandon_from_host(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  abandon(code, fmt, ap);
  va_end(ap);
}

/* ---- threads and stacks ------------------------------------------------------------- */

/* Thread t ended (or was dropped by a fault): it leaves the block's bookkeeping. */
static void thread_ended(Fiber *t) {
  Engine &e = engine();
  t->wait.set(kDone);
  t->stack.set(nullptr);
  e.run.remove(t->index);
  e.done.set(e.done.get() + 1);
}

/* Runs thread t's kernel in the current block, on the running stack. */
static void run_thread(Fiber *t) {
  Engine &e = engine();
  san::acquire(reinterpret_cast<uintptr_t>(&host_to_kernel));
  t->view.thread_idx = thread_index_of(t->index);
  t->view.block_idx = rf_sim_uint3{e.block_x.get(), e.block_y.get(), e.block_z.get()};
  if (e.abort_code.get() == RF_SIM_OK) {
    try {
      e.invoke(e.pack);
    } catch (const AbortUnwind &) {
    }
  }
  thread_ended(t);
}

/* Every stack runs this loop. It runs the thread it was started for; when that thread ends
 * and the schedule's next thread has not started yet, the next one runs right here, as a
 * plain call on the same stack: a thread that runs to its end without a barrier costs no
 * switch and no stack of its own (plain and AddressSanitizer builds; under ThreadSanitizer
 * a stack belongs to one identity). Otherwise the stack becomes idle and control goes to
 * the next thread (or the host); the stack is resumed here when another thread starts on
 * it. Stacks live as long as the process: their frames and the sanitizers' shadow stacks
 * stay balanced. */
static void runner() {
  Engine &e = engine();
  if (san::asan) {  // the first arrival on this stack
    const void *bottom = nullptr;
    size_t size = 0;
    san::finish_switch(nullptr, &bottom, &size);
    if (e.switched_from == &e.host_stack && bottom) {
      e.host_stack.lo = static_cast<char *>(const_cast<void *>(bottom));
      e.host_stack.size = size;
    }
  }
  for (;;) {
    Stack *me = e.running_stack.get();
    Fiber *t = e.current.get();
    Fiber *next;
    for (;;) {
      run_thread(t);
      next = e.abort_code.get() == RF_SIM_OK ? next_runnable() : nullptr;
      // Last: everything this thread did in the launch, its reads of launch constants
      // included, happens before the host's next look at them.
      san::release(reinterpret_cast<uintptr_t>(&kernel_to_host));
      if (san::tsan || !next || next->stack.get()) break;
      if (coverage_hook) coverage_hook(kCoverageSegment);
      next->stack.set(me);
      e.current.set(next);
      __atomic_store_n(&current_view, &next->view, __ATOMIC_RELAXED);
      t = next;
    }
    release_stack(me);
    if (san::tsan || san::asan) {
      transfer(&me->own.sp, next);
      continue;
    }
    // Plain build: through park, the very switch a barrier arrival makes. The thread resumed
    // here waits in park too (at its last barrier), and its first return is then to the call
    // site the CPU's return predictor holds; from a switch of the runner's own, that return
    // and the two after it were mispredicted at every thread's end, about an eighth of a
    // 256-block sum (docs/SIMULATOR.md, "Thread ends through park"). The stack is resumed
    // the same way when a thread starts on it (transfer). Not a counted switch (the budget
    // counts barrier and wave switches), as before. The sanitizer builds keep the switch
    // above: park's resumption would make ThreadSanitizer acquire the record's sync object.
    try {
      park(&me->own, next);
    } catch (const AbortUnwind &) {
      // Resumed for a thread's start while the launch is being abandoned: run_thread ends it.
    }
  }
}

/* ---- faults (faults.cpp) ------------------------------------------------------------- */

// Launches from several host threads take turns; the fibers run on the launching thread
// (and, with parallel blocks, on the workers, which set it while they run blocks).
static thread_local bool launching;
void set_launching(bool on) { launching = on; }

bool fault_in_kernel_here(Fiber **f) {
  Engine &e = engine();
  Fiber *c = e.current.get();
  if (!launching || !e.in_launch || !c || c == &e.host) return false;
  *f = c;
  return true;
}

/* From the fault handler, on the faulting thread's stack: its frames are dropped (nothing in
 * a kernel frame needs destroying), the stack gets a fresh context and goes back to the
 * idle ones, and control goes to the host as if the block had been left. */
[[noreturn]] void fiber_restart(Fiber *f) {
  Engine &e = engine();
  Stack *s = f->stack.get();
  thread_ended(f);
  s->own.sp = context_make(s->lo + s->size, s->size, runner);
  release_stack(s);
  e.current.set(&e.host);
  __atomic_store_n(&current_view, &host_view, __ATOMIC_RELAXED);
  san::switch_to(e.host_stack.tsan);
  e.running_stack.set(&e.host_stack);
  static void *discarded;  // receives the abandoned context, never resumed
  context_switch(&discarded, e.host_stack.own.sp);
  __builtin_unreachable();
}

/* ---- blocks and launches ------------------------------------------------------------ */

/* ThreadSanitizer identities. Its runtime (v3) has 256 slots; an identity beyond them takes
 * over another's slot and silently inherits everything that identity did as happened-before
 * (races between the two go unreported). A detector identity is held for the life of the
 * process, so the simulator keeps a fixed pool well inside the slots:
 *  - the launching host thread keeps its own identity (GPU thread 0 is not the host: the
 *    host's releases between blocks must not carry a block's accesses to the next block);
 *  - two sets of kTsanSet identities, and consecutive blocks of the launch's order use
 *    different sets, so a block's accesses are never ordered before the next block's by
 *    program order (what HIP does not promise either); blocks two apart share a set, so a
 *    race between them alone is missed (a race with a neighbour is seen);
 *  - inside a block, thread i runs as identity i mod kTsanSet of its set: threads whose
 *    indices differ by a power of two (tree partners, wave lanes, shuffle partners) never
 *    share one, since kTsanSet is odd; threads 125 apart do (a race only between them is
 *    missed).
 * 2 x 125 identities + the host leave a few slots to the runner's other threads (judge
 * workers, the main thread). */
static void *tsan_identity(unsigned set, unsigned member) {
  static void *fibers[2][kTsanSet];  // host only
  void *&f = fibers[set][member];
  if (!f) {
    char name[48];
    snprintf(name, sizeof name, "rf-sim block set %u thread group %u", set, member);
    f = san::create_fiber(name);
  }
  return f;
}

/* Thread records [0, n) of set `set` know their index; under ThreadSanitizer their stacks
 * and identities exist. On the host: the detector's fibers are made where no GPU thread's
 * identity is current. */
static void prepare_records(unsigned set, unsigned n) {
  Engine &e = engine();
  for (unsigned i = 0; i < n; i++) {
    // Written once: a store every block would race with the fibers' reads in the
    // instrumented simulator (sim.tsan_instrumented_many_races).
    if (e.slot_sets[set][i].index != i) e.slot_sets[set][i].index = static_cast<uint16_t>(i);
    if (san::tsan && !dedicated[set][i].lo) {
      make_stack(&dedicated[set][i], set * kMaxBlockThreads + i);
      dedicated[set][i].tsan = tsan_identity(set, i % kTsanSet);
    }
  }
}

/* Block `position` of the launch's order runs on the records, stacks and identities of set
 * position mod 2. */
static void assign_identities(uint64_t position) {
  Engine &e = engine();
  unsigned set = static_cast<unsigned>(position & 1);
  e.identity_set.set(set);
  prepare_records(set, e.nthreads);
  e.fibers.set(e.slot_sets[set]);
}

/* Runs one block, the position-th of the launch's order, to its end; false when the launch
 * was abandoned. */
bool run_block(uint64_t linear, uint64_t position) {
  Engine &e = engine();
  if (san::tsan) assign_identities(position);
  const dim3 &g = launch_view.grid_dim;
  e.block_x.set(static_cast<uint32_t>(linear % g.x));
  e.block_y.set(static_cast<uint32_t>(linear / g.x % g.y));
  e.block_z.set(static_cast<uint32_t>(linear / (uint64_t{g.x} * g.y)));
  e.done.set(0);
  e.run.fill(e.nthreads);
  e.barrier.arrived.set(0);
  e.barrier.mismatch.set(false);
  for (unsigned w = 0; w < e.nwaves; w++) {
    e.waves[w].arrived.set(0);
    e.waves[w].mismatch.set(false);
  }
  e.block_fence_sync.set(0);
  e.rng.seed(mix64(e.seed ^ mix64(e.launch_index * 0x100000001b3ull + linear)));
  e.skew_wave.set(e.rng.below(e.nwaves));
  for (unsigned i = 0; i < e.nthreads; i++) e.fiber(i).wait.set(kRunning);
  e.lds.begin_block();
  san::release(reinterpret_cast<uintptr_t>(&host_to_kernel));

  transfer(&e.host_stack.own.sp, next_runnable());
  // Back on the host: the block ended, was abandoned, or no thread can run.
  if (e.done.get() != e.nthreads && e.abort_code.get() == RF_SIM_OK) {
    char msg[480];
    describe_stuck_block(msg, sizeof msg);
    abandon_from_host(RF_SIM_DIVERGENT_BARRIER, "%s", msg);
  }
  // Unwind every thread that has started and not ended, so its stack and detector state are
  // clean; a thread that never started just ends.
  for (unsigned i = 0; i < e.nthreads; i++) {
    Fiber &f = e.fiber(i);
    if (f.wait.get() == kDone) continue;
    if (f.stack.get())
      transfer(&e.host_stack.own.sp, &f);
    else
      thread_ended(&f);
  }
  e.lds.end_block();
  return e.abort_code.get() == RF_SIM_OK;
}

static const char *check_config(dim3 grid, dim3 block, size_t shmem) {
  static char why[160];
  uint64_t threads = uint64_t{block.x} * block.y * block.z;
  if (threads == 0 || threads > kMaxBlockThreads || block.x > 1024 || block.y > 1024 ||
      block.z > 64) {
    snprintf(why, sizeof why, "block (%u,%u,%u) is not 1..1024 threads", block.x, block.y, block.z);
    return why;
  }
  if (grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > 0x7fffffffu || grid.y > 65535 ||
      grid.z > 65535) {
    snprintf(why, sizeof why, "grid (%u,%u,%u) is empty or too large", grid.x, grid.y, grid.z);
    return why;
  }
  if (shmem > kLdsLimit) {
    snprintf(why, sizeof why, "dynamic LDS %zu bytes exceeds %zu", shmem, kLdsLimit);
    return why;
  }
  return nullptr;
}

static std::vector<uint64_t> block_order(uint64_t blocks) {
  Engine &e = engine();
  std::vector<uint64_t> order;
  if (e.schedule != RF_SIM_SCHED_RANDOM || blocks > (uint64_t{1} << 22)) return order;
  order.resize(blocks);
  for (uint64_t i = 0; i < blocks; i++) order[i] = i;
  Prng rng;
  rng.seed(mix64(e.seed ^ 0x5eedb10c5ull ^ mix64(e.launch_index)));
  for (uint64_t i = blocks; i > 1; i--) {  // Fisher-Yates
    uint64_t j = rng.next() % i;
    uint64_t t = order[i - 1];
    order[i - 1] = order[j];
    order[j] = t;
  }
  return order;
}

/* Worker threads: this thread's engine takes the launch the launching thread set up in
 * `from` (parallel.cpp), as launch() below sets up its own. */
void adopt_launch(Engine &to, const Engine &from, size_t shmem) {
  to.schedule = from.schedule;
  to.order_step = from.order_step;
  to.seed = from.seed;
  to.budget = from.budget;
  to.launch_index = from.launch_index;
  to.nthreads = from.nthreads;
  to.wave = from.wave;
  to.wave_shift = from.wave_shift;
  to.nwaves = from.nwaves;
  to.invoke = from.invoke;
  to.pack = from.pack;
  to.run.set_size(to.nthreads, to.schedule == RF_SIM_SCHED_RANDOM);
  to.running_stack.set(&to.host_stack);
  to.fibers.set(to.slot_sets[0]);
  prepare_records(0, to.nthreads);
  to.abort_code.set(RF_SIM_OK);
  to.switches.set(0);
  to.cells.reset();
  to.lds.begin_launch(shmem);
  to.in_launch = true;
}

/* Whether this launch may try its blocks on several threads (parallel.cpp). Not under the
 * sanitizers (ThreadSanitizer finds races between blocks, which needs them in one order;
 * AddressSanitizer's device memory is the heap, which the rollback cannot restore) nor with
 * kernel coverage (SanitizerCoverage's counters are global: two workers' stretches would
 * mix in one segment). */
static bool parallel_wanted(uint64_t blocks) {
  return rf_sim_threads() > 1 && blocks > 1 && blocks <= (uint64_t{1} << 22) && !san::tsan &&
         !san::asan && !coverage_hook && !coverage_counters;
}

static std::mutex launch_mutex;

void launch(dim3 grid, dim3 block, size_t shmem, hipStream_t stream, void (*invoke)(void *),
            void *pack, const char *file, int line) {
  Engine &e = engine();
  if (launching)  // a kernel launching a kernel: not part of the subset
    abandon_in_fiber(RF_SIM_LAUNCH_ERROR, "launch error: kernel launch inside a kernel at %s:%d",
                     short_path(file), line);
  contract_stream("a kernel launch", stream, file, line);  // inside a variant's launch: its stream
  std::lock_guard<std::mutex> lock(launch_mutex);
  if (const char *why = check_config(grid, block, shmem)) {
    e.last_error = shmem > kLdsLimit ? hipErrorInvalidValue : hipErrorInvalidConfiguration;
    status_report(RF_SIM_LAUNCH_ERROR, "launch error at %s:%d: %s", short_path(file), line, why);
    return;
  }
  launch_view.block_dim = block;
  launch_view.grid_dim = grid;
  e.nthreads = block.x * block.y * block.z;
  e.wave = static_cast<unsigned>(wave_size);
  e.wave_shift = e.wave == 64 ? 6 : 5;
  e.order_step = e.schedule == RF_SIM_SCHED_IN_ORDER  ? 1
                 : e.schedule == RF_SIM_SCHED_REVERSE ? -1
                                                      : 0;
  e.nwaves = (e.nthreads + e.wave - 1) / e.wave;
  e.invoke = invoke;
  e.pack = pack;
  e.run.set_size(e.nthreads, e.schedule == RF_SIM_SCHED_RANDOM);  // random draws by rank
  void *host_identity = san::current_fiber();  // written only when it changes (see above)
  if (e.host_stack.tsan != host_identity) e.host_stack.tsan = host_identity;
  e.running_stack.set(&e.host_stack);
  e.identity_set.set(0);
  e.fibers.set(e.slot_sets[0]);
  prepare_records(0, e.nthreads);
  race_reporting_linked();
  install_oob_reporting();
  install_fault_handling();
  e.abort_code.set(RF_SIM_OK);
  e.switches.set(0);
  e.cells.reset();
  e.lds.begin_launch(shmem);
  e.launch_index++;

  uint64_t blocks = uint64_t{grid.x} * grid.y * grid.z;
  if (interrupt_requested()) {  // a stop was asked for: no launch starts (sim_control.h)
    status_report(RF_SIM_INTERRUPTED, "interrupted: not run, a stop was asked for (SIGINT or "
                  "SIGTERM)");
    e.last_error = hipErrorLaunchFailure;
    return;
  }
  std::vector<uint64_t> order = block_order(blocks);
  bool parallel = parallel_wanted(blocks);
  if (parallel && order.empty()) {
    order.resize(blocks);
    for (uint64_t k = 0; k < blocks; k++)
      order[k] = e.schedule == RF_SIM_SCHED_REVERSE ? blocks - 1 - k : k;
  }
  if (coverage_hook) coverage_hook(kCoverageBegin);
  e.in_launch = true;
  launching = true;
  // A launch past 2^22 threads runs under a budget that grows with it (sim_control.h); the
  // set budget is back for the next launch. Before the watchdog, which keeps what it finds.
  // Atomic stores: the GPU threads of the last launch read it atomically (count_switch), and
  // the instrumented TSan build sees the simulator's own accesses.
  // So does one over many elements: 16 switches an element, where a correct kernel with a
  // barrier per tile of a block's width makes about one (a launch of the runner's default
  // sizes, up to 2^24 elements, keeps the set budget).
  const uint64_t set_budget = __atomic_load_n(&e.budget, __ATOMIC_RELAXED);
  const uint64_t work = launch_work_elems(), per_elem = 16;
  uint64_t budget = rf_sim_launch_budget(set_budget, blocks * e.nthreads);
  if (work <= UINT64_MAX / per_elem && work * per_elem > budget) budget = work * per_elem;
  __atomic_store_n(&e.budget, budget, __ATOMIC_RELAXED);
  watchdog_arm(blocks * e.nthreads);  // the time limit and stops (watchdog.cpp)
  if (!parallel || !run_grid_parallel(order.data(), blocks, shmem)) {
    for (uint64_t k = 0; k < blocks; k++) {
      uint64_t b = !order.empty()                       ? order[k]
                   : e.schedule == RF_SIM_SCHED_REVERSE ? blocks - 1 - k
                                                        : k;
      if (!run_block(b, k)) break;
    }
  }
  watchdog_disarm();
  __atomic_store_n(&e.budget, set_budget, __ATOMIC_RELAXED);
  san::acquire(reinterpret_cast<uintptr_t>(&kernel_to_host));
  if (coverage_hook) coverage_hook(kCoverageEnd);
  e.in_launch = false;
  launching = false;
  e.total_switches += e.switches.get();
  int code = e.abort_code.get();
  if (code == RF_SIM_TIMEOUT)
    e.last_error = hipErrorLaunchTimeOut;
  else if (code != RF_SIM_OK && code != RF_SIM_RACE)  // a race does not fail a GPU's launch
    e.last_error = hipErrorLaunchFailure;
}

}  // namespace rf_sim

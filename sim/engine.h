/* Internal state of the simulator: the fibers of the running block, the block's barrier and
 * wave-collective bookkeeping, and the switching primitives. One launch runs at a time; with
 * parallel blocks (parallel.cpp) each worker host thread has an Engine of its own. */
#ifndef RF_SIM_ENGINE_H
#define RF_SIM_ENGINE_H
#include <stddef.h>
#include <stdint.h>
#include "lds.h"
#include "relaxed.h"
#include "sanitizer_hooks.h"
#include "schedule.h"
#include "sim_port.h"
#include "sync_cells.h"

namespace rf_sim {

/* 0x7FDADBAD: a quiet NaN (exponent all ones, mantissa bit 22 set) with a recognisable
 * payload; what unwritten LDS and shuffles from missing lanes read as. */
constexpr uint32_t kPoisonBits = 0x7FDADBADu;
constexpr size_t kLdsLimit = 65536;  // per block, as gfx1201's sharedMemPerBlock
constexpr unsigned kMaxWaves = kMaxBlockThreads / 32;

enum Wait : uint8_t { kRunning = 0, kAtBarrier = 1, kAtWave = 2, kDone = 3 };

struct Stack;

/* One GPU thread of the running block (record i is thread i of every block). The first
 * cache line holds what a switch and a barrier touch. */
struct alignas(64) Fiber {
  ThreadView view{};                // written when the thread starts, read by its kernel
  void *sp = nullptr;               // saved context while it waits (started, not ended)
  Relaxed<Stack *> stack;           // the stack it runs on; null before its start and after its end
  Relaxed<const char *> site_file;  // where it waits (barrier or wave operation)
  Relaxed<int> site_line;
  Relaxed<uint8_t> wait;  // Wait
  Relaxed<uint8_t> xkind;
  uint16_t index = 0;           // fixed once the record exists
  Relaxed<uint32_t> xin, xout;  // wave exchange: value given, value received
  // Second cache line: wave-operation arguments and the race detector's.
  Relaxed<int> xarg;
  Relaxed<uint8_t> xwidth;
  Relaxed<uintptr_t> sync;  // race-detector sync object of what it waits at (TSan build)
  Relaxed<uint64_t> xmask;  // a `_sync` collective's mask; kNoMask for port.h's calls
};

/* A fiber stack. Plain and AddressSanitizer builds: a pool, any stack runs any GPU thread,
 * and a thread gets one only when it starts. ThreadSanitizer build: stack i of identity set s
 * runs only thread i of that set's blocks (engine.cpp, "ThreadSanitizer identities"). */
struct Stack {
  // The stack's own record: own.sp is the context saved while no GPU thread runs on it (its
  // runner loop's; the host's, for the host stack). The runner suspends through it like a
  // GPU thread at a barrier (engine.cpp, runner).
  Fiber own;
  char *lo = nullptr;
  size_t size = 0;
  Stack *next_free = nullptr;
  void *tsan = nullptr;  // race-detector identity of what runs on it (the host: per launch)
};

struct BarrierState {
  Relaxed<unsigned> arrived;
  Relaxed<const char *> file;  // site of the first arrival of this generation
  Relaxed<int> line;
  Relaxed<uintptr_t> sync;
  Relaxed<bool> mismatch;  // some thread arrived at another site
};

struct WaveState {
  Relaxed<unsigned> arrived;
  Relaxed<const char *> file;
  Relaxed<int> line;
  Relaxed<uintptr_t> sync;
  Relaxed<bool> mismatch;
  Relaxed<bool> masked;  // some lane of this collective gave a `_sync` mask: checked at its end
};

/* Thrown inside a fiber to unwind its kernel frames when the launch is abandoned. */
struct AbortUnwind {};

struct Engine {
  unsigned worker = 0;  // 0: the launching thread's engine; 1..: parallel.cpp's workers
  // Configuration: host only.
  int schedule = RF_SIM_SCHED_IN_ORDER;
  uint64_t seed = 0;
  uint64_t budget = uint64_t{1} << 28;
  uint64_t launch_index = 0;
  uint64_t total_switches = 0;
  hipError_t last_error = hipSuccess;

  // Launch constants: written by the host before the launch, read by fibers.
  unsigned nthreads = 0, wave = 32, nwaves = 0;
  unsigned wave_shift = 5;  // log2(wave): the wave of a thread without a division
  /* In-order 1, reverse -1, else 0: in a phase (every thread runnable) the thread run after
   * thread i is thread i + order_step. The prefetch's guess, and the ordered arrivals' path
   * (sync_ops.cpp, "Ordered arrivals"). */
  int order_step = 0;
  void (*invoke)(void *) = nullptr;
  void *pack = nullptr;
  bool in_launch = false;

  // Block state: touched by fibers and the host.
  Relaxed<uint32_t> block_x, block_y, block_z;
  Relaxed<unsigned> done;
  Relaxed<int> abort_code;     // RF_SIM_* once the launch is being abandoned
  Relaxed<uint64_t> switches;  // this launch
  Relaxed<unsigned> skew_wave;
  /* The running GPU thread's record, or `host` whenever no GPU thread runs (never null:
   * one comparison tells a kernel's call from the host's, sync_ops.cpp). */
  Relaxed<Fiber *> current{&host};
  RunSet run;
  Prng rng;
  BarrierState barrier;
  WaveState waves[kMaxWaves];

  /* The running block's thread records. Under ThreadSanitizer there are two sets, one per
   * identity set (engine.cpp, "ThreadSanitizer identities"), each with its own records and
   * stacks, so that no stack or record is ever touched by two identities (stack reuse
   * across identities would look like races between blocks); the plain build has one. */
  Fiber slot_sets[san::tsan ? 2 : 1][kMaxBlockThreads];
  Relaxed<Fiber *> fibers{slot_sets[0]};  // host writes it between blocks, fibers read it
  Fiber &fiber(unsigned i) { return fibers.get()[i]; }
  Relaxed<unsigned> identity_set;  // TSan build: the running block's set
  Fiber host;                 // stands for the launching thread in `current`
  Stack host_stack;           // the launching thread's context while a block runs
  Relaxed<Stack *> running_stack;  // the stack the running code is on
  Stack *switched_from = nullptr;  // AddressSanitizer: the stack the last switch left
  Lds lds;
  SyncCells cells;
  /* Plain and AddressSanitizer builds: this engine's idle stacks, the most recently used
   * first (their lines are the likeliest to be in the caches), and the ones it made. */
  Stack *free_stacks = nullptr;
  unsigned stacks_made = 0;
  Stack pool[san::tsan ? 1 : kMaxBlockThreads];
  /* Parallel blocks (parallel.cpp): the running block's place in the launch's order, and
   * whether its next global atomic or fence must first wait for every earlier block. */
  bool speculative = false;
  bool gate_armed = false;
  uint64_t gate_position = 0;
  /* TSan build: the running block's __threadfence_block() sync object, taken at its first
   * use in the block (0 until then): a block fence orders that block's threads alone. */
  Relaxed<uintptr_t> block_fence_sync;
};

/* A namespace-scope object, not a function-local static: no initialisation guard, which
 * the race reporter could not take from inside a report. The launching thread's engine;
 * every host thread starts with it, parallel.cpp's workers switch to their own. */
extern Engine the_engine;

/* An error exit (status 2) with a message when memory runs out (oom.cpp): never SIGABRT. */
[[noreturn]] void out_of_memory(const char *what);

/* The watchdog (watchdog.cpp): armed around a launch of `threads` GPU threads on the
 * launching thread. fired: RF_SIM_TIMEOUT or RF_SIM_INTERRUPTED once it lowered the budget to
 * end the launch, else 0; describe_end: the status message's first words for that. */
void watchdog_arm(uint64_t threads);
void watchdog_disarm();
int watchdog_fired();
/* Under ThreadSanitizer, the GPU threads' look at the clocks (every few switches). */
void watchdog_poll(uint64_t switches);
void describe_end(char *out, size_t len);
uint64_t launch_timeout_ms();
/* The elements of the launches' case (rf_sim_set_launch_work), for the step budget. */
uint64_t launch_work_elems();
/* rf_sim_interrupt was called (a SIGINT or SIGTERM). */
bool interrupt_requested();
extern __thread Engine *this_engine __attribute__((tls_model("initial-exec")));
__attribute__((always_inline)) inline Engine &engine() { return *this_engine; }

/* Kernel coverage in the fuzz build (cmake/coverage.cmake, sim/kernel_coverage.cpp): called
 * with kCoverageBegin when a launch starts, kCoverageSegment at every switch (the code that
 * just ran was one GPU thread's stretch between two scheduling points) and kCoverageEnd when
 * the launch ends. Null, and never called, in every other build. */
enum CoveragePhase { kCoverageBegin, kCoverageSegment, kCoverageEnd };
extern void (*coverage_hook)(CoveragePhase phase);
/* Defined with the folding, null elsewhere: quiet(true) makes the following launches add no
 * kernel coverage (no hook while they run; every counter as before them once quiet(false)
 * ends the stretch). rf_sim_quiet_coverage, for the determinism repeat (run/runner.c). */
extern void (*coverage_quiet)(bool quiet);
/* Defined with the folding, null elsewhere: rf_sim_coverage_fold's mode (RF_SIM_FOLD_*). */
extern void (*coverage_fold_mode)(int mode);
/* rf_sim_coverage_cmp_all: the GPU threads' compares go on to libFuzzer (sim/kernel_cmp.cpp).
 * Set before the first launch, read by the compares of every later one. */
extern bool coverage_cmp_all;
/* True in the fuzz build when the kernels have SanitizerCoverage counters (with or without
 * the hook): one global array per module, so blocks never run on several threads. */
extern bool coverage_counters;
/* Defined with the folding (sim/kernel_coverage.cpp), so only where it is linked: true makes
 * it fold with plain byte loops, the reference its block folds must equal
 * (tests/sim/coverage_fold.hip; rf_sim_coverage_fold(RF_SIM_FOLD_REFERENCE) sets it, the
 * runner's REDFUZZ_COVERAGE_FOLD=reference). */
extern bool coverage_reference_fold;
/* Defined with the folding: functions a launch ran outside what its kernel reaches through
 * direct calls (sim/kernel_coverage.cpp, "The reach": a function pointer's target, or a
 * callee the machine-code read missed), each counted once a launch when a fold finds it. */
extern uint64_t coverage_reach_misses;
/* Defined with the folding: the looks for newly run functions that read every counter. */
extern uint64_t coverage_whole_looks;

/* Relative source path for messages (the project root prefix stripped). */
const char *short_path(const char *file);
/* The launch contract (contract.cpp): a call the contract forbids inside a variant's launch
 * (an allocation, a synchronisation), and a call that enqueues work on `stream` (a kernel
 * launch passes its own site; the others take the one sim_hip_runtime.h's macros passed).
 * Each records the first breach while the calling thread's window is open. */
void contract_forbidden(const char *call, const char *why);
void contract_stream(const char *call, hipStream_t stream, const char *file, int line);
/* Records the problem, makes the launch fail, and (inside a fiber) unwinds it. */
[[noreturn]] void abandon_in_fiber(int code, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void abandon_from_host(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Scheduling points of the running fiber. Both return with self marked running (and,
 * under ThreadSanitizer, self->sync acquired) and give self's wave-exchange result. */
uint32_t suspend(Fiber *self);  // self is not runnable: run someone else until it is resumed
uint32_t yield(Fiber *self);    // self stays runnable: let the schedule choose
/* suspend(self) where the schedule's next thread is already known to be `next` (in-order or
 * reverse arrivals of the plain build, sync_ops.cpp): the same switch, without the search. */
uint32_t suspend_to(Fiber *self, Fiber *next);

/* The indices of thread `linear` of the running block, computed from launch constants. */
rf_sim_uint3 thread_index_of(unsigned linear);

/* Defined next to the race reporter so that linking the simulator links the reporter's
 * hooks too (the sanitizer runtime's weak defaults would otherwise be used). */
void race_reporting_linked();
/* AddressSanitizer build: turns reports raised in kernels into RF_SIM_OOB (asan_report.cpp);
 * replaces any error-report callback installed before the first launch. */
void install_oob_reporting();
/* Plain build: kernel faults become RF_SIM_OOB / RF_SIM_CRASH (faults.cpp). */
void install_fault_handling();

/* Parallel blocks (parallel.cpp). */
/* Runs the block at `position` of the launch's order (block `linear`) on this thread's
 * engine; false when the launch was abandoned. */
bool run_block(uint64_t linear, uint64_t position);
/* Sets up this thread's engine for the launch `from` describes (worker threads). */
void adopt_launch(Engine &to, const Engine &from, size_t shmem);
/* Tries the grid on the worker threads; true when it ran there with the sequential run's
 * results, false when it must run sequentially (nothing it did is left in device memory). */
bool run_grid_parallel(const uint64_t *order, uint64_t blocks, size_t shmem);
/* A speculative (parallel) block's problem: its launch is re-run sequentially. */
void speculation_failed();
/* Blocks the running GPU thread until every block before its own has finished. */
void wait_for_earlier_blocks();

/* Builds the divergent-barrier message for a block in which no thread can run. */
void describe_stuck_block(char *msg, size_t len);
/* In a fiber whose barrier or wave operation was reached from different call sites. Kept
 * out of line: the hot barrier frames stay small (fewer cache lines per switch). */
[[noreturn]] void abandon_divergent();

}  // namespace rf_sim
#endif

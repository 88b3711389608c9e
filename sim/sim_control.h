/* Control API of the CPU SIMT simulator, for the runner (C ABI).
 *
 * Configure before a case, run the variant's launches, then take the status: the first
 * problem any launch had since the last take (divergent barrier, race, launch error,
 * timeout), with a message naming kernel source lines. */
#ifndef RF_SIM_CONTROL_H
#define RF_SIM_CONTROL_H
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Schedules; the values equal rf_sched in model/case.h (checked in kernels/harness/device.hip). */
enum {
  RF_SIM_SCHED_IN_ORDER = 0, /* lowest-numbered runnable thread first, blocks ascending */
  RF_SIM_SCHED_REVERSE = 1,  /* highest-numbered runnable thread first, blocks descending */
  RF_SIM_SCHED_RANDOM = 2,   /* seeded uniform choice among runnable threads, block order
                                a seeded permutation */
  RF_SIM_SCHED_WAVE_SKEW = 3 /* per phase one seeded wave runs ahead, the rest in order */
};

/* Status codes; rf_sim_status_name gives the matching verdict name. */
enum {
  RF_SIM_OK = 0,
  RF_SIM_DIVERGENT_BARRIER = 1, /* barrier or wave operation not reached by all threads */
  RF_SIM_RACE = 2,              /* ThreadSanitizer reported a data race in a kernel */
  RF_SIM_LAUNCH_ERROR = 3,      /* invalid configuration, LDS limit, bad shuffle width */
  RF_SIM_TIMEOUT = 4,           /* the launch exceeded the step budget */
  RF_SIM_OOB = 5,               /* an access past a device buffer: in the plain build its guard
                                   page faulted (sim/guarded_alloc.h); under AddressSanitizer
                                   a report in a kernel (the kernels are built recoverable
                                   and sim/asan_report.cpp sets halt_on_error=0; the launch
                                   ends at the reporting thread's next scheduling point) */
  RF_SIM_CRASH = 6,             /* SIGSEGV, SIGBUS or SIGFPE inside a kernel (plain build) */
  RF_SIM_LAUNCH_CONTRACT = 7,   /* inside a contract window (below): a kernel, copy or memset on
                                   another stream than the window's, an allocation or a
                                   synchronisation */
  RF_SIM_INPUT_WRITTEN = 8,     /* a write into a buffer made read-only (rf_sim_set_readonly:
                                   the runner's inputs), plain build; the write did not happen.
                                   rf_sim_status_address gives the address written */
  RF_SIM_INTERRUPTED = 9        /* rf_sim_interrupt was called: the launch was ended (or not
                                   started); its results mean nothing */
};

/* Applies to every later launch. schedule: RF_SIM_SCHED_*; seed drives the random and
 * wave-skew schedules; wave: 32 or 64 (anything else is recorded as a launch error and 32
 * is used). Also restarts the launch counter, so the same configuration followed by the
 * same launches gives the same interleavings, hence the same bits. */
void rf_sim_configure(int schedule, uint64_t seed, unsigned wave);

/* Returns RF_SIM_OK or the code of the first problem since the last take and clears it.
 * msg (may be NULL) receives a one-line description, e.g.
 * "race: write at kernels/softmax.hip:88 and read at kernels/softmax.hip:84". */
int rf_sim_take_status(char *msg, size_t len);

/* The device address a kernel wrote when the status rf_sim_take_status last returned is
 * RF_SIM_INPUT_WRITTEN (its message then ends with the writing instruction's source line
 * where addr2line finds it); 0 after any other status. */
uintptr_t rf_sim_status_address(void);

/* "ok", "divergent-barrier", "race", "launch-error", "timeout", "oob", "crash",
 * "launch-contract", "input-written", "interrupted"; NULL when unknown. */
const char *rf_sim_status_name(int code);

/* Kernel coverage (the fuzz build's SanitizerCoverage counters, sim/kernel_coverage.cpp):
 * 1 makes the following launches add none (they run without the per-switch fold, and every
 * counter is as before them once 0 is passed); 0 (the default) counts them again. What they
 * compute, their schedule and their status are the same either way. No-op in other builds.
 * The runner makes a deterministic variant's repeat quiet (docs/SIMULATOR.md, "The
 * determinism repeat adds no coverage"). */
void rf_sim_quiet_coverage(int quiet);
/* How the fuzz build folds its kernel coverage counters (sim/kernel_coverage.cpp), for the
 * launches that follow: BLOCKS (the default: block folds, AVX2 where the CPU has it), OFF
 * (plain wrapping counters, to measure what folding buys), REFERENCE (the same folds with the
 * byte loops the block folds must equal), BASELINE (no AVX2 even where the CPU has it), FULL
 * (every periodic fold reads every counter, not only what the launch's kernel reaches). The
 * runner passes REDFUZZ_COVERAGE_FOLD down (the simulator reads no environment). No-op in
 * other builds. */
enum { RF_SIM_FOLD_BLOCKS = 0, RF_SIM_FOLD_OFF = 1, RF_SIM_FOLD_REFERENCE = 2,
       RF_SIM_FOLD_BASELINE = 3, RF_SIM_FOLD_FULL = 4 };
void rf_sim_coverage_fold(int mode);
/* 1: the GPU threads' compares reach libFuzzer too (sim/kernel_cmp.cpp; REDFUZZ_COVERAGE_CMP=
 * all); 0 (the default): only the host code's. Before the first launch. */
void rf_sim_coverage_cmp_all(int all);

/* A stop asked for (a SIGINT or SIGTERM): async-signal-safe (one atomic store). The running
 * launch ends within a few watchdog ticks (100 ms each) with RF_SIM_INTERRUPTED, a kernel
 * spinning without a barrier included (plain build; the sanitizer builds end it at its next
 * switch), and every later launch ends at once with the same status. */
void rf_sim_interrupt(void);
int rf_sim_interrupted(void);

/* Watchdog: a launch that switches between GPU threads more than this many times ends with
 * RF_SIM_TIMEOUT (default 1 << 28, about a few seconds). A thread that loops forever
 * without reaching a barrier or wave operation makes no switch: the wall-clock watchdog
 * below ends it. */
void rf_sim_set_step_budget(uint64_t switches);
/* The step budget a launch of `threads` GPU threads runs under: `switches` (the budget set
 * above), or 64 switches a thread where that is more and the launch is past 2^22 threads (the
 * runner's default launch cap, REDFUZZ_SIM_MAX_THREADS): a correct kernel switches a few
 * times a thread a barrier, so a launch of 2^31 threads (one element a thread at n = 2^36)
 * passes 2^28 switches without hanging. Up to 2^22 threads the set budget stands as it is. */
uint64_t rf_sim_launch_budget(uint64_t switches, uint64_t threads);
/* Watchdog on the wall clock (sim/watchdog.cpp): a launch running longer than ms
 * milliseconds ends with RF_SIM_TIMEOUT, a thread that spins without any barrier included.
 * 0 (the default) turns it off; the runner sets it from REDFUZZ_LAUNCH_TIMEOUT_MS. */
void rf_sim_set_launch_timeout_ms(uint64_t ms);
/* The work of the launches that follow, in elements (the runner's case: n, or rows x cols),
 * and the budget per unit of work in ns of CPU (REDFUZZ_LAUNCH_NS_PER_ELEM): a launch's
 * limit is the wall-clock limit above plus (elements + its threads) x ns_per_elem of the
 * process's CPU time, so a correct kernel on a huge case is never stopped for being slow
 * (docs/SIMULATOR.md, "The watchdog"). The step budget grows with the elements as with the
 * threads (rf_sim_launch_budget). 0 elements (the default): the limit is the set one. */
void rf_sim_set_launch_work(uint64_t elems, uint64_t ns_per_elem);

/* Device memory of `bytes` zero bytes that costs only the pages later written (a shared file
 * of zeros mapped again and again, guarded like hipMalloc's; sanitizer builds: calloc).
 * hipFree frees it. NULL when it cannot be mapped. */
void *rf_sim_alloc_zero(size_t bytes);

/* Device memory p (a hipMalloc) becomes read-only for the kernels: a write faults
 * (RF_SIM_INPUT_WRITTEN with the address) and parallel blocks neither copy nor restore it. 0
 * on success; -1 where the buffer is not a guarded mapping (sanitizer builds: it stays
 * writable). */
int rf_sim_protect_readonly(void *p);
/* The same as a switch: readonly 0 makes p writable again (the runner uploads the next
 * batch's input into it). 0, or -1 as above. */
int rf_sim_set_readonly(void *p, int readonly);

/* The hardware the fast intrinsics (__expf, __logf, __fdividef, ...) stand for: gfx1201 (the
 * default) or NVIDIA; set by the runner from REDFUZZ_SIM_TARGET (run/settings.def). */
enum { RF_SIM_TARGET_GFX1201 = 0, RF_SIM_TARGET_NVIDIA = 1 };
void rf_sim_set_target(int target);
int rf_sim_target(void);

/* Host threads that run a launch's blocks (1 = the launching thread alone, the default; at
 * most RF_SIM_MAX_THREADS): set by the runner from REDFUZZ_SIM_THREADS (run/settings.def).
 * Results are the sequential run's (docs/SIMULATOR.md, "Parallel blocks"); the
 * ThreadSanitizer, AddressSanitizer and fuzz (kernel coverage) builds always run blocks
 * one after another. Out-of-range values are clamped. */
#define RF_SIM_MAX_THREADS 8
void rf_sim_set_threads(unsigned threads);
unsigned rf_sim_threads(void);
/* Launches that ran on several threads / that were re-run sequentially after a parallel
 * attempt found a problem (both since the process started; for tests and benchmarks). */
uint64_t rf_sim_parallel_launches(void);
uint64_t rf_sim_parallel_reruns(void);

/* Host code that must tell a kernel's doings from its own (the harness's containment of
 * plugin code, run/contain.c). install_fault_handling: the fault handler that makes a kernel's
 * fault a verdict, installed now rather than at the first launch (plain build; nothing in
 * the sanitizer builds), so that a handler installed after it sees every fault first and
 * passes a kernel's on. in_kernel_thread: 1 when the calling host thread is running a GPU
 * thread of a launch (async-signal-safe). end_kernel_thread: called there (an exit or abort
 * called by kernel code), ends the launch with RF_SIM_CRASH "crash: <what> by thread ..." and
 * does not return; elsewhere it returns at once. */
void rf_sim_install_fault_handling(void);
int rf_sim_in_kernel_thread(void);
void rf_sim_end_kernel_thread(const char *what);
/* The launch contract (include/redfuzz/plugin.h, `launch`), checked on the calling host
 * thread between begin and end (the runner brackets each variant's launch function): a
 * kernel launch, hipMemcpyAsync, hipMemsetAsync or hipEventRecord on any stream but `stream`
 * (the default stream, NULL, included); hipMalloc, hipFree, hipMallocAsync, hipFreeAsync,
 * hipHostMalloc, hipHostFree (allocation); hipDeviceSynchronize, hipStreamSynchronize,
 * hipEventSynchronize, hipMemcpy, hipMemset (synchronisation). The first such call records
 * status RF_SIM_LAUNCH_CONTRACT naming the call and its line (where it was compiled against
 * sim_hip_runtime.h: its macros pass the call site); the call itself still does its work, so
 * the launch runs to its end. Outside a window nothing is checked (the harness's own calls).
 * Windows do not nest: begin while one is open moves it to `stream`. */
void rf_sim_contract_begin(void *stream);
void rf_sim_contract_end(void);
/* Stream handle i (0..7) for the runner's launches: distinct from the default stream (NULL)
 * and from each other, so that a launch on another stream than a->stream can be told apart
 * (every stream is the one synchronous queue all the same). */
void *rf_sim_stream(unsigned i);

/* 1 when this build reports races (ThreadSanitizer build), else 0. */
int rf_sim_race_detection(void);

/* Context switches between GPU threads since the process started (for benchmarks and
 * tests that check a schedule really interleaves). */
uint64_t rf_sim_switch_count(void);

#ifdef __cplusplus
}
#endif
#endif

/* Device access for host C code: memory, synchronisation, device facts and, on the
 * simulator, its schedule and status. Implemented once in HIP (device.hip) for every backend. */
#ifndef RF_DEVICE_H
#define RF_DEVICE_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  char name[128];
  unsigned num_cus;
  unsigned wave;
  const char *backend;   /* "sim", "cuda" or "hip" */
} rf_device_info;

/* 0 when the backend has a device to run on (always on the simulator); otherwise 1 and a
 * message for the user in msg: "no HIP device found (...)" with the runtime's answer and
 * what to do, so a GPU build on a machine without a usable GPU says so plainly. */
int rf_dev_require(char *msg, size_t len);
/* Each returns 0 or the backend's error code; rf_dev_error_string names it. */
int rf_dev_info(rf_device_info *out);
int rf_dev_alloc(void **p, size_t bytes);
void rf_dev_free(void *p);
/* The device's memory: free and total bytes (the simulator's: the host's physical memory,
 * free = not in use right now). 0, or an error. */
int rf_dev_mem_info(size_t *free_bytes, size_t *total_bytes);
/* rf_dev_alloc, every byte 0. On the simulator nothing is written: the pages stay the
 * kernel's zero page until written, so a buffer far larger than memory costs only the pages
 * written later (run/sparse_input.c). */
int rf_dev_alloc_zeroed(void **p, size_t bytes);
/* Simulator: p (from rf_dev_alloc) becomes read-only to kernels (a write ends the launch
 * with RF_DEV_STATUS_INPUT_WRITTEN and does not happen); returns 1 where it cannot (sanitizer
 * builds), 0 when done. GPUs: nothing, 1. */
int rf_dev_protect_readonly(void *p);
/* The same as a switch: readonly 0 makes it writable again. 0 when done, 1 where it cannot
 * (sanitizer builds, GPUs: run/input_check.c compares instead). */
int rf_dev_set_readonly(void *p, int readonly);
/* Page-locked host memory (copies to and from it skip a staging copy); plain memory on the
 * simulator. */
int rf_dev_host_alloc(void **p, size_t bytes);
void rf_dev_host_free(void *p);
int rf_dev_upload(void *dst, const void *src, size_t bytes);
int rf_dev_download(void *dst, const void *src, size_t bytes);
/* Waits for every launch enqueued so far. With a launch timeout set (rf_dev_set_launch_timeout_ms)
 * a wait longer than it returns RF_DEV_TIMEOUT and the device is lost to the process
 * (rf_dev_lost() == RF_DEV_TIMEOUT): the kernel still runs and nothing queued behind it can. */
int rf_dev_sync(void);
/* The same for a batch of `launches` variant launches: the limit is per launch. With progress
 * marks (below) the wait ends when none has completed for the limit; without (a graph's
 * launches), at the limit times their number. */
int rf_dev_sync_for(unsigned long long launches);
/* After a launch on `stream` (a GPU's batch): a progress mark, so that the deadline of
 * rf_dev_sync_for is the limit without any marked launch finishing, not the limit times the
 * launches (a batch of 30 launches with one that never ends would wait 30 limits). Nothing
 * while a graph is being recorded, without a limit, or on the simulator (its watchdog is per
 * launch already). Call it after taking the launch's error (rf_dev_last_error): a mark that
 * cannot be recorded clears its own error and counts as a launch without a mark. */
void rf_dev_mark_progress(void *stream);
/* hipErrorOutOfMemory / cudaErrorMemoryAllocation: rf_dev_alloc or rf_dev_host_alloc found no
 * room (on the simulator: host memory). */
#define RF_DEV_OUT_OF_MEMORY 2
/* hipErrorLaunchTimeOut / cudaErrorLaunchTimeout: a launch ran past the wall-clock limit. */
#define RF_DEV_TIMEOUT 702
/* The wall-clock limit of a launch in ms, 0 for none (REDFUZZ_LAUNCH_TIMEOUT_MS): the
 * simulator ends such a launch itself (sim/watchdog.cpp); GPUs through rf_dev_sync. */
void rf_dev_set_launch_timeout_ms(uint64_t ms);
/* The work of the launches that follow (the case's elements) and the budget per element in ns
 * (REDFUZZ_LAUNCH_NS_PER_ELEM): on the simulator a launch may use the limit above plus
 * (elements + threads) x ns of CPU time (sim_control.h, rf_sim_set_launch_work), so a
 * correct kernel on a huge case is not a `timeout` for being slow. GPUs: nothing (their
 * launches are fast; the wall-clock limit stands). */
void rf_dev_set_launch_work(uint64_t elems, uint64_t ns_per_elem);
/* A stop asked for (SIGINT, SIGTERM): async-signal-safe, for a signal handler. The
 * simulator ends the running launch within a few tenths of a second and starts no other
 * (RF_DEV_STATUS_INTERRUPTED); a GPU wait (rf_dev_sync) returns RF_DEV_INTERRUPTED within
 * 50 ms and the device is then lost to the process (a kernel may still run). */
void rf_dev_interrupt(void);
/* 1 once rf_dev_interrupt was called. */
int rf_dev_interrupted(void);
/* A wait ended by rf_dev_interrupt (an error of rf_dev_sync; not a CUDA or HIP code). */
#define RF_DEV_INTERRUPTED 100000
/* The first error since the last call (launch errors included), cleared. */
int rf_dev_last_error(void);
const char *rf_dev_error_string(int err);
/* 1 when err is a fault inside a kernel (illegal or misaligned address, illegal instruction,
 * trap, hardware stack error, "unspecified launch failure"). On a GPU such an error is
 * sticky: the context is unusable and every later call fails with it until the process ends
 * (CUDA Runtime API, cudaErrorIllegalAddress; HIP keeps CUDA's codes and behaviour), so a
 * crashing kernel cannot be survived in-process there. docs/SIMULATOR.md, "Faults". */
int rf_dev_error_is_fault(int err);
/* 0 while the device is usable; else the fault's error code, for the rest of the process. */
int rf_dev_lost(void);
/* Simulator: 1 makes a kernel's crash lose the device as a GPU fault does (every later call
 * fails with hipErrorIllegalAddress), so what depends on surviving a GPU fault (sweep's worker
 * processes) is tested in CI. Default 0: the simulator recovers from its faults. */
void rf_dev_sim_set_fault_loses_device(int on);
/* Simulator: host threads that run a launch's blocks (REDFUZZ_SIM_THREADS; 1, the default,
 * runs them one after another; docs/SIMULATOR.md, "Parallel blocks"). GPUs: nothing. */
void rf_dev_sim_set_threads(unsigned threads);
/* Simulator: the threads set above, and since the process started how many launches ran
 * their blocks on several threads and how many of those were re-run sequentially (a problem
 * in a block). 0 and nothing written on GPUs. */
unsigned rf_dev_sim_parallel_stats(unsigned long long *parallel, unsigned long long *reruns);

/* Device timing on the default stream: start, then stop returns the elapsed milliseconds
 * (it synchronises). -1 on error. */
int rf_dev_timer_start(void);
double rf_dev_timer_stop_ms(void);
/* Device-to-device copy (asynchronous on the default stream): the copy-bandwidth ceiling. */
int rf_dev_copy(void *dst, const void *src, size_t bytes);

/* rf_dev_stream(i): the runner's stream i (i < RF_DEV_STREAMS), created on first use; it
 * synchronises with the default stream (uploads and downloads), not with the other streams,
 * so independent launches overlap on the device. NULL = the default stream. The simulator
 * runs each launch to its end inside the call: its streams are handles that only tell a
 * launch on a->stream from one elsewhere (the launch contract, above), and the graph calls
 * fail there. */
#define RF_DEV_STREAMS 4
void *rf_dev_stream(unsigned i);
/* Launch graphs: between capture_begin and capture_end the launches on streams 0..streams-1
 * are recorded, not run (streams 1.. fork from and join back into stream 0). capture_end
 * returns 0 and an executable graph, or an error (then nothing ran and the error state is
 * cleared). graph_launch runs a graph on stream 0 with one call. */
int rf_dev_capture_begin(unsigned streams);
int rf_dev_capture_end(unsigned streams, void **graph);
int rf_dev_graph_launch(void *graph);
void rf_dev_graph_free(void *graph);

/* Simulator only (no-ops elsewhere): schedule (rf_sched), its seed and the wave size for the
 * next launches; and the first problem the simulator saw since the last call:
 * 0 = none, else one of RF_DEV_STATUS_* with a message naming source lines. */
void rf_dev_sim_configure(int sched, uint64_t seed, unsigned wave);
enum { RF_DEV_STATUS_OK = 0, RF_DEV_STATUS_DIVERGENT_BARRIER = 1, RF_DEV_STATUS_RACE = 2,
       RF_DEV_STATUS_LAUNCH_ERROR = 3, RF_DEV_STATUS_TIMEOUT = 4, RF_DEV_STATUS_OOB = 5,
       RF_DEV_STATUS_CRASH = 6, RF_DEV_STATUS_LAUNCH_CONTRACT = 7, RF_DEV_STATUS_INPUT_WRITTEN = 8,
       RF_DEV_STATUS_INTERRUPTED = 9 };
int rf_dev_sim_take_status(char *msg, size_t len);
/* After RF_DEV_STATUS_INPUT_WRITTEN: the device address the kernel wrote (into a buffer made
 * read-only by rf_dev_set_readonly); 0 otherwise and on GPUs. */
uintptr_t rf_dev_sim_status_address(void);

/* The launch contract (include/redfuzz/plugin.h, `launch`: enqueue on a->stream only, no
 * allocation, no synchronisation). Simulator: between begin and end every call of the calling
 * thread that breaks it is status RF_DEV_STATUS_LAUNCH_CONTRACT, naming the call and its line
 * (sim_control.h, rf_sim_contract_begin); the runner brackets each variant's launch. GPUs:
 * nothing (the probe below). */
void rf_dev_contract_begin(void *stream);
void rf_dev_contract_end(void);
/* GPUs: a probe of the contract through stream capture. begin starts a thread-local capture
 * of a blocking stream of its own and gives it in *stream; a launch function called now is
 * recorded, not run, and the runtime refuses what the contract forbids (a launch or copy on
 * the legacy default stream: it would depend on the capturing stream; an allocation or a
 * synchronisation: not permitted while this thread captures). end discards the recording
 * and returns 0, or the capture's error (nothing ran either way; the error state is
 * cleared). begin returns nonzero where no capture can start (the simulator, which checks
 * every launch instead). */
int rf_dev_contract_probe_begin(void **stream);
int rf_dev_contract_probe_end(void);
/* Simulator's fuzz build: 1 = the next launches add no kernel coverage, 0 = they do again
 * (rf_sim_quiet_coverage; no-op elsewhere). */
void rf_dev_sim_quiet_coverage(int quiet);
/* Simulator's fuzz build: how the kernel coverage counters fold (RF_DEV_FOLD_*, the
 * simulator's RF_SIM_FOLD_*) and whether the GPU threads' compares reach libFuzzer
 * (cmp_all), from REDFUZZ_COVERAGE_FOLD / _CMP (no-op elsewhere). */
enum { RF_DEV_FOLD_BLOCKS, RF_DEV_FOLD_OFF, RF_DEV_FOLD_REFERENCE, RF_DEV_FOLD_BASELINE, RF_DEV_FOLD_FULL };
void rf_dev_sim_coverage(int fold, int cmp_all);
/* Simulator: 1 when its fast intrinsics stand for NVIDIA's (REDFUZZ_SIM_TARGET=nvidia), 0 for
 * AMD gfx1201 (the default) and on every other backend. */
int rf_dev_sim_target_nvidia(void);
/* Simulator: which hardware its fast intrinsics stand for (no-op elsewhere). */
void rf_dev_sim_set_target_nvidia(int nvidia);
/* Simulator, for the containment of plugin code (run/contain.c; nothing or 0 elsewhere, where
 * kernels do not run on host threads): install the kernel fault handler now (plain build);
 * 1 when the calling host thread runs a GPU thread of a launch (async-signal-safe); and, in
 * such a thread, end the launch as `crash` "crash: <what> by thread ..." without returning
 * (returns at once elsewhere). */
void rf_dev_sim_install_fault_handling(void);
int rf_dev_sim_in_kernel_thread(void);
void rf_dev_sim_end_kernel_thread(const char *what);

#ifdef __cplusplus
}
#endif
#endif

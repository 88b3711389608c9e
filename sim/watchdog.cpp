/* The watchdog of a launch: its time limit (rf_sim_set_launch_timeout_ms, REDFUZZ_LAUNCH_TIMEOUT_MS,
 * grown with the case's work by rf_sim_set_launch_work, REDFUZZ_LAUNCH_NS_PER_ELEM) and a
 * stop asked for by a signal (rf_sim_interrupt).
 *
 * GPU threads are fibers switched only at barriers and wave operations, so a thread that
 * spins without reaching one is never preempted: the step budget (counted at switches)
 * cannot see it, and nothing else would ever run again on the launching thread. A POSIX
 * timer aimed at the launching thread (SIGEV_THREAD_ID, a real-time signal: libFuzzer owns
 * SIGALRM for its own -timeout) ticks every kTickMs while the launch runs (a tenth of a
 * shorter limit, at least 10 ms: a test's). At each tick the
 * handler looks at the clocks and the stop flag (all async-signal-safe: clock_gettime and
 * loads); once the launch must end, it ends it in two stages:
 *
 *  1. The handler only lowers the step budget to 0 (one word of this thread's engine). The
 *     next switch, wherever it comes, abandons the launch through the ordinary path
 *     (engine.cpp, count_switch) with RF_SIM_TIMEOUT or RF_SIM_INTERRUPTED: a kernel that
 *     waits at barriers, or a limit met between blocks, ends there, exactly as a step-budget
 *     timeout does, with nothing interrupted.
 *  2. At a later tick, if no switch at all happened since the one before and a GPU thread's
 *     fiber is the code running (fault_in_kernel_here), that fiber is spinning in its own
 *     code. The handler then leaves it the way the fault handler leaves a faulting kernel
 *     (faults.cpp): the launch is abandoned, the fiber's stack gets a fresh context, and
 *     control returns to the host as if the block had been left; the block's other threads
 *     unwind as usual. This is the escape the simulator already takes from a SIGSEGV
 *     anywhere in kernel code, and it is taken only where a fault's would be: a fiber that
 *     has made no switch for a whole tick is not inside the scheduler (every scheduler entry
 *     ends in a counted switch or returns at once).
 *
 * The limit. A launch may use base + (elements + threads) x ns_per_elem of the process's CPU
 * time: base is REDFUZZ_LAUNCH_TIMEOUT_MS, elements the case's (the runner sets them before
 * its launches), threads the launch's. CPU time, not the wall clock, because what a correct
 * kernel needs grows with its work, and a machine shared by other jobs stretches the wall
 * clock, not the work: a correct variant on a huge case, or on a loaded CI machine, is not
 * stopped for being slow (issue 47). A kernel that never returns uses the CPU and meets the
 * limit; one that blocks without using it (a plugin waiting on something that never comes)
 * meets the wall-clock backstop, kWallFactor times the limit. The sanitizer builds run
 * kernels several times slower: their budget per element is kSanitizerFactor times the
 * setting.
 *
 * Either way the launch's status is RF_SIM_TIMEOUT (hipErrorLaunchTimeOut), the runner's
 * `timeout` verdict, and the run goes on; after a stop, RF_SIM_INTERRUPTED. Stage 2 is not
 * taken under AddressSanitizer (its runtime must see a handler return, as for faults).
 * Under ThreadSanitizer there is no timer at all: the runtime runs an asynchronous handler
 * under the identity of whichever GPU thread's fiber it interrupted, and since the fibers
 * switch without ordering (engine.cpp), the handler's reads of this watch race with the
 * host's arming of it in the detector's eyes (sim.tsan_instrumented_many_races saw those
 * reports). The GPU threads instead look at the clocks themselves every kPollSwitches
 * switches (watchdog_poll, from count_switch): stage 1 exactly, at a switch, which is where
 * stage 1 ends a launch anyway. The timer is armed for the launching thread only; with
 * REDFUZZ_SIM_THREADS > 1 a block that spins on a worker thread is ended by stage 1 alone
 * when it reaches a switch.
 *
 * The watch's fields are read by the handler (or the polling GPU threads) while the launch
 * runs: the flags are lock-free atomics (async-signal-safe), the limits Relaxed words
 * written before the timer is armed. */
#include <errno.h>
#include <atomic>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "engine.h"
#include "sanitizer_hooks.h"

#ifndef sigev_notify_thread_id
#define sigev_notify_thread_id _sigev_un._tid
#endif

namespace rf_sim {

[[noreturn]] void fiber_restart(Fiber *f);  // engine.cpp
bool fault_in_kernel_here(Fiber **f);        // engine.cpp
void abandon_from_host(int code, const char *fmt, ...);

namespace {

constexpr uint64_t kTickMs = 100;
constexpr uint64_t kWallFactor = 10;
constexpr uint64_t kSanitizerFactor = 10;
constexpr uint64_t kPollSwitches = 64;  // under ThreadSanitizer: see above

std::atomic<uint64_t> g_timeout_ms{0};
std::atomic<uint64_t> g_work_elems{0}, g_ns_per_elem{0};
std::atomic<int> g_interrupted{0};

struct Watch {
  bool made = false;       // the timer exists (made on this thread's first launch)
  pid_t owner = 0;         // the process that made it: a forked worker makes its own
  timer_t timer{};
  std::atomic<int> armed{0};
  std::atomic<int> stage{0};  // 0 running; 1 the launch must end (the budget is 0)
  std::atomic<int> why{0};    // RF_SIM_TIMEOUT or RF_SIM_INTERRUPTED, once stage is 1
  uint64_t saved_budget = 0;    // the host's alone
  uint64_t switches_at_tick = 0;  // stage 2 reads it: the handler's (the TSan poll writes it, unread)
  Relaxed<uint64_t> limit_ns;   // of CPU; 0: none
  Relaxed<uint64_t> threads, elems, ns_per_elem, base_ms;
  Relaxed<uint64_t> cpu0, wall0;
};
static_assert(std::atomic<int>::is_always_lock_free, "the tick's handler reads these flags");
thread_local Watch watch;

int watchdog_signal() { return SIGRTMIN + 3; }

uint64_t clock_ns(clockid_t id) {
  struct timespec ts;
  if (clock_gettime(id, &ts) != 0) return 0;
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

uint64_t mul_sat(uint64_t a, uint64_t b) { return b && a > UINT64_MAX / b ? UINT64_MAX : a * b; }
uint64_t add_sat(uint64_t a, uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

/* Whether the launch must end now, and why (0: not yet). */
int must_end(const Watch &w) {
  if (g_interrupted.load(std::memory_order_relaxed)) return RF_SIM_INTERRUPTED;
  const uint64_t limit = w.limit_ns.get();
  if (!limit) return 0;
  if (clock_ns(CLOCK_PROCESS_CPUTIME_ID) - w.cpu0.get() >= limit) return RF_SIM_TIMEOUT;
  if (clock_ns(CLOCK_MONOTONIC) - w.wall0.get() >= mul_sat(limit, kWallFactor)) return RF_SIM_TIMEOUT;
  return 0;
}

/* Stage 1: once the launch must end, the budget is lowered and the next switch ends it. */
void end_at_next_switch(Watch &w, Engine &e, uint64_t switches) {
  const int why = must_end(w);
  if (!why) return;
  w.why.store(why, std::memory_order_relaxed);
  w.stage.store(1, std::memory_order_relaxed);
  w.switches_at_tick = switches;
  __atomic_store_n(&e.budget, uint64_t{0}, __ATOMIC_RELAXED);
}

void on_tick(int, siginfo_t *, void *) {
  const int saved_errno = errno;
  Watch &w = watch;
  Engine &e = engine();
  if (!w.armed.load(std::memory_order_relaxed) || !e.in_launch) { errno = saved_errno; return; }
  const uint64_t switches = e.switches.get();
  if (w.stage.load(std::memory_order_relaxed) == 0) {
    end_at_next_switch(w, e, switches);
    errno = saved_errno;
    return;
  }
  Fiber *f = nullptr;
  if (switches == w.switches_at_tick && !san::asan && fault_in_kernel_here(&f)) {
    w.armed.store(0, std::memory_order_relaxed);
    char what[200];
    describe_end(what, sizeof what);
    const ThreadView &v = f->view;
    abandon_from_host(w.why, "%s; thread (%u,%u,%u) of block (%u,%u,%u) was still running "
                      "without reaching a barrier", what, v.thread_idx.x, v.thread_idx.y,
                      v.thread_idx.z, v.block_idx.x, v.block_idx.y, v.block_idx.z);
    fiber_restart(f);  // does not return: the host goes on (faults.cpp does the same)
  }
  w.switches_at_tick = switches;
  errno = saved_errno;
}

bool install() {
  static bool done, ok;
  if (done) return ok;
  done = true;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_tick;
  // SA_NODEFER: stage 2 leaves by a context jump, never by returning (as faults.cpp).
  sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  ok = sigaction(watchdog_signal(), &sa, nullptr) == 0;
  return ok;
}

}  // namespace

/* What ended the launch, as the first words of its status message (snprintf only: called
 * from the tick's handler as from count_switch; the formats take integers alone). */
void describe_end(char *out, size_t len) {
  const Watch &w = watch;
  if (w.why.load(std::memory_order_relaxed) == RF_SIM_INTERRUPTED) {
    snprintf(out, len, "interrupted: a stop was asked for (SIGINT or SIGTERM)");
    return;
  }
  const unsigned long long ms = w.limit_ns.get() / 1000000u;
  const unsigned long long elems = w.elems.get(), threads = w.threads.get();
  if (elems || threads > 1)
    snprintf(out, len, "timeout: the launch ran past its limit of %llu ms of CPU time "
             "(REDFUZZ_LAUNCH_TIMEOUT_MS %llu + (%llu elements + %llu threads) x %llu ns, "
             "REDFUZZ_LAUNCH_NS_PER_ELEM%s)", ms, static_cast<unsigned long long>(w.base_ms.get()),
             elems, threads, static_cast<unsigned long long>(w.ns_per_elem.get()),
             san::tsan || san::asan ? " x 10 in a sanitizer build" : "");
  else
    snprintf(out, len, "timeout: the launch ran past its limit of %llu ms of CPU time "
             "(REDFUZZ_LAUNCH_TIMEOUT_MS)", ms);
}

uint64_t launch_timeout_ms() { return g_timeout_ms.load(std::memory_order_relaxed); }
uint64_t launch_work_elems() { return g_work_elems.load(std::memory_order_relaxed); }

/* Why the launch now ending ran into the watchdog (its budget was lowered): RF_SIM_TIMEOUT or
 * RF_SIM_INTERRUPTED, 0 when it did not. */
int watchdog_fired() {
  return watch.stage.load(std::memory_order_relaxed) != 0 ? watch.why.load(std::memory_order_relaxed)
                                                          : 0;
}

void watchdog_poll(uint64_t switches) {
  if (switches % kPollSwitches) return;
  Watch &w = watch;
  if (w.armed.load(std::memory_order_relaxed) && w.stage.load(std::memory_order_relaxed) == 0)
    end_at_next_switch(w, engine(), switches);
}

bool interrupt_requested() { return g_interrupted.load(std::memory_order_relaxed) != 0; }

void watchdog_arm(uint64_t threads) {
  Watch &w = watch;
  w.stage.store(0, std::memory_order_relaxed);
  w.why.store(0, std::memory_order_relaxed);
  const uint64_t base_ms = launch_timeout_ms();
  const uint64_t elems = g_work_elems.load(std::memory_order_relaxed);
  const uint64_t ns_per_elem = mul_sat(g_ns_per_elem.load(std::memory_order_relaxed),
                                       san::tsan || san::asan ? kSanitizerFactor : 1);
  const uint64_t limit_ns = !base_ms ? 0
                            : add_sat(mul_sat(base_ms, 1000000u),
                                      mul_sat(add_sat(elems, threads), ns_per_elem));
  w.base_ms.set(base_ms);
  w.elems.set(elems);
  w.threads.set(threads);
  w.ns_per_elem.set(ns_per_elem);
  w.limit_ns.set(limit_ns);
  Engine &e = engine();
  w.saved_budget = e.budget;
  w.cpu0.set(clock_ns(CLOCK_PROCESS_CPUTIME_ID));
  w.wall0.set(clock_ns(CLOCK_MONOTONIC));
  if (san::tsan) {  // no timer: the GPU threads poll (watchdog_poll)
    w.armed.store(1, std::memory_order_relaxed);
    return;
  }
  if (!install()) return;
  if (w.made && w.owner != getpid()) w.made = false;  // timers are not inherited by fork
  if (!w.made) {
    struct sigevent sev;
    memset(&sev, 0, sizeof sev);
    sev.sigev_notify = SIGEV_THREAD_ID;
    sev.sigev_signo = watchdog_signal();
    sev.sigev_notify_thread_id = static_cast<pid_t>(syscall(SYS_gettid));
    if (timer_create(CLOCK_MONOTONIC, &sev, &w.timer) != 0) return;  // no watchdog, no harm
    w.made = true;
    w.owner = getpid();
  }
  // A short limit (a test's) ticks more often, down to every 10 ms, and first at the limit.
  uint64_t tick_ns = kTickMs * 1000000u;
  if (limit_ns && limit_ns / 10 < tick_ns)
    tick_ns = limit_ns / 10 < 10000000u ? 10000000u : limit_ns / 10;
  const uint64_t first_ns = limit_ns && limit_ns < tick_ns ? limit_ns : tick_ns;
  struct itimerspec its;
  memset(&its, 0, sizeof its);
  its.it_value.tv_sec = static_cast<time_t>(first_ns / 1000000000u);
  its.it_value.tv_nsec = static_cast<long>(first_ns % 1000000000u);
  its.it_interval.tv_sec = 0;
  its.it_interval.tv_nsec = static_cast<long>(tick_ns);
  w.armed.store(1, std::memory_order_relaxed);
  if (timer_settime(w.timer, 0, &its, nullptr) != 0) w.armed.store(0, std::memory_order_relaxed);
}

void watchdog_disarm() {
  Watch &w = watch;
  const int stage = w.stage.load(std::memory_order_relaxed);
  if (!w.armed.load(std::memory_order_relaxed) && !stage) return;
  w.armed.store(0, std::memory_order_relaxed);
  if (w.made && !san::tsan) {
    struct itimerspec off;
    memset(&off, 0, sizeof off);
    timer_settime(w.timer, 0, &off, nullptr);
  }
  if (stage) __atomic_store_n(&engine().budget, w.saved_budget, __ATOMIC_RELAXED);
}

}  // namespace rf_sim

void rf_sim_set_launch_timeout_ms(uint64_t ms) {
  rf_sim::g_timeout_ms.store(ms, std::memory_order_relaxed);
}

void rf_sim_set_launch_work(uint64_t elems, uint64_t ns_per_elem) {
  rf_sim::g_work_elems.store(elems, std::memory_order_relaxed);
  rf_sim::g_ns_per_elem.store(ns_per_elem, std::memory_order_relaxed);
}

void rf_sim_interrupt(void) { rf_sim::g_interrupted.store(1, std::memory_order_relaxed); }
int rf_sim_interrupted(void) { return rf_sim::interrupt_requested() ? 1 : 0; }

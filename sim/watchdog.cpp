/* The wall-clock watchdog of a launch (rf_sim_set_launch_timeout_ms, REDFUZZ_LAUNCH_TIMEOUT_MS).
 *
 * GPU threads are fibers switched only at barriers and wave operations, so a thread that
 * spins without reaching one is never preempted: the step budget (counted at switches)
 * cannot see it, and nothing else would ever run again on the launching thread. A POSIX
 * timer aimed at the launching thread (SIGEV_THREAD_ID, a real-time signal: libFuzzer owns
 * SIGALRM for its own -timeout) ends such a launch in two stages:
 *
 *  1. At the deadline the handler only lowers the step budget to 0 (one word of this
 *     thread's engine: async-signal-safe). The next switch, wherever it comes, abandons the
 *     launch through the ordinary path (engine.cpp, count_switch) with RF_SIM_TIMEOUT: a
 *     kernel that waits at barriers, or a deadline met between blocks, ends there, exactly
 *     as a step-budget timeout does, with nothing interrupted.
 *  2. A grace period later, if no switch at all happened in between and a GPU thread's fiber
 *     is the code running (fault_in_kernel_here), that fiber is spinning in its own code.
 *     The handler then leaves it the way the fault handler leaves a faulting kernel
 *     (faults.cpp): the launch is abandoned with RF_SIM_TIMEOUT, the fiber's stack gets a
 *     fresh context, and control returns to the host as if the block had been left; the
 *     block's other threads unwind as usual. This is the escape the simulator already takes
 *     from a SIGSEGV anywhere in kernel code, and it is taken only where a fault's would be:
 *     a fiber that has made no switch for a whole grace period is not inside the
 *     scheduler (every scheduler entry ends in a counted switch or returns at once).
 *
 * Either way the launch's status is RF_SIM_TIMEOUT (hipErrorLaunchTimeOut), the runner's
 * `timeout` verdict, and the run goes on. Not under ThreadSanitizer or AddressSanitizer
 * (stage 1 only there): their runtimes must see a handler return, as for faults. The timer
 * is armed for the launching thread only; with REDFUZZ_SIM_THREADS > 1 a block that spins on
 * a worker thread is ended by stage 1 alone when it reaches a switch. */
#include <errno.h>
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

std::atomic<uint64_t> g_timeout_ms{0};

struct Watch {
  bool made = false;       // the timer exists (made on this thread's first armed launch)
  pid_t owner = 0;         // the process that made it: a forked worker makes its own
  timer_t timer{};
  volatile sig_atomic_t armed = 0;
  volatile sig_atomic_t stage = 0;  // 0 before the deadline, 1 after it
  uint64_t saved_budget = 0;
  uint64_t switches_at_tick = 0;
  uint64_t ms = 0;
};
thread_local Watch watch;

int watchdog_signal() { return SIGRTMIN + 3; }

void on_tick(int, siginfo_t *, void *) {
  const int saved_errno = errno;
  Watch &w = watch;
  Engine &e = engine();
  if (!w.armed || !e.in_launch) { errno = saved_errno; return; }
  const uint64_t switches = e.switches.get();
  if (w.stage == 0) {
    w.stage = 1;
    w.switches_at_tick = switches;
    __atomic_store_n(&e.budget, uint64_t{0}, __ATOMIC_RELAXED);  // stage 1: the next switch
    errno = saved_errno;
    return;
  }
  Fiber *f = nullptr;
  if (switches == w.switches_at_tick && !san::tsan && !san::asan && fault_in_kernel_here(&f)) {
    w.armed = 0;
    const ThreadView &v = f->view;
    abandon_from_host(RF_SIM_TIMEOUT,
                      "timeout: the launch ran past the wall-clock limit of %llu ms "
                      "(REDFUZZ_LAUNCH_TIMEOUT_MS); thread (%u,%u,%u) of block (%u,%u,%u) "
                      "was still running without reaching a barrier",
                      static_cast<unsigned long long>(w.ms), v.thread_idx.x, v.thread_idx.y,
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

uint64_t launch_timeout_ms() { return g_timeout_ms.load(std::memory_order_relaxed); }

/* True when the launch now ending ran into the wall-clock limit (its budget was lowered). */
bool watchdog_fired() { return watch.stage != 0; }

void watchdog_arm() {
  Watch &w = watch;
  w.stage = 0;
  w.ms = launch_timeout_ms();
  if (!w.ms || !install()) return;
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
  Engine &e = engine();
  w.saved_budget = e.budget;
  // The grace period of stage 2: a tenth of the limit, within 10 ms .. 1 s.
  const uint64_t grace = w.ms / 10 < 10 ? 10 : w.ms / 10 > 1000 ? 1000 : w.ms / 10;
  struct itimerspec its;
  memset(&its, 0, sizeof its);
  its.it_value.tv_sec = static_cast<time_t>(w.ms / 1000);
  its.it_value.tv_nsec = static_cast<long>(w.ms % 1000) * 1000000L;
  its.it_interval.tv_sec = static_cast<time_t>(grace / 1000);
  its.it_interval.tv_nsec = static_cast<long>(grace % 1000) * 1000000L;
  w.armed = 1;
  if (timer_settime(w.timer, 0, &its, nullptr) != 0) w.armed = 0;
}

void watchdog_disarm() {
  Watch &w = watch;
  if (!w.armed && !w.stage) return;
  w.armed = 0;
  if (w.made) {
    struct itimerspec off;
    memset(&off, 0, sizeof off);
    timer_settime(w.timer, 0, &off, nullptr);
  }
  if (w.stage) __atomic_store_n(&engine().budget, w.saved_budget, __ATOMIC_RELAXED);
}

}  // namespace rf_sim

void rf_sim_set_launch_timeout_ms(uint64_t ms) {
  rf_sim::g_timeout_ms.store(ms, std::memory_order_relaxed);
}

/* Faults inside a kernel become verdicts (plain build). A SIGSEGV, SIGBUS or SIGFPE raised
 * while a GPU thread's fiber runs on the launching thread ends the launch: an address in a
 * guard page of a device buffer (guarded_alloc.h) is RF_SIM_OOB naming the buffer and the
 * offset, a write into the pages of a buffer made read-only (the runner's inputs)
 * RF_SIM_INPUT_WRITTEN with the address and the instruction, an address in the guard after
 * an LDS declaration (lds.h) RF_SIM_OOB naming the declaration, anything else RF_SIM_CRASH
 * naming the signal and the thread. The faulting fiber is discarded (its slot gets a fresh
 * context), the host resumes as if the block had been abandoned, and the other threads
 * unwind as usual. A fault anywhere else (host code, or a launch on another thread) goes to
 * the handler that was there before, or kills the process as it would have.
 *
 * Not in sanitizer builds: AddressSanitizer reports out-of-range accesses itself
 * (asan_report.cpp), and ThreadSanitizer's own signal machinery must see the handler
 * return. */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>
#include "engine.h"
#include "guarded_alloc.h"
#include "sanitizer_hooks.h"
#include "status.h"

namespace rf_sim {

[[noreturn]] void fiber_restart(Fiber *f);  // engine.cpp
bool fault_in_kernel_here(Fiber **f);  // engine.cpp

static struct sigaction previous[3];
static const int kSignals[3] = {SIGSEGV, SIGBUS, SIGFPE};

static const char *signal_name(int sig) {
  return sig == SIGSEGV ? "SIGSEGV" : sig == SIGBUS ? "SIGBUS" : "SIGFPE";
}

/* 1 write, 0 read, -1 unknown (x86-64 page-fault error code, bit 1). */
static int fault_is_write(void *uctx) {
#if defined(__x86_64__) && defined(REG_ERR)
  const ucontext_t *uc = static_cast<const ucontext_t *>(uctx);
  return (uc->uc_mcontext.gregs[REG_ERR] & 2) ? 1 : 0;
#else
  (void)uctx;
  return -1;
#endif
}

static const void *fault_pc(void *uctx) {
#if defined(__x86_64__) && defined(REG_RIP)
  return reinterpret_cast<const void *>(
      static_cast<const ucontext_t *>(uctx)->uc_mcontext.gregs[REG_RIP]);
#else
  (void)uctx;
  return nullptr;
#endif
}

static void pass_on(int sig, siginfo_t *info, void *uctx) {
  int k = sig == SIGSEGV ? 0 : sig == SIGBUS ? 1 : 2;
  const struct sigaction &p = previous[k];
  if ((p.sa_flags & SA_SIGINFO) && p.sa_sigaction) {
    p.sa_sigaction(sig, info, uctx);
    return;
  }
  if (p.sa_handler != SIG_DFL && p.sa_handler != SIG_IGN && p.sa_handler) {
    p.sa_handler(sig);
    return;
  }
  // Default action: returning re-executes the faulting instruction, which now kills.
  signal(sig, SIG_DFL);
}

static void on_fault(int sig, siginfo_t *info, void *uctx) {
  Fiber *f = nullptr;
  if (!fault_in_kernel_here(&f)) {
    pass_on(sig, info, uctx);
    return;
  }
  const ThreadView &v = f->view;
  char where[160];
  snprintf(where, sizeof where, "thread (%u,%u,%u) of block (%u,%u,%u)", v.thread_idx.x,
           v.thread_idx.y, v.thread_idx.z, v.block_idx.x, v.block_idx.y, v.block_idx.z);
  Dl_info dl;
  const void *pc = fault_pc(uctx);
  const char *fn = pc && dladdr(pc, &dl) && dl.dli_sname ? dl.dli_sname : "?";
  GuardHit hit;
  LdsHit lh;
  if (sig != SIGFPE && engine().lds.guard_hit(info->si_addr, &lh)) {
    int w = fault_is_write(uctx);
    char decl[300];
    if (lh.dynamic)
      snprintf(decl, sizeof decl, "the dynamic LDS (RF_DYN_SHARED, %zu bytes)", lh.bytes);
    else if (lh.file)
      snprintf(decl, sizeof decl, "the LDS declaration at %s:%d (%zu bytes)",
               short_path(lh.file), lh.line, lh.bytes);
    else
      snprintf(decl, sizeof decl, "the LDS arena (no declaration there)");
    abandon_from_host(RF_SIM_OOB, "oob: LDS %s at byte %zu past the end of %s by %s, in %s",
                      w == 1 ? "write" : w == 0 ? "read" : "access", lh.past, decl, where, fn);
  } else if (sig != SIGFPE && guarded_lookup(info->si_addr, &hit) && hit.readonly &&
             hit.in_body && fault_is_write(uctx) != 0) {
    // A write into a read-only input (the runner's inputs while its variants run,
    // run/input_check.c): the write never happened, so the input is intact for the next
    // launch. The runner turns the address into the element's index; the source line is
    // looked up after the launch (rf_sim_take_status), outside this handler.
    status_note_write(info->si_addr, pc);
    // No buffer number or address in the message: the runner names the element, and a
    // result's detail must not depend on how many buffers the process made before.
    abandon_from_host(RF_SIM_INPUT_WRITTEN, "input-written: write into a read-only input by "
                      "%s, in %s", where, fn);
  } else if (sig != SIGFPE && guarded_lookup(info->si_addr, &hit)) {
    int w = fault_is_write(uctx);
    abandon_from_host(RF_SIM_OOB,
                      "oob: %s at byte offset %lld of device buffer #%u (%zu bytes: %s) by %s, "
                      "in %s",
                      w == 1 ? "write" : w == 0 ? "read" : "access", hit.offset, hit.id,
                      hit.bytes, hit.offset < 0 ? "before its start" : "past its end", where, fn);
  } else {
    abandon_from_host(RF_SIM_CRASH, "crash: %s (%s) at address %p by %s, in %s",
                      signal_name(sig), sig == SIGFPE ? "arithmetic fault" : "bad address",
                      info->si_addr, where, fn);
  }
  fiber_restart(f);  // does not return: the host goes on
}

void install_fault_handling() {
  if (san::tsan || san::asan) return;
  static bool done;
  if (done) return;
  done = true;
  for (int k = 0; k < 3; k++) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    // SA_NODEFER: the handler leaves by a context jump, never by returning, so the signal
    // must not stay blocked for the next fault.
    sa.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(kSignals[k], &sa, &previous[k]);
  }
}

/* Plugin code (the redfuzz harness's containment, run/contain.c) asks these: whether the
 * calling host thread is running a GPU thread of a launch right now (a fault or an exit
 * there belongs to the kernel, not to the host code around it), and, for an exit or an abort
 * called by kernel code, to end the launch as a fault would. */
bool in_kernel_thread() {
  Fiber *f = nullptr;
  return fault_in_kernel_here(&f);
}

void end_kernel_thread(const char *what) {
  Fiber *f = nullptr;
  if (!fault_in_kernel_here(&f)) return;
  const ThreadView &v = f->view;
  // The same unwinding as a watchdog timeout: the thread's frames are left by an exception
  // (the kernel's and the caller's: run/contain.c is built with unwind tables), the block
  // is abandoned and the host goes on. The message names the thread, as a fault's does.
  abandon_in_fiber(RF_SIM_CRASH, "crash: %s by thread (%u,%u,%u) of block (%u,%u,%u)", what,
                   v.thread_idx.x, v.thread_idx.y, v.thread_idx.z, v.block_idx.x, v.block_idx.y,
                   v.block_idx.z);
}

}  // namespace rf_sim

extern "C" void rf_sim_install_fault_handling(void) { rf_sim::install_fault_handling(); }
extern "C" int rf_sim_in_kernel_thread(void) { return rf_sim::in_kernel_thread() ? 1 : 0; }
extern "C" void rf_sim_end_kernel_thread(const char *what) { rf_sim::end_kernel_thread(what); }

/* Containment of plugin code (contain.h): contained calls, the exit family replaced in the
 * program, the fault handlers, standard output kept apart. */
#define _GNU_SOURCE   /* dl_iterate_phdr, dladdr, REG_RIP */
#include <dlfcn.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include "run/contain.h"
#include "kernels/plugin_loader.h"
#include "kernels/harness/device.h"

/* ---- the state of a contained call ----------------------------------------------------- */
/* One per contained call in progress on a thread (its frame holds the jump buffer). */
typedef struct guard {
  sigjmp_buf env;
  struct guard *prev;
} guard;

/* The ways a call can end other than by returning. */
enum { END_EXIT, END__EXIT, END__EXIT_UPPER, END_QUICK_EXIT, END_PTHREAD_EXIT, END_ABORT,
       END_SIGNAL };
static const char *const end_names[] = {"exit", "_exit", "_Exit", "quick_exit", "pthread_exit",
                                        "abort"};

/* How the contained call on this thread ended, written just before the jump back. */
typedef struct {
  int how, status;          /* END_*, the status passed */
  uintptr_t caller;         /* the exit family: where it was called from */
  int sig, code;            /* END_SIGNAL: the signal and its si_code */
  uintptr_t addr, pc;       /* the fault's address and the faulting instruction */
} ending;

static _Thread_local guard *tls_guard;
static _Thread_local ending tls_end;
/* 1 while this thread passes an exit or abort of the program's own on: the signal it raises
 * (abort's SIGABRT) is not a plugin's. */
static _Thread_local int tls_forwarding;

/* The variant and function of the contained call in progress (any thread), for the line of
 * an exit that cannot be contained (a plugin's own thread). Variants live as long as the
 * process (frozen at load, kernels/plugin_loader.c); function names are literals. */
static _Atomic(const rf_variant *) active_variant;
static _Atomic(const char *) active_fn;

static int fatal_aborts;
void rf_contain_fatal_abort(int on) { fatal_aborts = on; }

/* ---- standard output -------------------------------------------------------------------- */
static FILE *machine_out;   /* the commands' standard output (a descriptor of its own) */
static FILE *plugin_out;    /* the C library's stdout stream: descriptor 1, now stderr */

void rf_contain_stdout(void) {
  if (machine_out) return;
  const int fd = fcntl(1, F_DUPFD_CLOEXEC, 3);
  if (fd < 0) return;   /* descriptor 1 closed: writes fail as before, and say so */
  FILE *m = fdopen(fd, "w");
  if (!m) {
    close(fd);
    return;
  }
  fflush(stdout);
  /* Descriptor 1 becomes standard error; where that is closed, nothing (no plugin output on
   * a descriptor some later open would take). */
  if (dup2(2, 1) < 0) {
    const int null = open("/dev/null", O_WRONLY);
    if (null >= 0 && null != 1) {
      dup2(null, 1);
      close(null);
    }
  }
  plugin_out = stdout;
  setvbuf(plugin_out, NULL, _IOLBF, 0);   /* plugin lines interleave with stderr's as written */
  machine_out = m;
  stdout = m;   /* glibc's stdout is an ordinary variable (its manual, "Standard Streams") */
}

void rf_contain_stdout_end(void) {
  if (!machine_out) return;
  fflush(machine_out);
  stdout = plugin_out;
}

/* Plugin code is about to run / has returned (only the outermost call switches). */
static void plugin_stdout(void) {
  if (machine_out) stdout = plugin_out;
}
static void own_stdout(void) {
  if (!machine_out) return;
  fflush(plugin_out);
  stdout = machine_out;
}

/* ---- where code lives -------------------------------------------------------------------- */
/* The program's own image (its PT_LOAD segments): calls from there are redfuzz's, libFuzzer's
 * or a sanitizer runtime's, never a plugin's. */
static uintptr_t exe_lo, exe_hi;

static int first_object(struct dl_phdr_info *info, size_t size, void *ctx) {
  (void)size;
  (void)ctx;
  uintptr_t lo = UINTPTR_MAX, hi = 0;
  for (unsigned i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD) continue;
    const uintptr_t a = info->dlpi_addr + ph->p_vaddr;
    if (a < lo) lo = a;
    if (a + ph->p_memsz > hi) hi = a + ph->p_memsz;
  }
  exe_lo = lo;
  exe_hi = hi;
  return 1;   /* the first object is the program */
}

static void find_program(void) {
  if (!exe_hi) dl_iterate_phdr(first_object, NULL);
}

static int in_program(const void *pc) {
  find_program();
  return (uintptr_t)pc >= exe_lo && (uintptr_t)pc < exe_hi;
}

/* ---- the real functions ------------------------------------------------------------------ */
/* The sanitizer runtimes replace _exit, pthread_exit and abort with interceptors (weak definitions,
 * which the ones below override): those are called where they exist, so that ThreadSanitizer
 * and LeakSanitizer still finish their reports at the program's own _exit. */
extern void __interceptor__exit(int) __attribute__((weak, noreturn));
extern void __interceptor_pthread_exit(void *) __attribute__((weak, noreturn));
extern void __interceptor_abort(void) __attribute__((weak, noreturn));

typedef void (*exit_fn)(int);
static exit_fn real_exit, real__exit, real__Exit, real_quick_exit;
static void (*real_pthread_exit)(void *);
static void (*real_abort)(void);

static void find_real(void) {
  if (!real_exit) real_exit = (exit_fn)dlsym(RTLD_NEXT, "exit");
  if (!real__exit) real__exit = (exit_fn)dlsym(RTLD_NEXT, "_exit");
  if (!real__Exit) real__Exit = (exit_fn)dlsym(RTLD_NEXT, "_Exit");
  if (!real_quick_exit) real_quick_exit = (exit_fn)dlsym(RTLD_NEXT, "quick_exit");
  if (!real_pthread_exit) real_pthread_exit = (void (*)(void *))dlsym(RTLD_NEXT, "pthread_exit");
  if (!real_abort) real_abort = (void (*)(void))dlsym(RTLD_NEXT, "abort");
}

/* Before main, so that no lookup is needed on the way out (a loader lock held by a thread
 * forked away, a dlsym that allocates under a sanitizer). */
__attribute__((constructor)) static void contain_init(void) {
  find_real();
  find_program();
}

static _Noreturn void really__exit(int status) {
  if (__interceptor__exit) __interceptor__exit(status);
  find_real();
  if (real__exit) real__exit(status);
  for (;;) {}
}

/* ---- what cannot be contained ------------------------------------------------------------- */
/* Writes the line (standard error, unbuffered) and ends the process: RF_CONTAIN_EXIT, or
 * abort() for a fuzzer after loading. May run in a signal handler: no allocation, no stdio
 * lock waited for (the thread that holds one may be the one that never comes back). */
static _Noreturn void fatal(const char *line, int loading) {
  if (plugin_out && ftrylockfile(plugin_out) == 0) {
    fflush_unlocked(plugin_out);
    funlockfile(plugin_out);
  }
  if (machine_out && ftrylockfile(machine_out) == 0) {   /* the results so far */
    fflush_unlocked(machine_out);
    funlockfile(machine_out);
  }
  size_t n = strlen(line);
  for (const char *p = line; n;) {
    const ssize_t w = write(2, p, n);
    if (w <= 0) break;
    p += w;
    n -= (size_t)w;
  }
  if (fatal_aborts && !loading) {
    tls_forwarding = 1;
    abort();
  }
  really__exit(RF_CONTAIN_EXIT);
}

/* "called exit(0)" for the exit family called by plugin code, "abort() called by
 * libstdc++.so.6" for a library's call (a library a plugin uses: an uncaught exception's
 * std::terminate); buf returned. Not in a signal handler (dladdr). */
static const char *describe_call(int how, int status, uintptr_t caller, char *buf, size_t len) {
  char call[32];
  if (how == END_PTHREAD_EXIT || how == END_ABORT) snprintf(call, sizeof call, "%s()", end_names[how]);
  else snprintf(call, sizeof call, "%s(%d)", end_names[how], status);
  Dl_info dl;
  if (!caller || rf_plugin_at((const void *)caller) || rf_plugin_loading() ||
      !dladdr((void *)caller, &dl) || !dl.dli_fname) {
    snprintf(buf, len, "called %s", call);
    return buf;
  }
  const char *base = strrchr(dl.dli_fname, '/');
  snprintf(buf, len, "%s called by %s", call, base ? base + 1 : dl.dli_fname);
  return buf;
}

/* "SIGSEGV (bad address 0x0)" for a signal; buf returned. */
static const char *describe_signal(int sig, int code, uintptr_t addr, char *buf, size_t len) {
  const int sent = code <= 0;   /* SI_USER, SI_TKILL, SI_QUEUE: raise() or kill() */
  switch (sig) {
  case SIGSEGV:
    if (sent) snprintf(buf, len, "SIGSEGV (raised)");
    else snprintf(buf, len, "SIGSEGV (bad address 0x%llx)", (unsigned long long)addr);
    break;
  case SIGBUS:
    if (sent) snprintf(buf, len, "SIGBUS (raised)");
    else snprintf(buf, len, "SIGBUS (bus error at 0x%llx)", (unsigned long long)addr);
    break;
  case SIGFPE:
    snprintf(buf, len, "SIGFPE (%s)", sent ? "raised"
             : code == FPE_INTDIV ? "integer divide by zero"
             : code == FPE_INTOVF ? "integer overflow" : "arithmetic fault");
    break;
  case SIGILL: snprintf(buf, len, "SIGILL (%s)", sent ? "raised" : "illegal instruction"); break;
  default:   /* abort() itself is caught before its signal: a library's own abort, or raise */
    snprintf(buf, len, "SIGABRT (%s)", sent ? "raised, e.g. by a failed assert" : "abort");
    break;
  }
  return buf;
}

/* The line of an ending that cannot be contained, then the end. */
static _Noreturn void uncontained(const char *what, const void *caller) {
  char line[768], end[48];
  const char *loading = rf_plugin_loading();
  const rf_variant *v = atomic_load(&active_variant);
  const char *fn = atomic_load(&active_fn);
  const char *lib = rf_plugin_at(caller);
  /* How fatal() ends it: the fuzz target's abort after loading, exit 3 otherwise. */
  if (fatal_aborts && !loading) snprintf(end, sizeof end, "abort: an input the fuzzer keeps");
  else snprintf(end, sizeof end, "exit %d", RF_CONTAIN_EXIT);
  if (loading)
    snprintf(line, sizeof line, "redfuzz: plugin %s: %s while being loaded (a constructor, "
             "rf_plugin_abi_version or rf_plugin_variants): the process cannot go on (%s)\n",
             loading, what, end);
  else if (v && fn && lib)
    snprintf(line, sizeof line, "redfuzz: plugin %s, variant %s: %s in %s on a thread of its "
             "own: the process cannot go on (%s)\n",
             rf_plugin_of(v) ? rf_plugin_of(v) : lib, v->name, what, fn, end);
  else if (v && fn && rf_plugin_of(v))   /* a library's call (what names it), not redfuzz's */
    snprintf(line, sizeof line, "redfuzz: plugin %s, variant %s: %s on another thread while "
             "the variant was in %s: the process cannot go on (%s)\n",
             rf_plugin_of(v), v->name, what, fn, end);
  else
    snprintf(line, sizeof line, "redfuzz: plugin %s: %s outside its entry points (on a thread "
             "of its own, or at exit): the process cannot go on (%s)\n",
             lib ? lib : "?", what, end);
  fatal(line, loading != NULL);
}

/* An exit-family call from `caller`. Returns when the call is the program's own (or nothing
 * of a plugin's is running): the caller then does what was asked. */
static void plugin_ends(int how, int status, const void *caller) {
  if (tls_forwarding || in_program(caller)) return;
  char what[128];
  describe_call(how, status, (uintptr_t)caller, what, sizeof what);
  /* Kernel code on the simulator: its launch ends as a fault's does. */
  if (rf_dev_sim_in_kernel_thread()) {
    char in_kernel[96];
    snprintf(in_kernel, sizeof in_kernel, "%s in a kernel", what);
    rf_dev_sim_end_kernel_thread(in_kernel);
  }
  guard *g = tls_guard;
  if (g) {
    tls_end = (ending){.how = how, .status = status, .caller = (uintptr_t)caller};
    siglongjmp(g->env, 1);
  }
  /* Plugin code on a thread of its own, or at exit. */
  if (rf_plugin_loading() || rf_plugin_at(caller)) uncontained(what, caller);
  /* A library's call on another thread while a plugin's variant is in one of its entry points
   * (libstdc++'s std::terminate for an exception that leaves a thread the plugin started): the
   * line names the library, the plugin, the variant and the function. Not while a built-in
   * variant's call is in progress: a runtime's own exit or abort (a GPU runtime's, on a thread
   * of its own) is not that variant's, and ends the process as it always did. */
  const rf_variant *v = atomic_load(&active_variant);
  if (v && rf_plugin_of(v)) uncontained(what, caller);
}

/* The exit family, as the program (and so every plugin) sees it. The C library's own calls
 * inside itself do not come here; its exported functions do what they always did for every
 * call that is not plugin code's. */
void exit(int status) {
  plugin_ends(END_EXIT, status, __builtin_return_address(0));
  find_real();
  real_exit(status);
  for (;;) {}
}

void _exit(int status) {
  plugin_ends(END__EXIT, status, __builtin_return_address(0));
  really__exit(status);
}

void _Exit(int status) {
  plugin_ends(END__EXIT_UPPER, status, __builtin_return_address(0));
  find_real();
  real__Exit(status);
  for (;;) {}
}

void quick_exit(int status) {
  plugin_ends(END_QUICK_EXIT, status, __builtin_return_address(0));
  find_real();
  real_quick_exit(status);
  for (;;) {}
}

void abort(void) {
  const void *caller = __builtin_return_address(0);
  if (!tls_forwarding) plugin_ends(END_ABORT, 0, caller);
  /* The program's own abort (or one that cannot be contained): its SIGABRT is passed on. */
  tls_forwarding = 1;
  if (__interceptor_abort) __interceptor_abort();
  find_real();
  real_abort();
  for (;;) {}
}

void pthread_exit(void *value) {
  plugin_ends(END_PTHREAD_EXIT, 0, __builtin_return_address(0));
  if (__interceptor_pthread_exit) __interceptor_pthread_exit(value);
  find_real();
  real_pthread_exit(value);
  for (;;) {}
}

/* ---- faults -------------------------------------------------------------------------------- */
enum { N_SIGNALS = 5 };
static const int handled[N_SIGNALS] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
static struct sigaction previous[N_SIGNALS];
static int installed;   /* 0 none, 1 for loading, 2 for the calls */

static uintptr_t fault_pc(void *uctx) {
#if defined(__x86_64__) && defined(REG_RIP)
  return (uintptr_t)((const ucontext_t *)uctx)->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
  return (uintptr_t)((const ucontext_t *)uctx)->uc_mcontext.pc;
#else
  (void)uctx;
  return 0;
#endif
}

/* A signal that is not plugin code's: the handler that was there before ours gets it (the
 * simulator's, for a kernel's fault; a fuzzer's or a sanitizer's), or the default action. */
static void pass_on(int k, int sig, siginfo_t *info, void *uctx) {
  const struct sigaction *p = &previous[k];
  if ((p->sa_flags & SA_SIGINFO) && p->sa_sigaction) {
    p->sa_sigaction(sig, info, uctx);
    return;
  }
  if (!(p->sa_flags & SA_SIGINFO) && p->sa_handler != SIG_DFL && p->sa_handler != SIG_IGN) {
    p->sa_handler(sig);
    return;
  }
  /* The default: a fault's instruction runs again and ends the process, a sent signal (abort's
   * raise) is sent again. An ignored fault cannot be ignored: the default too. */
  struct sigaction dfl;
  memset(&dfl, 0, sizeof dfl);
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, NULL);
  if (info->si_code <= 0) raise(sig);
}

static void on_signal(int sig, siginfo_t *info, void *uctx) {
  int k = 0;
  while (k < N_SIGNALS - 1 && handled[k] != sig) k++;
  guard *g = tls_guard;
  if (tls_forwarding || rf_dev_sim_in_kernel_thread()) {
    pass_on(k, sig, info, uctx);
    return;
  }
  const uintptr_t pc = fault_pc(uctx);
  /* A fault in the program's own code (the simulator's host side, say) is its bug, not the
   * plugin's: ending the call would leave its state half-changed. A sent signal (abort's,
   * assert's) has no faulting instruction of its own. */
  if (g && (info->si_code <= 0 || !pc || !in_program((const void *)pc))) {
    tls_end = (ending){.how = END_SIGNAL, .sig = sig, .code = info->si_code,
                       .addr = (uintptr_t)info->si_addr, .pc = pc};
    siglongjmp(g->env, 1);
  }
  /* While a plugin loads, or in a plugin's code outside any call (a thread of its own, its
   * destructors at exit): the line naming it, and the end (exit 3). */
  const char *lib = pc ? rf_plugin_at((const void *)pc) : NULL;
  if (rf_plugin_loading() || (lib && info->si_code > 0)) {
    char what[96];
    describe_signal(sig, info->si_code, (uintptr_t)info->si_addr, what, sizeof what);
    uncontained(what, (const void *)pc);
  }
  pass_on(k, sig, info, uctx);
}

/* The handlers run on a stack of their own where the thread has none (a plugin that
 * overflows its stack still gets its verdict); not under AddressSanitizer, whose jump out of
 * a handler on another stack (its own alternate stack included) cannot clear the abandoned
 * frames' shadow. */
#if defined(RF_ASAN)
static const int use_own_stack = 0;
#else
static const int use_own_stack = 1;
#endif
static void alternate_stack(void) {
#if !defined(RF_ASAN)
  static _Thread_local int done;
  if (done) return;
  done = 1;
  stack_t cur;
  if (sigaltstack(NULL, &cur) == 0 && !(cur.ss_flags & SS_DISABLE)) return;   /* has one */
  const size_t size = 256 * 1024;
  void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) return;
  stack_t ss = {.ss_sp = p, .ss_size = size, .ss_flags = 0};
  if (sigaltstack(&ss, NULL)) munmap(p, size);
#endif
}

/* Back to the handlers that were there before ours. */
static void uninstall(void) {
  for (int k = 0; k < N_SIGNALS; k++) sigaction(handled[k], &previous[k], NULL);
  installed = 0;
}

static void install(int level) {
  if (installed >= level) return;
  if (installed) uninstall();
  if (level == 2) {
    /* The simulator's kernel fault handler first, so that ours runs before it and passes a
     * kernel's fault on to it (installed at its first launch, it would see every fault first
     * and run without this handler's stack of its own). */
    rf_dev_sim_install_fault_handling();
    alternate_stack();
  }
  for (int k = 0; k < N_SIGNALS; k++) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_signal;
    /* SA_NODEFER: the handler is left by a jump (ours, or the simulator's context switch for
     * a kernel's fault), never by returning, so the signal must not stay blocked. */
    sa.sa_flags = SA_SIGINFO | SA_NODEFER | (level == 2 && use_own_stack ? SA_ONSTACK : 0);
    sigemptyset(&sa.sa_mask);
    sigaction(handled[k], &sa, &previous[k]);
  }
  installed = level;
}

void rf_contain_loading(int on) {
  if (on) {
    install(1);
    plugin_stdout();
    return;
  }
  own_stdout();
  if (installed == 1) uninstall();
}

/* ---- contained calls ---------------------------------------------------------------------- */
/* What ended the call, in words, into ended: "called exit(0) in configure", "SIGSEGV (bad
 * address 0x0) in plan, at sym+0x1c (libx.so)". */
static void describe_end(const ending *e, const char *fn, char *ended, size_t len) {
  char what[128];
  if (e->how != END_SIGNAL) {
    describe_call(e->how, e->status, e->caller, what, sizeof what);
    snprintf(ended, len, "%s in %s", what, fn);
    return;
  }
  describe_signal(e->sig, e->code, e->addr, what, sizeof what);
  /* Where: the library and the offset in it (what addr2line takes). Not a symbol: a
   * plugin's static functions are not in its dynamic symbols, and dladdr would name the
   * nearest exported one instead. */
  Dl_info dl;
  if (e->sig != SIGABRT && e->pc && dladdr((void *)e->pc, &dl) && dl.dli_fname) {
    const char *base = strrchr(dl.dli_fname, '/');
    snprintf(ended, len, "%s in %s, at %s+0x%llx", what, fn, base ? base + 1 : dl.dli_fname,
             (unsigned long long)(e->pc - (uintptr_t)dl.dli_fbase));
    return;
  }
  snprintf(ended, len, "%s in %s", what, fn);
}

typedef void (*body_fn)(void *ctx);

/* Calls body(ctx), plugin code, contained: 0 when it returned, -1 when it ended otherwise. */
static int contained(const rf_variant *v, const char *fn, body_fn body, void *ctx, char *ended,
                     size_t len) {
  install(2);
  guard g;
  g.prev = tls_guard;
  const rf_variant *outer_v = atomic_load(&active_variant);
  const char *outer_fn = atomic_load(&active_fn);
  if (sigsetjmp(g.env, 1)) {
    tls_guard = g.prev;
    if (!g.prev) own_stdout();
    atomic_store(&active_variant, outer_v);
    atomic_store(&active_fn, outer_fn);
    const ending e = tls_end;
    describe_end(&e, fn, ended, len);
    return -1;
  }
  atomic_store(&active_variant, v);
  atomic_store(&active_fn, fn);
  tls_guard = &g;
  if (!g.prev) plugin_stdout();
  body(ctx);
  if (!g.prev) own_stdout();
  tls_guard = g.prev;
  atomic_store(&active_variant, outer_v);
  atomic_store(&active_fn, outer_fn);
  return 0;
}

typedef struct {
  const rf_variant *v;
  rf_launch_cfg *cfg;
  const rf_launch_cfg *ccfg;
  const rf_launch_args *a;
  const char *why;
  size_t bytes;
  rf_plan *plan;
  int err;
} call;

static void do_configure(void *p) {
  call *c = p;
  c->why = c->v->configure(c->cfg);
}
static void do_scratch_bytes(void *p) {
  call *c = p;
  c->bytes = c->v->scratch_bytes(c->ccfg);
}
static void do_plan(void *p) {
  call *c = p;
  /* Zeroed for every caller: a plugin may build its plan with rf_plan_add alone, on the plan it
   * is given (include/redfuzz/plugin.h); stack garbage there gave it levels it never added. */
  memset(c->plan, 0, sizeof *c->plan);
  c->v->plan(c->ccfg, c->plan);
}
static void do_launch(void *p) {
  call *c = p;
  c->err = c->v->launch(c->a);
}

int rf_contained_configure(const rf_variant *v, rf_launch_cfg *cfg, const char **why,
                           char *ended, size_t len) {
  call c = {.v = v, .cfg = cfg};
  if (contained(v, "configure", do_configure, &c, ended, len)) return -1;
  *why = c.why;
  return 0;
}

int rf_contained_scratch_bytes(const rf_variant *v, const rf_launch_cfg *cfg, size_t *bytes,
                               char *ended, size_t len) {
  call c = {.v = v, .ccfg = cfg};
  if (contained(v, "scratch_bytes", do_scratch_bytes, &c, ended, len)) return -1;
  *bytes = c.bytes;
  return 0;
}

int rf_contained_plan(const rf_variant *v, const rf_launch_cfg *cfg, rf_plan *plan, char *ended,
                      size_t len) {
  call c = {.v = v, .ccfg = cfg, .plan = plan};
  return contained(v, "plan", do_plan, &c, ended, len);
}

int rf_contained_launch(const rf_variant *v, const rf_launch_args *a, int *err, char *ended,
                        size_t len) {
  call c = {.v = v, .a = a};
  if (contained(v, "launch", do_launch, &c, ended, len)) return -1;
  *err = c.err;
  return 0;
}

/* Plugin code is untrusted (README, "Safety of the harness"): every call of a variant's entry
 * points goes through here, so that what the code does to the process is contained and named.
 *
 *  - exit, _exit, _Exit, quick_exit and pthread_exit called by a variant's code, and a fault
 *    (SIGSEGV, SIGBUS, SIGFPE, SIGILL) or SIGABRT (abort, a failed assert, an uncaught C++
 *    exception) while it runs, end that call instead of the process: the rf_contained_* call
 *    returns -1 with what happened ("called exit(0) in configure", "SIGSEGV (bad address
 *    0x0) in plan, at ..."), the variant's `crash`, and the command goes on. The exit family
 *    is replaced in the program itself (contain.c): a plugin's calls bind to the program's
 *    definitions first (it exports its symbols), and so do the calls of anything a plugin
 *    links; the program's own calls (and libFuzzer's, and the sanitizers') go on to the C
 *    library's, or to the sanitizer's interceptor where it has one. Kernel code on the
 *    simulator that calls them ends its launch as a fault does (`crash` naming the thread).
 *  - What cannot be contained ends the process with status RF_CONTAIN_EXIT and one line naming
 *    the plugin, the variant and the function: an exit on a thread of the plugin's own, an
 *    exit or fault while a plugin is being loaded (inside the dynamic loader, which cannot be
 *    left by a jump). The fuzz target asks for abort() instead (rf_contain_fatal_abort), so
 *    that libFuzzer keeps the input as a crash.
 *  - Standard output is the commands' own (rf_contain_stdout): their machine-readable output
 *    (--json, CSV) goes to a descriptor of its own, and descriptor 1, which plugin code,
 *    kernels and runtimes write to, is standard error.
 * Not contained: the code's other ways to end or replace the process (the exec family, kill,
 * raw system calls), memory it corrupts, locks it holds when a fault ends it. */
#ifndef RF_CONTAIN_H
#define RF_CONTAIN_H
#include <stddef.h>
#include "redfuzz/variant.h"

/* The exit status of a process that plugin code ended in a way that cannot be contained. */
#define RF_CONTAIN_EXIT 3

/* v's entry points, contained. Each returns 0 when the call returned (its results written as
 * the entry point's), or -1 when v's code ended it: `ended` (len bytes) then says what it did
 * and in which function, e.g. "called exit(0) in configure", and nothing else is written. */
int rf_contained_configure(const rf_variant *v, rf_launch_cfg *cfg, const char **why,
                           char *ended, size_t len);
int rf_contained_scratch_bytes(const rf_variant *v, const rf_launch_cfg *cfg, size_t *bytes,
                               char *ended, size_t len);
int rf_contained_plan(const rf_variant *v, const rf_launch_cfg *cfg, rf_plan *plan, char *ended,
                      size_t len);
int rf_contained_launch(const rf_variant *v, const rf_launch_args *a, int *err, char *ended,
                        size_t len);

/* Called first thing by a command-line program: standard output becomes a descriptor of the
 * program's own (a duplicate of descriptor 1, close-on-exec), which `stdout` writes to, and
 * descriptor 1 is pointed at standard error; while plugin code runs (its entry points, its
 * kernels, its loading), `stdout` is the stream on descriptor 1 again, flushed when the call
 * returns. Nothing happens when descriptor 1 is closed. rf_contain_stdout_end: at the end of
 * the program (after its output is checked), `stdout` is descriptor 1 for good, so what
 * plugin destructors print at exit goes to standard error too. */
void rf_contain_stdout(void);
void rf_contain_stdout_end(void);

/* Around loading plugins (1 before the first, 0 after the last): an exit or a fault of plugin
 * code meanwhile (constructors, rf_plugin_abi_version, rf_plugin_variants) ends the process
 * with RF_CONTAIN_EXIT and a line naming the plugin. The signal handlers of the load are
 * removed at 0 (libFuzzer installs its own after the fuzz target's initialisation, and
 * leaves a signal alone that has a handler already); those of the calls are installed at the
 * first contained call. */
void rf_contain_loading(int on);

/* 1: what cannot be contained (after loading) ends the process by abort(), after its line, so
 * that a fuzzer's crash handler keeps the input. */
void rf_contain_fatal_abort(int on);
#endif

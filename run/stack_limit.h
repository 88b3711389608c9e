/* The stack a process of redfuzz runs on. Its frames are not small (the settings, a case and
 * its messages, MPFR's temporaries), and the threads it starts get the same size as the main
 * thread's limit: with `ulimit -s 48` the runner's first frame ran past the main thread's
 * stack, and a softmax judge past a worker's at 64 KiB, each a bare SIGSEGV. */
#ifndef RF_STACK_LIMIT_H
#define RF_STACK_LIMIT_H
#include <stddef.h>

/* Below this soft stack limit the process cannot be relied on. */
#define RF_STACK_MIN_KIB 1024
/* The stack asked for when the soft limit is below it and the hard limit allows: the usual
 * default of Linux. */
#define RF_STACK_WANT_KIB 8192

/* Run first (a constructor of the program, before main's frame). A soft RLIMIT_STACK below
 * RF_STACK_WANT_KIB is raised toward it as far as the hard limit allows, and threads started
 * later get that size (pthread_setattr_default_np) instead of the small one the C library
 * took at start. 0 when the stack is then at least RF_STACK_MIN_KIB; else -1 with a message
 * naming the limit, the need and how to raise it (the caller exits 2). Unlimited: 0. */
int rf_stack_ensure(char *err, size_t len);
#endif

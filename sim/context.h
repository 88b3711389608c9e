/* The simulator's context switch: one GPU thread's stack to another's, and nothing else.
 *
 * x86-64 (context.cpp): the six callee-saved registers are pushed on the running stack, the
 * stack pointer is stored, the other stack's is loaded, its registers popped, `ret`. The
 * floating-point control words (MXCSR, x87 control word) are NOT switched, unlike Boost's
 * jump_fcontext, whose fnstcw/ldmxcsr/fldcw took half of its time (profiled): every GPU
 * thread shares the launching host thread's floating-point environment, which kernels of
 * port.h's subset cannot change. Entering and leaving with call/ret keeps the CPU's return
 * predictor balanced, and every switch returns to the same few call sites, so the `ret` is
 * predicted. Elsewhere the same interface runs on Boost.Context's jump_fcontext. */
#ifndef RF_SIM_CONTEXT_H
#define RF_SIM_CONTEXT_H
#include <stddef.h>

namespace rf_sim {

/* Saves the running context into *save and resumes `to` (a value stored by an earlier
 * switch or made by context_make). Returns when some context resumes *save. On x86-64 a
 * direct call of the assembly routine (no wrapper's jump per switch). */
#if defined(__x86_64__)
extern "C" void rf_sim_context_switch(void **save, void *to);
inline void context_switch(void **save, void *to) { rf_sim_context_switch(save, to); }
#else
void context_switch(void **save, void *to);
#endif

/* A context that, when first resumed, calls entry() on the stack [top - size, top); entry
 * must never return. */
void *context_make(char *top, size_t size, void (*entry)());

}  // namespace rf_sim
#endif

/* See context.h. */
#include "context.h"
#include <stdint.h>

#if defined(__x86_64__)

extern "C" void rf_sim_context_start();

/* rdi = save, rsi = to. The saved context is the stack pointer after the six pushes; a
 * made context has the same layout with the start trampoline as return address. */
__asm__(
    ".text\n"
    ".p2align 4\n"
    ".globl rf_sim_context_switch\n"
    ".hidden rf_sim_context_switch\n"
    ".type rf_sim_context_switch,@function\n"
    "rf_sim_context_switch:\n"
    "  .cfi_startproc\n"
    "  pushq %rbp\n"
    "  .cfi_adjust_cfa_offset 8\n"
    "  pushq %rbx\n"
    "  .cfi_adjust_cfa_offset 8\n"
    "  pushq %r12\n"
    "  .cfi_adjust_cfa_offset 8\n"
    "  pushq %r13\n"
    "  .cfi_adjust_cfa_offset 8\n"
    "  pushq %r14\n"
    "  .cfi_adjust_cfa_offset 8\n"
    "  pushq %r15\n"
    "  .cfi_adjust_cfa_offset 8\n"
    "  movq %rsp, (%rdi)\n"
    "  movq %rsi, %rsp\n"
    "  popq %r15\n"
    "  .cfi_adjust_cfa_offset -8\n"
    "  popq %r14\n"
    "  .cfi_adjust_cfa_offset -8\n"
    "  popq %r13\n"
    "  .cfi_adjust_cfa_offset -8\n"
    "  popq %r12\n"
    "  .cfi_adjust_cfa_offset -8\n"
    "  popq %rbx\n"
    "  .cfi_adjust_cfa_offset -8\n"
    "  popq %rbp\n"
    "  .cfi_adjust_cfa_offset -8\n"
    "  ret\n"
    "  .cfi_endproc\n"
    ".size rf_sim_context_switch,.-rf_sim_context_switch\n"
    /* First resume of a made context: r12 = entry; the stack pointer is 16-byte aligned
     * here, as the call needs. The undefined return address ends backtraces. */
    ".p2align 4\n"
    ".globl rf_sim_context_start\n"
    ".hidden rf_sim_context_start\n"
    ".type rf_sim_context_start,@function\n"
    "rf_sim_context_start:\n"
    "  .cfi_startproc\n"
    "  .cfi_undefined rip\n"
    "  callq *%r12\n"
    "  ud2\n"
    "  .cfi_endproc\n"
    ".size rf_sim_context_start,.-rf_sim_context_start\n");

namespace rf_sim {

void *context_make(char *top, size_t, void (*entry)()) {
  void **sp = reinterpret_cast<void **>(reinterpret_cast<uintptr_t>(top) & ~uintptr_t{15});
  *--sp = reinterpret_cast<void *>(rf_sim_context_start);  // return address of the pops
  *--sp = nullptr;                                          // rbp
  *--sp = nullptr;                                          // rbx
  *--sp = reinterpret_cast<void *>(entry);                  // r12
  *--sp = nullptr;                                          // r13
  *--sp = nullptr;                                          // r14
  *--sp = nullptr;                                          // r15
  return sp;
}

}  // namespace rf_sim

#else  // Boost.Context

#include <boost/context/detail/fcontext.hpp>

namespace bctx = boost::context::detail;

namespace rf_sim {

/* jump_fcontext hands the suspended context to the resumed one, which stores it where the
 * suspender asked (data). Made contexts all start in `start`, which calls the one entry
 * function the simulator uses (the entry knows which stack it runs on from the engine). */
static void (*entry_function)();

void context_switch(void **save, void *to) {
  bctx::transfer_t t = bctx::jump_fcontext(to, save);
  *static_cast<void **>(t.data) = t.fctx;
}

static void start(bctx::transfer_t t) {
  *static_cast<void **>(t.data) = t.fctx;
  entry_function();
  __builtin_trap();
}

void *context_make(char *top, size_t size, void (*entry)()) {
  entry_function = entry;
  return bctx::make_fcontext(top, size, start);
}

}  // namespace rf_sim
#endif

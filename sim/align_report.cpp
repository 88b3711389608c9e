/* Misaligned accesses become verdicts (plain build). The kernels are compiled with clang's
 * -fsanitize=alignment (CMakeLists.txt, rf_hip_sources), and the simulator's vector types
 * carry their GPU alignment (float4: 16 bytes, float2: 8; sim_port.h), so a load or store of
 * a float4 at an address that is not a multiple of 16 calls the handler below, where x86
 * would simply have done it. A GPU faults on such an access (NVIDIA: "misaligned address"),
 * so the launch ends as RF_SIM_CRASH naming the access, its type, the address and the
 * kernel line (docs/SIMULATOR.md, "Alignment").
 *
 * No runtime library is linked: these are the two entry points clang emits for the check
 * (recoverable, and -fno-sanitize-recover), with the data layout it passes. Not in the
 * sanitizer builds, whose runtimes bring their own handlers.
 *
 * Probe mode (align_probe.cpp): the loader asks whether a plugin's code was compiled with the
 * check by calling its probe with a misaligned pointer; the handler then only notes the call.
 * A program that links a UBSan runtime (the libFuzzer target: -fsanitize=fuzzer brings
 * ubsan_standalone whole) has that runtime's handlers instead of these; this file is then not
 * linked at all, and the probe says so. */
#include "align_probe.h"
#include "engine.h"

#if !(defined(RF_ASAN) && RF_ASAN) && !(defined(RF_TSAN) && RF_TSAN)
#include <stdint.h>
#include <stdio.h>

namespace rf_sim {
bool fault_in_kernel_here(Fiber **f);  // engine.cpp
}

namespace {

// The layouts clang passes (compiler-rt's ubsan_handlers.h).
struct SourceLocation {
  const char *file;
  uint32_t line, column;
};
struct TypeDescriptor {
  uint16_t kind, info;
  char name[1];
};
struct TypeMismatchData {
  SourceLocation loc;
  const TypeDescriptor *type;
  unsigned char log_alignment;
  unsigned char check_kind;
};

const char *access_kind(unsigned char k) {
  static const char *const names[] = {"load",         "store",       "reference binding",
                                      "member access", "member call", "constructor call"};
  return k < sizeof names / sizeof names[0] ? names[k] : "access";
}

void report(TypeMismatchData *d, uintptr_t p) {
  using namespace rf_sim;
  const unsigned long align = 1ul << d->log_alignment;
  // Probe mode: note that the check ran, and let the access go on.
  if (align_probing) {
    align_probed = align_probed || (align >= 16 && (p & 15) != 0);
    return;
  }
  // Vector types only (float2: 8 bytes, float4: 16): the runner misaligns inputs by whole
  // elements, so a misaligned scalar comes from a wild pointer, which goes on to fault (or
  // not) as it did before the check (faults.cpp names the signal).
  if (align < 8) return;
  // A check outside a kernel (a launcher's host code) is a bug in the host code, not a
  // verdict: said once per site, and the access goes on as x86 does it.
  Fiber *f = nullptr;
  if (!fault_in_kernel_here(&f)) {
    if (d->loc.file) {
      fprintf(stderr, "rf-sim: misaligned %s of %s at %p (needs %lu-byte alignment) at %s:%u, "
              "outside a kernel\n", access_kind(d->check_kind), d->type->name,
              reinterpret_cast<void *>(p), align, short_path(d->loc.file), d->loc.line);
      d->loc.file = nullptr;   // the site is reported once (as UBSan does)
    }
    return;
  }
  const ThreadView &v = self();
  // No address in the message: a verdict's detail must be the same in every run.
  abandon_in_fiber(RF_SIM_CRASH,
                   "crash: misaligned %s of %s (%lu bytes past a %lu-byte boundary; a GPU "
                   "faults) at %s:%u by thread (%u,%u,%u) of block (%u,%u,%u)",
                   access_kind(d->check_kind), d->type->name,
                   static_cast<unsigned long>(p & (align - 1)), align,
                   d->loc.file ? short_path(d->loc.file) : "?", d->loc.line, v.thread_idx.x,
                   v.thread_idx.y, v.thread_idx.z, v.block_idx.x, v.block_idx.y,
                   v.block_idx.z);
}

}  // namespace

extern "C" {
void __ubsan_handle_type_mismatch_v1(TypeMismatchData *d, uintptr_t p) { report(d, p); }
void __ubsan_handle_type_mismatch_v1_abort(TypeMismatchData *d, uintptr_t p) { report(d, p); }
/* Linked: the alignment checks of this program come here (align_probe.cpp asks). */
extern const int rf_sim_align_report_linked;
const int rf_sim_align_report_linked = 1;
}
#endif

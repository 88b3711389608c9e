/* Device memory of the plain simulator build: every hipMalloc gets its own mapping whose end
 * is followed by an inaccessible guard page (and preceded by one), so a kernel that reads or
 * writes past a buffer faults at the first byte beyond it instead of reading a neighbour's
 * data (pass on one run, wrong on the next). The fault handler (faults.cpp) asks which
 * buffer a faulting address belongs to. Sanitizer builds keep the heap: AddressSanitizer
 * bounds heap blocks itself, and ThreadSanitizer's fault handling must not be bypassed. */
#ifndef RF_SIM_GUARDED_ALLOC_H
#define RF_SIM_GUARDED_ALLOC_H
#include <stddef.h>
#include <stdint.h>

namespace rf_sim {

void *guarded_alloc(size_t bytes);
/* The same, every byte zero, and cheap however big: the body maps one small shared file of
 * zeros again and again (private: a write copies only its page), so a huge input costs the
 * pages written into it plus its page tables (run/sparse_input.c). NULL on failure. */
void *guarded_alloc_zero(size_t bytes);
/* false when p was not allocated by guarded_alloc (then the caller frees it itself). */
bool guarded_free(void *p);

/* Makes a buffer read-only (its pages PROT_READ; a kernel's write then faults) and leaves it
 * out of the snapshots below. A fresh buffer's pages are the kernel's zero page until written:
 * a huge sparse input (run/sparse_input.c) costs only its written pages. false when p was not
 * allocated by guarded_alloc or mprotect failed. */
bool guarded_protect_readonly(void *p);
/* The same as a switch (readonly false makes it writable again, as it was made): the runner's
 * dense inputs are read-only while the variants run, writable while the next batch's input is
 * uploaded (run/input_check.c). false when p is not a guarded buffer or mprotect failed. */
bool guarded_set_readonly(void *p, bool readonly);

/* Parallel blocks' rollback (parallel.cpp): copies the contents of every live buffer;
 * false when some device memory is outside the table (it could not be restored). */
bool guarded_snapshot();
/* Puts back every buffer's contents as the last snapshot saw them. */
void guarded_restore();

/* Where a faulting address lies relative to a guarded buffer. */
struct GuardHit {
  unsigned id;           // allocation serial number (1 = the process's first hipMalloc)
  size_t bytes;          // the buffer's size
  long long offset;      // byte offset of the address from the buffer's start
  bool readonly;         // the buffer is read-only now (guarded_set_readonly)
  bool in_body;          // the address is inside the buffer's pages, not a guard page
};
/* Async-signal-safe: true when addr is in a guard page, the alignment slack or (a write to a
 * read-only buffer) the pages of a live buffer. */
bool guarded_lookup(const void *addr, GuardHit *hit);

}  // namespace rf_sim
#endif

/* Thin wrappers over the sanitizer fiber and synchronisation interfaces; no-ops in builds
 * without that sanitizer. Prototypes are declared here (as in sanitizer/tsan_interface.h
 * and sanitizer/common_interface_defs.h) so gcc and clang builds need no extra headers. */
#ifndef RF_SIM_SANITIZER_HOOKS_H
#define RF_SIM_SANITIZER_HOOKS_H
#include <stddef.h>
#include <stdint.h>

#if defined(RF_TSAN) && RF_TSAN
extern "C" {
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
void *__tsan_get_current_fiber(void);
void *__tsan_create_fiber(unsigned flags);
void __tsan_switch_to_fiber(void *fiber, unsigned flags);
void __tsan_set_fiber_name(void *fiber, const char *name);
void __tsan_ignore_thread_begin(void);
void __tsan_ignore_thread_end(void);
}
#endif
#if defined(RF_ASAN) && RF_ASAN
extern "C" {
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size);
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old,
                                     size_t *size_old);
void __asan_poison_memory_region(void const volatile *addr, size_t size);
void __asan_unpoison_memory_region(void const volatile *addr, size_t size);
}
#endif

namespace rf_sim {
namespace san {

#if defined(RF_TSAN) && RF_TSAN
constexpr bool tsan = true;
inline void *current_fiber() { return __tsan_get_current_fiber(); }
inline void *create_fiber(const char *name) {
  void *f = __tsan_create_fiber(0);
  __tsan_set_fiber_name(f, name);
  return f;
}
/* no_sync: the switch itself must not order the two GPU threads. */
inline void switch_to(void *fiber) { __tsan_switch_to_fiber(fiber, 1u /* no_sync */); }
inline void release(uintptr_t sync) { __tsan_release(reinterpret_cast<void *>(sync)); }
inline void acquire(uintptr_t sync) { __tsan_acquire(reinterpret_cast<void *>(sync)); }
/* The running fiber's memory accesses, the runtime's own (allocation, memmove) included, go
 * unrecorded until ignore_end: for simulator bookkeeping that runs on a GPU thread's fiber
 * and touches the heap (sim/kernel_coverage.cpp's look for newly run functions). Not a
 * synchronisation: it orders nothing. */
inline void ignore_begin() { __tsan_ignore_thread_begin(); }
inline void ignore_end() { __tsan_ignore_thread_end(); }
#else
constexpr bool tsan = false;
inline void *current_fiber() { return nullptr; }
inline void *create_fiber(const char *) { return nullptr; }
inline void switch_to(void *) {}
inline void release(uintptr_t) {}
inline void acquire(uintptr_t) {}
inline void ignore_begin() {}
inline void ignore_end() {}
#endif

#if defined(RF_ASAN) && RF_ASAN
constexpr bool asan = true;
inline void start_switch(void **fake_save, const void *bottom, size_t size) {
  __sanitizer_start_switch_fiber(fake_save, bottom, size);
}
inline void finish_switch(void *fake_save, const void **bottom_old, size_t *size_old) {
  __sanitizer_finish_switch_fiber(fake_save, bottom_old, size_old);
}
inline void poison(const void *p, size_t n) { __asan_poison_memory_region(p, n); }
inline void unpoison(const void *p, size_t n) { __asan_unpoison_memory_region(p, n); }
#else
constexpr bool asan = false;
inline void start_switch(void **, const void *, size_t) {}
inline void finish_switch(void *, const void **, size_t *) {}
inline void poison(const void *, size_t) {}
inline void unpoison(const void *, size_t) {}
#endif

}  // namespace san
}  // namespace rf_sim
#endif

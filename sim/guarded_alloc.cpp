#include "guarded_alloc.h"
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <fcntl.h>
#include <unistd.h>
#include <atomic>

namespace rf_sim {

/* A fixed table, read lock-free by the fault handler: an entry is filled before its `user`
 * pointer is published and cleared before it is unmapped. Allocation and free are host-side
 * and rare (the runner reuses its arenas), so a linear scan is enough. */
struct GuardEntry {
  std::atomic<char *> user{nullptr};
  char *map = nullptr;
  size_t map_len = 0, bytes = 0;
  unsigned id = 0;
  bool readonly = false;  // guarded_protect_readonly: no kernel can change it, no snapshot
  char *saved = nullptr;  // guarded_snapshot's copy (host only)
  size_t saved_cap = 0;
};
static constexpr size_t kEntries = 4096;
static GuardEntry table[kEntries];
static std::atomic<unsigned> serial{0};
static std::atomic<unsigned> unguarded_live{0};  // buffers the table could not hold

static size_t page() {
  static const size_t p = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return p;
}

static size_t body_bytes(size_t bytes) { return (bytes + 15) & ~size_t{15}; }

/* The zero-backed body: one shared file of kZeroChunk zero bytes (a memfd, its pages made
 * once) mapped private over and over. Reading anonymous memory would cost a page per page
 * read on kernels that do not map the shared zero page for it (the Firecracker guests CI
 * runs on allocate: docs/SIMULATOR.md, "Huge sparse inputs"); these mappings share the
 * chunk's pages, and a write copies only the page written. */
static constexpr size_t kZeroChunk = size_t{4} << 20;
static int zero_file() {
  static std::atomic<int> fd{-1};
  int f = fd.load(std::memory_order_acquire);
  if (f >= 0) return f;
  f = memfd_create("rf_sim_zero", MFD_CLOEXEC);
  if (f < 0) return -1;
  if (ftruncate(f, static_cast<off_t>(kZeroChunk)) != 0) { close(f); return -1; }
  int expected = -1;
  if (!fd.compare_exchange_strong(expected, f)) { close(f); return expected; }
  return f;
}

static bool map_body(char *at, size_t len, bool zero_backed) {
  if (!zero_backed) return mprotect(at, len, PROT_READ | PROT_WRITE) == 0;
  const int f = zero_file();
  if (f < 0) return false;
  for (size_t off = 0; off < len; off += kZeroChunk) {
    const size_t l = len - off < kZeroChunk ? len - off : kZeroChunk;
    if (mmap(at + off, l, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_FIXED, f, 0) == MAP_FAILED)
      return false;
  }
  return true;
}

static void *alloc_impl(size_t bytes, bool zero_backed) {
  // 16-byte granules keep float4 loads aligned; up to 15 bytes of slack after an odd size
  // are not guarded (the arena's own guard zones cover that on the runner's buffers).
  size_t body = body_bytes(bytes);
  size_t pages = (body + page() - 1) / page();
  size_t len = (pages + 2) * page();
  for (size_t i = 0; i < kEntries; i++) {
    GuardEntry &g = table[i];
    if (g.user.load(std::memory_order_acquire) || g.map) continue;
    void *m = mmap(nullptr, len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED) return nullptr;
    char *base = static_cast<char *>(m);
    if (!map_body(base + page(), pages * page(), zero_backed)) {
      munmap(m, len);
      return nullptr;
    }
    char *user = base + page() + pages * page() - body;  // ends where the guard page starts
    g.map = base;
    g.map_len = len;
    g.readonly = false;
    g.bytes = bytes;
    g.id = serial.fetch_add(1) + 1;
    g.user.store(user, std::memory_order_release);
    return user;
  }
  if (zero_backed) return nullptr;
  unguarded_live.fetch_add(1, std::memory_order_relaxed);
  return malloc(bytes);  // table full: unguarded, like before
}

void *guarded_alloc(size_t bytes) { return alloc_impl(bytes, false); }
void *guarded_alloc_zero(size_t bytes) { return alloc_impl(bytes, true); }

bool guarded_free(void *p) {
  if (!p) return true;
  for (size_t i = 0; i < kEntries; i++) {
    GuardEntry &g = table[i];
    if (g.user.load(std::memory_order_acquire) != p) continue;
    g.user.store(nullptr, std::memory_order_release);
    munmap(g.map, g.map_len);
    g.map = nullptr;
    return true;
  }
  unsigned n = unguarded_live.load(std::memory_order_relaxed);  // the table-full fallback's
  if (n) unguarded_live.store(n - 1, std::memory_order_relaxed);
  return false;
}

bool guarded_set_readonly(void *p, bool readonly) {
  for (size_t i = 0; i < kEntries; i++) {
    GuardEntry &g = table[i];
    if (g.user.load(std::memory_order_acquire) != p) continue;
    if (g.readonly == readonly) return true;
    size_t body = (g.map_len - 2 * page());
    if (mprotect(g.map + page(), body, readonly ? PROT_READ : PROT_READ | PROT_WRITE) != 0)
      return false;
    g.readonly = readonly;
    return true;
  }
  return false;
}

bool guarded_protect_readonly(void *p) { return guarded_set_readonly(p, true); }

bool guarded_snapshot() {
  if (unguarded_live.load(std::memory_order_relaxed)) return false;
  for (size_t i = 0; i < kEntries; i++) {
    GuardEntry &g = table[i];
    char *user = g.user.load(std::memory_order_acquire);
    if (!user || g.readonly) continue;
    size_t body = body_bytes(g.bytes);  // the slack after an odd size too
    if (g.saved_cap < body) {
      char *s = static_cast<char *>(realloc(g.saved, body));
      if (!s) return false;
      g.saved = s;
      g.saved_cap = body;
    }
    memcpy(g.saved, user, body);
  }
  return true;
}

void guarded_restore() {
  for (size_t i = 0; i < kEntries; i++) {
    GuardEntry &g = table[i];
    char *user = g.user.load(std::memory_order_acquire);
    if (user && !g.readonly) memcpy(user, g.saved, body_bytes(g.bytes));
  }
}

bool guarded_lookup(const void *addr, GuardHit *hit) {
  const char *a = static_cast<const char *>(addr);
  for (size_t i = 0; i < kEntries; i++) {
    GuardEntry &g = table[i];
    char *user = g.user.load(std::memory_order_acquire);
    if (!user || a < g.map || a >= g.map + g.map_len) continue;
    hit->id = g.id;
    hit->bytes = g.bytes;
    hit->offset = static_cast<long long>(a - user);
    hit->readonly = g.readonly;
    hit->in_body = a >= g.map + page() && a < g.map + g.map_len - page();
    return true;
  }
  return false;
}

}  // namespace rf_sim

#include "guarded_alloc.h"
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
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

void *guarded_alloc(size_t bytes) {
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
    if (mprotect(base + page(), pages * page(), PROT_READ | PROT_WRITE) != 0) {
      munmap(m, len);
      return nullptr;
    }
    char *user = base + page() + pages * page() - body;  // ends where the guard page starts
    g.map = base;
    g.map_len = len;
    g.bytes = bytes;
    g.id = serial.fetch_add(1) + 1;
    g.user.store(user, std::memory_order_release);
    return user;
  }
  unguarded_live.fetch_add(1, std::memory_order_relaxed);
  return malloc(bytes);  // table full: unguarded, like before
}

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

bool guarded_snapshot() {
  if (unguarded_live.load(std::memory_order_relaxed)) return false;
  for (size_t i = 0; i < kEntries; i++) {
    GuardEntry &g = table[i];
    char *user = g.user.load(std::memory_order_acquire);
    if (!user) continue;
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
    if (user) memcpy(user, g.saved, body_bytes(g.bytes));
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
    return true;
  }
  return false;
}

}  // namespace rf_sim

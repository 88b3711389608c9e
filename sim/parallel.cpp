/* Parallel blocks: a launch's blocks run on several host threads with the sequential run's
 * results (docs/SIMULATOR.md, "Parallel blocks").
 *
 * Workers take the blocks in the launch's order (the schedule's block order is the logical
 * order): each runs one whole block at a time on its own engine (fibers, stacks, LDS,
 * scheduler state). A block runs freely until its first atomic on global memory or its
 * first __threadfence; there it waits until every block before it in the order has
 * finished. So atomics and fences happen block after block in the logical order, exactly as
 * in the sequential run, and whatever a block reads after its first atomic or fence is what
 * every earlier block left (the ticket pattern's last block reads the completed partials).
 * What this does not cover is a block reading, before its first atomic or fence, global
 * memory another block of the launch writes: under HIP's memory model that is a data race
 * (nothing orders the two blocks), which the ThreadSanitizer build (always sequential)
 * reports; in parallel its value depends on timing.
 *
 * A problem in any block (fault, divergent barrier, launch error, a block over the step
 * budget) or a launch whose blocks together exceed the step budget makes the attempt void:
 * every device buffer is restored from the copy taken before the launch and the launch runs
 * again sequentially, which reports the first problem in the launch's order with the
 * sequential run's message and leaves the sequential run's memory. */
#include <sched.h>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>
#include "engine.h"
#include "guarded_alloc.h"

namespace rf_sim {

void set_launching(bool on);  // engine.cpp

static std::atomic<unsigned> threads_wanted{1};
static std::atomic<uint64_t> parallel_launches{0}, parallel_reruns{0};

namespace {

/* The launch the workers run. */
struct Grid {
  const uint64_t *order = nullptr;  // position -> linear block index
  uint64_t blocks = 0;
  size_t shmem = 0;
  std::atomic<uint64_t> next{0};      // the next position to take
  std::atomic<uint64_t> finished{0};  // positions [0, finished) have all finished
  std::atomic<bool> failed{false};
  std::mutex m;  // guards done; with cv, changes of finished and failed
  std::condition_variable cv;
  std::vector<uint8_t> done;
};

/* Worker threads, made on first use and kept (blocked between launches). */
struct Pool {
  std::mutex m;
  std::condition_variable start, idle;
  uint64_t generation = 0;
  unsigned want = 0;     // threads of this launch, the launching one included
  unsigned running = 0;  // workers still in this launch
  unsigned made = 0;
};

}  // namespace

static Grid *grid;  // the running parallel launch (launches take turns: launch_mutex)
// Never destroyed: the workers are blocked on them when the process exits. The workers'
// engines (about 170 KiB each) are made at the first parallel launch.
static Pool &pool = *new Pool;
static Engine *workers;

static void notify_grid() {
  { std::lock_guard<std::mutex> lock(grid->m); }
  grid->cv.notify_all();
}

void speculation_failed() {
  // May run in the fault handler: an atomic store only; the worker notifies once it is back
  // on its own stack (run_blocks).
  grid->failed.store(true, std::memory_order_release);
}

static void block_finished(uint64_t position) {
  bool advanced = false;
  {
    std::lock_guard<std::mutex> lock(grid->m);
    grid->done[position] = 1;
    uint64_t p = grid->finished.load(std::memory_order_relaxed);
    while (p < grid->blocks && grid->done[p]) p++;
    if (p != grid->finished.load(std::memory_order_relaxed)) {
      grid->finished.store(p, std::memory_order_release);
      advanced = true;
    }
  }
  if (advanced) grid->cv.notify_all();
}

void wait_for_earlier_blocks() {
  Engine &e = engine();
  e.gate_armed = false;
  uint64_t k = e.gate_position;
  Grid *g = grid;
  // Earlier blocks usually end soon (they started first): spin a little before sleeping.
  for (int i = 0; i < 1000; i++) {
    if (g->finished.load(std::memory_order_acquire) >= k) return;
    if (g->failed.load(std::memory_order_relaxed)) break;
    sched_yield();
  }
  {
    std::unique_lock<std::mutex> lock(g->m);
    g->cv.wait(lock, [&] {
      return g->finished.load(std::memory_order_relaxed) >= k ||
             g->failed.load(std::memory_order_relaxed);
    });
    if (g->finished.load(std::memory_order_acquire) >= k) return;
  }
  // An earlier block failed: the launch will run sequentially; unwind this block.
  e.abort_code.set(RF_SIM_LAUNCH_ERROR);
  throw AbortUnwind{};
}

/* Takes blocks in order until none is left or the attempt failed. */
static void run_blocks(Engine &e) {
  set_launching(true);
  e.speculative = true;
  for (;;) {
    if (grid->failed.load(std::memory_order_acquire)) break;
    uint64_t k = grid->next.fetch_add(1, std::memory_order_relaxed);
    if (k >= grid->blocks) break;
    e.gate_position = k;
    e.gate_armed = k > 0;  // the first block has no earlier one to wait for
    bool ok = run_block(grid->order[k], k);
    e.gate_armed = false;
    if (!ok) {
      speculation_failed();
      notify_grid();
      break;
    }
    block_finished(k);
  }
  e.speculative = false;
  e.in_launch = false;
  set_launching(false);
}

static void worker_main(unsigned w) {
  Engine &mine = workers[w - 1];
  this_engine = &mine;
  mine.worker = w;
  mine.lds.set_worker(w);
  uint64_t seen = 0;
  for (;;) {
    {
      std::unique_lock<std::mutex> lock(pool.m);
      pool.start.wait(lock, [&] { return pool.generation != seen && w < pool.want; });
      seen = pool.generation;
    }
    adopt_launch(mine, the_engine, grid->shmem);
    run_blocks(mine);
    std::lock_guard<std::mutex> lock(pool.m);
    if (--pool.running == 0) pool.idle.notify_all();
  }
}

bool run_grid_parallel(const uint64_t *order, uint64_t blocks, size_t shmem) {
  Engine &e = the_engine;
  unsigned n = threads_wanted.load(std::memory_order_relaxed);
  if (n > blocks) n = static_cast<unsigned>(blocks);
  // Device memory the rollback could not restore (buffers outside the guarded table):
  // sequential.
  if (n < 2 || !guarded_snapshot()) return false;
  Grid g;
  g.order = order;
  g.blocks = blocks;
  g.shmem = shmem;
  g.done.assign(blocks, 0);
  grid = &g;
  {
    std::lock_guard<std::mutex> lock(pool.m);
    if (!workers) workers = new Engine[RF_SIM_MAX_THREADS - 1];
    while (pool.made < n - 1) std::thread(worker_main, ++pool.made).detach();
    pool.want = n;
    pool.running = n - 1;
    pool.generation++;
  }
  pool.start.notify_all();
  run_blocks(e);
  {
    std::unique_lock<std::mutex> lock(pool.m);
    pool.idle.wait(lock, [] { return pool.running == 0; });
  }
  uint64_t switches = e.switches.get();
  for (unsigned w = 1; w < n; w++) switches += workers[w - 1].switches.get();
  bool failed = g.failed.load(std::memory_order_acquire);
  grid = nullptr;
  e.in_launch = true;  // run_blocks ended the launch on this thread; launch() ends it
  set_launching(true);
  if (!failed && switches <= e.budget) {
    e.switches.set(switches);
    parallel_launches.fetch_add(1, std::memory_order_relaxed);
    return true;
  }
  // Void: the sequential run starts from the memory and engine state the launch began with.
  guarded_restore();
  e.abort_code.set(RF_SIM_OK);
  e.switches.set(0);
  e.cells.reset();
  e.lds.begin_launch(shmem);
  parallel_reruns.fetch_add(1, std::memory_order_relaxed);
  return false;
}

}  // namespace rf_sim

extern "C" {

void rf_sim_set_threads(unsigned threads) {
  if (threads < 1) threads = 1;
  if (threads > RF_SIM_MAX_THREADS) threads = RF_SIM_MAX_THREADS;
  rf_sim::threads_wanted.store(threads, std::memory_order_relaxed);
}

unsigned rf_sim_threads(void) { return rf_sim::threads_wanted.load(std::memory_order_relaxed); }

uint64_t rf_sim_parallel_launches(void) {
  return rf_sim::parallel_launches.load(std::memory_order_relaxed);
}

uint64_t rf_sim_parallel_reruns(void) {
  return rf_sim::parallel_reruns.load(std::memory_order_relaxed);
}

}  // extern "C"

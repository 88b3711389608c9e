/* The floor under the simulator's speed (run by scripts/bench-sim.sh; not a test): N fibers
 * on the simulator's own stacks (sim/fiber_stacks.h, the same stagger) switching round-robin
 * with the simulator's own switch (sim/context.h) and doing nothing else: no schedule, no
 * barrier bookkeeping, no kernel. A barrier of a block of N threads costs at least N such
 * switches, so this bounds what any bookkeeping could reach; docs/SIMULATOR.md
 * ("Performance") turns it into a ceiling in elements per second for bench_sim's workloads.
 * Plain build only: the sanitizers are not told of these switches. Prints figures only. */
#include <stdio.h>
#include <time.h>
#include <initializer_list>
#include "sim/context.h"
#include "sim/fiber_stacks.h"

namespace {

constexpr unsigned kMaxFibers = 1024;
rf_sim::FiberStacks stacks;
void *fiber_sp[kMaxFibers];
void *host_sp;
unsigned fibers, running;
long remaining;            // switches left in this round
unsigned frame_lines;      // cache lines of its own frame each fiber reads and writes

/* Every fiber runs this forever: touch its frame (a kernel's locals, the frames between
 * the kernel and the switch), then hand over to the next fiber, or to the host when the
 * round's switches are done. */
void entry() {
  volatile char frame[8 * 64];
  for (;;) {
    for (unsigned l = 0; l < frame_lines; l++) frame[l * 64] = static_cast<char>(frame[l * 64] + 1);
    unsigned i = running, j = i + 1 == fibers ? 0 : i + 1;
    running = j;
    rf_sim::context_switch(&fiber_sp[i], --remaining > 0 ? fiber_sp[j] : host_sp);
  }
}

double seconds() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Best CPU nanoseconds per switch over a few rounds of `per_round` switches. */
double ns_per_switch(unsigned n, unsigned lines, long per_round) {
  fibers = n;
  frame_lines = lines;
  running = 0;
  for (unsigned i = 0; i < n; i++) {
    char *lo;
    size_t size;
    stacks.get(i, &lo, &size);
    fiber_sp[i] = rf_sim::context_make(lo + size, size, entry);
  }
  double best = 1e30;
  for (int round = 0; round < 6; round++) {  // the first warms the stacks and is not kept
    remaining = per_round;
    double t0 = seconds();
    rf_sim::context_switch(&host_sp, fiber_sp[running]);
    double ns = (seconds() - t0) * 1e9 / per_round;
    if (round > 0 && ns < best) best = ns;
  }
  return best;
}

}  // namespace

int main() {
  printf("rf-sim switch floor (plain build): N fibers switching round-robin, nothing else; "
         "CPU ns per switch, best of 5 rounds of 2^22 switches\n");
  printf("%-8s %12s %12s %12s\n", "fibers", "no frame", "2 lines", "4 lines");
  for (unsigned n : {32u, 256u, 1024u}) {
    printf("%-8u", n);
    for (unsigned lines : {0u, 2u, 4u}) printf(" %12.2f", ns_per_switch(n, lines, 1L << 22));
    printf("\n");
  }
  return 0;
}

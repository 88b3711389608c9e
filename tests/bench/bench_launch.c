/* The floor of one fuzz execution on a GPU: what the runtime itself costs to enqueue a kernel
 * and to make one round trip, whatever the kernels do (issue 12, docs/RESULTS.md). Each
 * execution of the fuzz target enqueues every variant's kernels (a deterministic variant's
 * twice) and the harness's few, then synchronises once and reads back its records; this
 * program times exactly that shape with the smallest kernel the project has (the guard
 * writer on one word), so no kernel's work is in the figures:
 *   - enqueue: host microseconds per launch, K launches back to back then one sync;
 *   - execution: K launches round-robin on the runner's streams, one 256-byte upload before
 *     and one download after, one synchronisation: microseconds each and the executions/s it
 *     bounds, for K = 1, 5, 10, 15, 20, 25 (the fuzz target launches ~20 at 4,096 elements).
 * Figures only, no thresholds. On the simulator the same program times the simulator's own
 * launch (a block of one thread), which is not a GPU floor.
 *   bench_launch [executions]   (default 2000) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "kernels/harness/device.h"
#include "kernels/harness/verdict_device.h"

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static int one_kernel(uint32_t *w, void *stream) {
  return rf_vd_guards_launch(w, 1, 0, 0, 0xffffffffu, stream);
}

int main(int argc, char **argv) {
  const long execs = argc > 1 ? atol(argv[1]) : 2000;
  char msg[256];
  if (execs < 1) { fprintf(stderr, "bench_launch: executions must be at least 1\n"); return 2; }
  if (rf_dev_require(msg, sizeof msg)) { fprintf(stderr, "bench_launch: %s\n", msg); return 2; }
  rf_device_info info;
  rf_dev_info(&info);
  uint32_t *w = NULL;
  unsigned char *rec = NULL, host[256] = {0};
  if (rf_dev_alloc((void **)&w, 64 * sizeof *w) || rf_dev_alloc((void **)&rec, sizeof host)) {
    fprintf(stderr, "bench_launch: cannot allocate device memory\n");
    return 1;
  }
  void *pinned = NULL;
  if (rf_dev_host_alloc(&pinned, sizeof host)) pinned = host;
  printf("device: %s (%s)\n", info.name, info.backend);
  /* warm-up: module load, stream creation */
  for (unsigned s = 0; s < RF_DEV_STREAMS; s++) one_kernel(w + s, rf_dev_stream(s));
  rf_dev_sync();
  const int n1 = 20000;
  double t0 = now_us();
  for (int i = 0; i < n1; i++) one_kernel(w, NULL);
  double t1 = now_us();
  int e = rf_dev_sync();
  double t2 = now_us();
  printf("enqueue, default stream: %.2f us a launch (%d launches; then %.1f us to drain)\n",
         (t1 - t0) / n1, n1, t2 - t1);
  t0 = now_us();
  for (int i = 0; i < n1; i++) one_kernel(w + (i % RF_DEV_STREAMS), rf_dev_stream(i % RF_DEV_STREAMS));
  t1 = now_us();
  e |= rf_dev_sync();
  printf("enqueue, %d streams round-robin: %.2f us a launch\n", RF_DEV_STREAMS, (t1 - t0) / n1);
  static const int ks[] = {1, 5, 10, 15, 20, 25};
  for (size_t q = 0; q < sizeof ks / sizeof ks[0]; q++) {
    double launch = 0, total = 0;
    for (long x = 0; x < execs; x++) {
      const double a = now_us();
      e |= rf_dev_upload(rec, pinned, sizeof host);
      const double b = now_us();
      for (int i = 0; i < ks[q]; i++)
        e |= one_kernel(w + (i % RF_DEV_STREAMS), rf_dev_stream((unsigned)i % RF_DEV_STREAMS));
      launch += now_us() - b;
      e |= rf_dev_sync();
      e |= rf_dev_download(pinned, rec, sizeof host);
      total += now_us() - a;
    }
    printf("execution of %2d launches + upload + sync + download: %6.1f us (%5.1f of it "
           "enqueueing) -> at most %.0f executions/s\n", ks[q], total / (double)execs,
           launch / (double)execs, 1e6 * (double)execs / total);
  }
  if (pinned != host) rf_dev_host_free(pinned);
  rf_dev_free(w);
  rf_dev_free(rec);
  if (e || rf_dev_last_error()) { fprintf(stderr, "bench_launch: a device call failed\n"); return 1; }
  return 0;
}

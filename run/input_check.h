/* Input integrity (docs/RUNNER.md, "Input integrity"): a variant's input is read-only by
 * contract (include/redfuzz/plugin.h), and every variant of a case reads the same one. A
 * variant that writes it gets `input-written` naming the first element it changed, and every
 * variant after it runs on an intact input, so no innocent variant is blamed for another's
 * write (issue 47). One of three ways a batch, each the cheapest its backend allows:
 *
 *   protect  the plain simulator: the input buffers are read-only while the variants run
 *            (sim/guarded_alloc.h); a write faults before it happens, the launch ends with
 *            RF_DEV_STATUS_INPUT_WRITTEN and the address, which rf_input_check_fault turns
 *            into the element (and the simulator names the writing line). Nothing a run.
 *   host     the simulator's sanitizer builds (their device memory is the heap): the input
 *            is copied aside before the variants, and after each run compared on the host
 *            and put back where it differs.
 *   device   GPUs: a copy and a hash per chunk on the device before the variants; after each
 *            run, on its stream, a check kernel that puts back what differs and records the
 *            first changed word (kernels/harness/input_check_device.h). A batch on several
 *            streams in which a variant wrote its input runs again one launch at a time
 *            (runner.c): side by side, another variant may have read the changed input
 *            before the check put it back.
 *
 * Dense inputs only: a sparse (markers) input is read-only on the plain simulator
 * (sparse_input.c) and goes through the fault like the others; elsewhere it is not checked.
 * This stage owns its copies and records and counts what it found. */
#ifndef RF_INPUT_CHECK_H
#define RF_INPUT_CHECK_H
#include "runner_internal.h"

/* REDFUZZ_INPUT_CHECK's values (settings.def): auto (protect on the simulator, host where
 * the pages cannot be protected, device on GPUs), or one way forced (tests run the GPUs'
 * device way on the simulator). */
enum { RF_INPUT_CHECK_AUTO, RF_INPUT_CHECK_PROTECT, RF_INPUT_CHECK_HOST, RF_INPUT_CHECK_DEVICE };

typedef struct {
  const void *base;   /* the checked bytes (4-byte aligned): the input, the misalignment gap
                         and guard bytes on either side (input_check.c, region_of) */
  size_t words;       /* 32-bit words from base */
  size_t gap;         /* bytes from base to element 0 */
  size_t copy_off;    /* host and device ways: its words in the copy (in words) */
  size_t hash_off;    /* device way: its first chunk's hash */
} rf_input_region;

typedef struct {
  int want;                      /* RF_INPUT_CHECK_* from the settings */
  int is_sim;
  int cannot_protect;            /* protecting failed once (a sanitizer build): host from then on */
  int way;                       /* this batch's: RF_INPUT_CHECK_PROTECT, HOST or DEVICE */
  void *protected_bufs[2];       /* made read-only for this batch (protect) */
  /* The batch being run. */
  const batch_case *bcs;
  size_t nc;
  const pending *ps;
  size_t n;
  size_t words;                  /* this batch's words checked in all (0: none, no records) */
  rf_host_buf regions;           /* rf_input_region, one per case (words 0: not checked) */
  rf_host_buf copy, scratch;     /* host: the copies; a run's input read back */
  void *dev;                     /* device: copies, hashes, records */
  size_t dev_cap;
  size_t hash_at, rec_off;       /* bytes: the hashes, the records (two a pending) in dev */
  rf_host_buf recs;              /* device: the records read back */
  char msg[320];
  unsigned long long runs_checked, written;   /* counters (rf_runner_stats) */
} rf_input_check;

void rf_input_check_init(rf_input_check *ic, int want, int is_sim);
void rf_input_check_free(rf_input_check *ic);

/* After the batch's inputs are placed, before its variants run: chooses the batch's way and
 * makes it ready (bufs: the device buffers holding its dense inputs, NULL where none; the
 * protect way makes them read-only). *moved is set when the device way's buffer moved
 * (launch graphs recorded with the old one must go). NULL, or what failed. */
const char *rf_input_check_begin(rf_input_check *ic, const batch_case *bcs, size_t nc,
                                 const pending *ps, size_t n, void *const bufs[2], int *moved);
/* Run k of p was just launched on stream: the host way compares and puts back now (the
 * launch has ended: the simulator's launches run to their end inside the call), the device
 * way enqueues its check. A change seen here becomes p's failure for run k unless the run
 * failed otherwise first. */
void rf_input_check_run(rf_input_check *ic, pending *p, int k, void *stream);
/* After the variants' launches (before anything else reads the inputs): the protect way's
 * buffers are writable again. */
void rf_input_check_end(rf_input_check *ic);
/* After the batch's synchronisation: the device way's records into the runs' failures.
 * NULL, or what failed. */
const char *rf_input_check_collect(rf_input_check *ic, pending *ps, size_t n);

/* The launch of run k of p ended with RF_DEV_STATUS_INPUT_WRITTEN at device address addr
 * (protect way): `input-written` naming the element when addr is in p's input, else `oob`
 * (its guard bytes or another case's input, read-only too); detail gets what the simulator
 * said (sim_msg: the thread and the line) after the element. */
rf_verdict rf_input_check_fault(rf_input_check *ic, const pending *p, uintptr_t addr,
                                const char *sim_msg, char *detail, size_t len);

/* 1 when some run of ps[0..n) is `input-written`. */
int rf_input_check_any(const pending *ps, size_t n);
#endif

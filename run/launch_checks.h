/* What the runner checks of a variant's launch beyond its output (docs/RUNNER.md, "Launch
 * checks"): the launch contract (include/redfuzz/plugin.h, `launch`) and state kept between
 * launches.
 *
 *  - The contract. The simulator checks every launch of a variant: the runner opens a window
 *    around the launch function (rf_dev_contract_begin), and a kernel, copy or memset on
 *    another stream than a->stream, an allocation or a synchronisation inside it is status
 *    `launch-contract` naming the call and its line. GPUs cannot see the calls; there each
 *    variant's first launch in the process is also made once under stream capture (nothing
 *    runs), which the runtime refuses for a launch on the legacy default stream, an
 *    allocation or a synchronisation (rf_checks_probe).
 *  - State across launches and scratch read before it is written (simulator). The repeat of a
 *    variant (run 1; on the simulator every variant gets one, not only the deterministic)
 *    follows a launch of the same variant on another shape, another n and grid
 *    (rf_checks_pick_other, made by rf_checks_launch_other), and its scratch holds zeros where
 *    run 0's held the poison. Run 1 of a variant not declared deterministic runs under run 0's
 *    schedule. When run 1's bits differ from run 0's, rf_checks_attribute runs the case again
 *    under controlled conditions to say why: the earlier launches (a kernel that keeps a ticket
 *    counter, a flag or a cached size between launches), the scratch's contents, or the
 *    schedule (a plain `nondeterministic`). The simulator is deterministic under one schedule,
 *    so each comparison is exact. */
#ifndef RF_LAUNCH_CHECKS_H
#define RF_LAUNCH_CHECKS_H
#include <stddef.h>
#include "runner_internal.h"

typedef struct {
  void *zero_in;               /* the other shape's input: zeros, read-only (simulator) */
  size_t zero_cap;
  const rf_variant *probed[RF_VARIANT_CAPACITY];   /* GPUs: variants probed in this process */
  size_t n_probed;
  unsigned long long other_launches, attributed, probes;
} rf_launch_checks;

void rf_launch_checks_free(rf_launch_checks *lc);

/* The most elements and threads the other shape may have: it is a small launch. */
#define RF_OTHER_MAX_ELEMS 65539u
#define RF_OTHER_MAX_THREADS 8192u

/* The launch of v made before run 1 of case c, whose launch is cfg: one whose grid and size
 * (n, or rows and cols) differ from cfg's, that v's configure accepts, small (a grid of 2 or
 * 3 blocks where v takes a requested grid), and read from zeros. Host only, deterministic.
 * 0 and *o filled (its slots -1), or -1 when v accepts none of the candidates. */
int rf_checks_pick_other(const rf_variant *v, const rf_case *c, const rf_launch_cfg *cfg,
                         const rf_device_info *dev, rf_other_launch *o);

/* The schedule of p's run 1: another one than run 0's for a variant declared deterministic
 * (reverse, or in order after a reverse run 0: docs/SIMULATOR.md, "Schedules"); run 0's for
 * the others, whose bits may differ between schedules. */
int rf_checks_repeat_sched(const pending *p);

/* Simulator: launches p's other shape (its slots in a) on stream under the schedule given,
 * inside a contract window. RF_V_PASS, or the failure with its detail in msg (the launch's
 * status, naming the other shape). */
rf_verdict rf_checks_launch_other(rf_launch_checks *lc, const rf_arena *a, const pending *p,
                                  void *stream, int sched, uint64_t seed, unsigned wave,
                                  char *msg, size_t len);

/* Simulator, after the batch is judged: for each variant whose run 1 gave other bits than run
 * 0 (both launched; not on a sparse case, markers or signed-markers of any size, where the
 * checks are off), runs the case again to find the cause, and says it in its result:
 * `nondeterministic` or the failure it gave, with a detail that names the earlier launch, or
 * `launch-contract` for scratch read before it was written; unchanged when the schedule alone
 * explains it. jc: the serial judge (it may upgrade rows). */
void rf_checks_attribute(rf_launch_checks *lc, rf_arena *a, judge_ctx *jc, pending *ps,
                         size_t n);

/* GPUs, before a batch launches: each variant of ps not probed yet in this process is launched
 * once under stream capture (nothing runs); a refusal is kept in p->probe_fail. */
void rf_checks_probe(rf_launch_checks *lc, const rf_arena *a, pending *ps, size_t n);
#endif

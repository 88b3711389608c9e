/* redfuzz plugin ABI: extra variants loaded from a shared library at run time
 * (`redfuzz --plugin lib.so ...`, `REDFUZZ_PLUGINS=a.so:b.so redfuzz_fuzz ...`). Plugin
 * variants are fuzzed and judged exactly like the built-in ones.
 *
 * A plugin exports two C functions:
 *
 *   extern "C" int rf_plugin_abi_version(void) { return RF_PLUGIN_ABI_VERSION; }
 *   extern "C" const rf_variant *const *rf_plugin_variants(size_t *count);
 *
 * rf_plugin_variants returns an array of *count pointers to variants that live as long as
 * the process (static storage: the library is never unloaded). Each rf_variant
 * (kernels/variant.h) must fill every field:
 *   name          "<op>/<name>", the op's own name first ("sum/my-kernel"), unique among
 *                 every loaded variant (built-in and plugin); a clash is a load error
 *   op            RF_OP_SUM, RF_OP_MAX, RF_OP_ARGMAX or RF_OP_SOFTMAX; matches the name
 *   deterministic 1 when the same case always gives the same bits (then checked)
 *   is_mutant     0 for a real kernel; 1 for a known-bug demo (run by `run`, reported as
 *                 caught by `sweep --mutants`, left out of fuzzing unless named)
 *   summary, constraints  one line each (shown by `redfuzz list`)
 *   configure     resolves cfg->block/grid/items (0 = pick a default) from the case and the
 *                 device facts in cfg; returns NULL, or a static reason for `unsupported`
 *   scratch_bytes device scratch the launch needs for this cfg (0 for none)
 *   plan          the combining tree for this cfg: the bound is derived from it, so it must
 *                 count the longest addition chain honestly (oracle/plan.h)
 *   launch        enqueues the kernels on a->stream with the device pointers a->x, a->out,
 *                 a->scratch; zeroes the output itself when it accumulates into it; must not
 *                 allocate or synchronise; returns 0 or the first hipError_t. On a GPU
 *                 the launches may be recorded into a launch graph and replayed for later
 *                 cases with the same arguments, so the launch must enqueue the same work
 *                 for the same arguments and use a->stream alone (never the default stream;
 *                 a launch that breaks the recording only costs the speed-up)
 *   fuzz_max_n    0, or the largest element count a fuzz campaign should run the variant on
 *                 (it is slow beyond); sweeps still run it at every size (ABI version 2)
 *
 * A plugin is built for the same backend as the redfuzz that loads it: the same kernels/port.h
 * mapping (RF_SIM for the simulator, nvcc for cuda, HIP for hip). On the simulator the
 * plugin must not link the simulator: its kernels run on the host program's one simulator
 * instance, whose symbols redfuzz exports. A plugin may call the plan helpers of
 * oracle/plan.h (rf_plan_add) and the inline helpers of kernels/launch_common.h.
 *
 * Version rule: RF_PLUGIN_ABI_VERSION changes whenever rf_variant, rf_launch_cfg,
 * rf_launch_args, rf_plan or these two entry points change incompatibly; redfuzz refuses a
 * plugin whose rf_plugin_abi_version() differs from its own. */
#ifndef REDFUZZ_PLUGIN_H
#define REDFUZZ_PLUGIN_H
#include <stddef.h>
#include "../../kernels/variant.h"

#define RF_PLUGIN_ABI_VERSION 2   /* 2: rf_variant.fuzz_max_n */

#ifdef __cplusplus
extern "C" {
#endif
typedef int (*rf_plugin_abi_version_fn)(void);
typedef const rf_variant *const *(*rf_plugin_variants_fn)(size_t *count);
#ifdef __cplusplus
}
#endif
#endif

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
 * (include/redfuzz/variant.h) must fill every field:
 *   name          "<op>/<name>", the op's own name first ("sum/my-kernel"), unique among
 *                 every loaded variant (built-in and plugin); a clash is a load error. The
 *                 same rule as built-in names: at most 63 printable ASCII characters, no
 *                 space, no '#' (so it survives case files, --variant and REDFUZZ_ONLY);
 *                 anything else is refused at load
 *   op            RF_OP_SUM, RF_OP_MAX, RF_OP_ARGMAX or RF_OP_SOFTMAX; matches the name
 *   deterministic 1 when the same case always gives the same bits (then checked)
 *   is_mutant     0 for a real kernel; 1 for a known-bug demo (run by `run --mutants` and
 *                 `sweep --mutants`, where its failures are reported as caught; left out of
 *                 run, sweep, bench, study and fuzzing unless named)
 *   summary, constraints  one line each (shown by `redfuzz list`)
 *   configure     resolves cfg->block/grid/items (0 = pick a default) from the case and the
 *                 device facts in cfg; returns NULL, or a static reason for `unsupported`
 *   scratch_bytes device scratch the launch needs for this cfg (0 for none)
 *   plan          the combining tree for this cfg: the bound is derived from it, so it must
 *                 count the longest addition chain honestly (PLAN LEVELS below)
 *   launch        enqueues the kernels on a->stream with the device pointers a->x, a->out,
 *                 a->scratch; zeroes the output itself when it accumulates into it (both
 *                 arrive poisoned, see BUFFERS); must not
 *                 allocate or synchronise; returns 0 or the first hipError_t. On a GPU
 *                 the launches may be recorded into a launch graph and replayed for later
 *                 cases with the same arguments, so the launch must enqueue the same work
 *                 for the same arguments and use a->stream alone (never the default stream;
 *                 a launch that breaks the recording only costs the speed-up)
 *   fuzz_max_n    0, or the largest element count a fuzz campaign should run the variant on
 *                 (it is slow beyond); sweeps still run it at every size (ABI version 2)
 *   in_dtype      the element type of a->x (ABI version 3): RF_DTYPE_F32 (0, the default of a
 *                 positional initialiser that stops before it), RF_DTYPE_F16 or RF_DTYPE_BF16
 *                 (include/redfuzz/dtype.h). a->x then points to n (or rows*cols) elements of
 *                 that type: floats, or 16-bit encodings (IEEE binary16 / bfloat16, read as
 *                 const uint16_t *). The variant runs only on cases whose dtype is in_dtype.
 *   out_dtype     the type written to a->out: in_dtype or RF_DTYPE_F32 (sum, max: one
 *                 element; softmax: rows*cols elements, 16-bit encodings for a 16-bit type);
 *                 argmax always writes rf_argmax_out with a float value (RF_DTYPE_F32). The
 *                 bound adds the final rounding to out_dtype (docs/TOLERANCES.md).
 *
 * OUTPUT RULES (the op's contract, written once in docs/ORACLE.md, "The contract for special
 * values"; the distributions nan-sprinkled, inf-mixed, signed-zero, all-nan, all-neg-inf and
 * ties exercise it). The output buffer arrives poisoned (below), so every rule includes
 * "write the output, always":
 *   sum      n = 0 gives +0.0 (write it, even for an empty input). NaN anywhere, or +inf
 *            together with -inf, gives NaN; otherwise an infinity wins. A sum of only -0 is
 *            -0 (IEEE: an accumulating sum starts from -0.0f, or handles all-zero input),
 *            any other exact zero sum +0. Any summation order is allowed within the bound
 *            derived from the plan.
 *   max      IEEE comparisons; NaN inputs are ignored (as fmaxf), a row of only NaN gives
 *            NaN; n = 0 gives -inf. -0 and +0 tie: the value returned is the one stored at
 *            the argmax position.
 *   argmax   rf_argmax_out {value, index}: ties go to the LOWEST index; NaN inputs are
 *            ignored; all-NaN gives {NaN, -1}; n = 0 gives {-inf, -1}.
 *   softmax  per row: a row containing a NaN or +inf gives NaN in every output of that row; a
 *            row of only -inf gives NaN everywhere; a -inf entry in a row with a finite
 *            maximum gives exactly +0; cols = 1 gives exactly 1; rows = 0 or cols = 0 writes
 *            nothing. The other outputs are judged against the exact value with the error
 *            bound derived from the plan (plan->rescales and plan->div count too).
 *
 * BUFFERS. Output and scratch arrive POISONED, not zeroed: every 32-bit word holds
 * RF_POISON_BITS (a NaN, 0x7FBADBAD) and guard words surround each buffer. A kernel that
 * accumulates into the output or a scratch buffer must zero it first (in its own launch on
 * a->stream: the launch may not synchronise or allocate); an output word left poisoned is
 * reported `unwritten`, a write past the end `oob`. The input a->x is read-only. Scratch is
 * exactly scratch_bytes(cfg) bytes, on the device, and private to this launch.
 *
 * PLAN LEVELS (redfuzz/plan.h). plan() lists the levels from the inputs to the output; `adds`
 * is the number of additions (max, argmax: comparisons; softmax: adds of the exp sum) on the
 * LONGEST path from any input to the output at that level; the bound is gamma_h with h the
 * sum over levels, so a plan that under-counts turns correct rounding into false `wrong`
 * verdicts and one that over-counts hides real errors. What each level counts:
 *   RF_LEVEL_CHAIN          one thread's sequential accumulation: the elements it adds in
 *                           its longest grid-stride / unrolled loop (an unrolled loop with k
 *                           partial sums counts the longest partial chain plus the adds that
 *                           merge the k partials);
 *   RF_LEVEL_WAVE           a shuffle tree inside a wave: ceil(log2(lanes combined));
 *   RF_LEVEL_LDS            a shared-memory tree inside a block: ceil(log2(values combined));
 *   RF_LEVEL_ATOMIC         atomics into one accumulator (order unspecified): the number of
 *                           atomics into it (one per block, or one per element);
 *   RF_LEVEL_SECOND_KERNEL  a second kernel combining the per-block partials: its own chain
 *                           over the partials one thread reads (its later levels follow);
 *   RF_LEVEL_HOST           the host combining results.
 * rf_plan_add refuses a level of zero adds (returns RF_PLAN_REFUSED, adds nothing): a level
 * that vanishes at some size (a tree over one value, block == wave) may ignore that.
 *
 * HOST-CODE GUARD. The same .hip file is compiled for the device and for the host. The
 * variant tables, configure/plan/scratch_bytes and the two entry points are host code: put
 * them after
 *     #if !defined(__HIP_DEVICE_COMPILE__)
 * (closed by #endif at the end of the file) so HIP's device pass does not see them; nvcc's
 * device pass and the simulator ignore the guard. examples/plugin/my_sum.hip shows the layout.
 *
 * LANGUAGE. Plugins are C++ (C++17; kernels use kernels/port.h's __global__, __shared__,
 * threadIdx, __shfl_*, atomicAdd ...). The two entry points must have C linkage
 * (extern "C", as above); rf_variant is a C struct, so initialise it positionally in field
 * order or with C++20 designated initialisers.
 *
 * BUILD RECIPES. Build for the same backend (and sanitizer) as the redfuzz that loads it, with
 * the redfuzz source root (SRC) and SRC/include on the include path. One command does it for
 * every backend this machine can build:
 *   scripts/redfuzz-plugin build my.hip [--out DIR] [--backends sim,sim-tsan,sim-asan,cuda,hip]
 * (DIR/<backend>/libmy.so each; it says which it could not build and why), through
 * rf_add_plugin (cmake/rf_plugin.cmake), which examples/plugin/CMakeLists.txt uses in this
 * tree. The same by hand:
 *   sim   clang++ -x c++ -std=c++17 -DRF_SIM=1 -fPIC -shared -I$SRC -I$SRC/include \
 *           my.hip -o libmy.so
 *         Do NOT link the simulator: the kernels run on the host program's one simulator
 *         instance, whose symbols redfuzz exports (undefined symbols resolve at load time).
 *   cuda  nvcc -x cu -std=c++17 --expt-relaxed-constexpr -arch=sm_90 -Xcompiler -fPIC \
 *           -shared -cudart static -Xlinker -Bsymbolic -I$SRC -I$SRC/include my.hip \
 *           -o libmy.so
 *         (the arch of your GPU; the plugin carries its own static CUDA runtime, which shares
 *         the device's primary context with redfuzz's, so pointers and streams are valid in
 *         both; -Bsymbolic keeps its calls on its own copy.)
 *   hip   hipcc -x hip -std=c++17 --offload-arch=gfx1201 -fPIC -shared -I$SRC -I$SRC/include \
 *           my.hip -o libmy.so
 *         (the arch of your GPU; the HIP runtime is shared with redfuzz's. On Debian's
 *         ROCm 5.2 packages gfx1201 also needs the device-library shim of
 *         cmake/rf_hip_debian.cmake, which scripts/redfuzz-plugin applies.)
 *   sim-tsan / sim-asan: the sim recipe plus -fsanitize=thread (or -fsanitize=address), for
 *         the ThreadSanitizer (AddressSanitizer) simulator builds.
 * Then: redfuzz --plugin ./libmy.so run --op sum (or REDFUZZ_PLUGINS=./libmy.so for the
 * fuzz target). A plugin may call the plan helpers of redfuzz/plan.h (rf_plan_add) and the
 * inline helpers of kernels/launch_common.h.
 *
 * Version rule: RF_PLUGIN_ABI_VERSION changes whenever rf_variant, rf_launch_cfg,
 * rf_launch_args, rf_plan or these two entry points change incompatibly; redfuzz refuses a
 * plugin whose rf_plugin_abi_version() differs from its own. */
#ifndef REDFUZZ_PLUGIN_H
#define REDFUZZ_PLUGIN_H
#include <stddef.h>
#include "variant.h"

#define RF_PLUGIN_ABI_VERSION 3   /* 2: rf_variant.fuzz_max_n, rf_plan.exp, rf_plugin_sanitizer;
                                     3: rf_variant.in_dtype, out_dtype (element types) */

/* The sanitizer this translation unit is compiled with, exported by every plugin (a weak
 * definition, so several files of one plugin may include this header). The loader refuses a
 * plugin whose sanitizer differs from redfuzz's own: a plugin kernel built without
 * -fsanitize=thread runs uninstrumented inside a ThreadSanitizer redfuzz and its races are
 * silently missed. Build plugins with the same flags as redfuzz. */
#if defined(__SANITIZE_THREAD__)
#define RF_PLUGIN_SAN_THREAD 1
#elif defined(__SANITIZE_ADDRESS__)
#define RF_PLUGIN_SAN_ADDRESS 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RF_PLUGIN_SAN_THREAD 1
#elif __has_feature(address_sanitizer)
#define RF_PLUGIN_SAN_ADDRESS 1
#endif
#endif
#if defined(RF_PLUGIN_SAN_THREAD)
#define RF_PLUGIN_SANITIZER "thread"
#elif defined(RF_PLUGIN_SAN_ADDRESS)
#define RF_PLUGIN_SANITIZER "address"
#else
#define RF_PLUGIN_SANITIZER "none"
#endif
#define RF_PLUGIN_SANITIZER_SYMBOL "rf_plugin_sanitizer"
#ifdef __cplusplus
extern "C" __attribute__((weak, visibility("default"))) const char rf_plugin_sanitizer[] =
    RF_PLUGIN_SANITIZER;
#else
__attribute__((weak, visibility("default"))) const char rf_plugin_sanitizer[] =
    RF_PLUGIN_SANITIZER;
#endif

#ifdef __cplusplus
extern "C" {
#endif
typedef int (*rf_plugin_abi_version_fn)(void);
typedef const rf_variant *const *(*rf_plugin_variants_fn)(size_t *count);
#ifdef __cplusplus
}
#endif
#endif

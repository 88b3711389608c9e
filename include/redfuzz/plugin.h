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
 *   op            RF_OP_SUM, RF_OP_MAX, RF_OP_ARGMAX, RF_OP_SOFTMAX, RF_OP_LOGSUMEXP,
 *                 RF_OP_LOGSOFTMAX, RF_OP_MIN or RF_OP_ARGMIN (include/redfuzz/op.h; an op
 *                 added later comes last, so a plugin's values stay); matches the name
 *   deterministic 1 when the same case always gives the same bits (then checked)
 *   is_mutant     0 for a real kernel; 1 for a known-bug demo (run by `run --mutants` and
 *                 `sweep --mutants`, where its failures are reported as caught; left out of
 *                 run, sweep, bench, study and fuzzing unless named)
 *   summary, constraints  one line each (shown by `redfuzz list`)
 *   configure     resolves cfg->block/grid/items (0 = pick a default) from the case and the
 *                 device facts in cfg; returns NULL, or a static reason for `unsupported`
 *   scratch_bytes device scratch the launch needs for this cfg (0 for none)
 *   plan          the combining tree for this cfg: the bound is derived from it, so it must
 *                 count the longest addition chain honestly (PLAN LEVELS below); the plan
 *                 it is given arrives zeroed (as rf_plan() makes it) from every command, so
 *                 rf_plan_add calls alone build it
 *   launch        enqueues the kernels on a->stream with the device pointers a->x, a->out,
 *                 a->scratch; zeroes the output itself when it accumulates into it (both
 *                 arrive poisoned, see BUFFERS); must not
 *                 allocate or synchronise; returns 0 or the first hipError_t. On a GPU
 *                 the launches may be recorded into a launch graph and replayed for later
 *                 cases with the same arguments, so the launch must enqueue the same work
 *                 for the same arguments and use a->stream alone (never the default stream),
 *                 and its result must not depend on earlier launches (LAUNCH CONTRACT below)
 *   fuzz_max_n    0, or the largest element count a fuzz campaign should run the variant on
 *                 (it is slow beyond); sweeps still run it at every size (ABI version 2)
 *   in_dtype      the element type of a->x (ABI version 3): RF_DTYPE_F32 (0, the default of a
 *                 positional initialiser that stops before it), RF_DTYPE_F16 or RF_DTYPE_BF16
 *                 (include/redfuzz/dtype.h). a->x then points to n (or rows*cols) elements of
 *                 that type: floats, or 16-bit encodings (IEEE binary16 / bfloat16, read as
 *                 const uint16_t *). The variant runs only on cases whose dtype is in_dtype.
 *   out_dtype     the type written to a->out: in_dtype or RF_DTYPE_F32 (sum, max: one
 *                 element; softmax, log-softmax: rows*cols elements, logsumexp: rows
 *                 elements, 16-bit encodings for a 16-bit type);
 *                 argmax and argmin always write rf_argmax_out (or rf_argmax_out64, see
 *                 index_bits) with a float value (RF_DTYPE_F32). The
 *                 bound adds the final rounding to out_dtype (docs/TOLERANCES.md).
 *   contract      RF_CONTRACT_* bits (ABI version 4; CONTRACT below): what the kernel returns
 *                 where libraries differ. 0 (the default of a positional initialiser that
 *                 stops before it, and of a version-3 plugin) is the common convention.
 *   index_bits    argmax and argmin only (ABI version 5): the width of the index written.
 *                 0 (the default of a positional initialiser that stops before it, and of a
 *                 version-3 or 4 plugin) or 32: rf_argmax_out {float value; int32_t index}
 *                 (8 bytes), and the runner gives the variant `unsupported` on cases past
 *                 2^31 - 1 elements ("writes a 32-bit index (index_bits 32): n ... is past
 *                 2^31-1"); 64: rf_argmax_out64 {float value; uint32_t pad; int64_t index}
 *                 (16 bytes, the index at offset 8; write pad too, 0: a word left
 *                 poisoned is `unwritten`), for any n. Any other value, or a nonzero value
 *                 on another op, is refused at load.
 *
 * CONTRACT (include/redfuzz/variant.h; docs/ORACLE.md, "The contract for special values").
 * Declare what your kernel does; the judge holds it to that, and `redfuzz list` shows it. A
 * bit for another op is refused at load. One example per choice:
 *   sum, 0 (any-zero): acc = 0.0f; acc += x[i] ... a sum of only -0 gives +0: accepted, as
 *            -0 would be (CUB's DeviceReduce::Sum, T{} = +0).
 *   sum, RF_CONTRACT_SIGNED_ZERO (signed-zero): acc = -0.0f; padding -0.0f ... a sum of only
 *            -0 must give -0, any other exact zero +0 (IEEE 754 §6.3); +0 there is `wrong`.
 *   max/argmax, 0 (nan-ignored): acc = fmaxf(acc, x[i]) ... NaN inputs are skipped; only an
 *            input of only NaN gives NaN (argmax {NaN, -1}), so start acc from NaN (or from
 *            x[first]), not from -INFINITY: fmaxf(-inf, NaN) is -inf, which that input fails.
 *   max/argmax, RF_CONTRACT_NAN_PROPAGATES (nan-propagates): acc = isnan(acc) ? acc :
 *            (isnan(x) || x > acc ? x : acc) ... any NaN gives NaN (torch.max); argmax gives
 *            the index of the FIRST NaN (lowest index), value NaN.
 *   argmax, 0 (tie-first): take b over a when b.v > a.v, or b.v == a.v and b.i < a.i ... the
 *            lowest index of the maximum (CUB ArgMax, torch.argmax, numpy.argmax).
 *   argmax, RF_CONTRACT_TIE_ANY (tie-any): a tree that keeps either side of a tie ... any
 *            index whose element equals the maximum (-0 ties +0), with that element's value.
 *   min/argmin: the max/argmax rules mirrored (fminf; b.v < a.v; any NaN gives NaN under
 *            nan-propagates; tie-first or tie-any on the minimum).
 *   softmax, 0 (masked-row-nan): m = max(row); y_j = expf(x_j - m) / sum ... a row of only
 *            -inf gives NaN everywhere (-inf - -inf is NaN: 0/0), as torch.softmax.
 *   softmax, RF_CONTRACT_MASKED_ROW_ZERO (masked-row-zero): if every x_j is -inf, y_j = 0 ...
 *            the fully masked row of attention kernels; a NaN or +inf in a row is NaN still.
 *   logsumexp, log-softmax: no bit; their special rows follow torch (OUTPUT RULES below).
 * Built-in sums start from -0 and declare RF_CONTRACT_SIGNED_ZERO; built-in max, argmax, min
 * and argmin are nan-ignored, tie-first; built-in softmaxes masked-row-nan.
 * tests/plugin/contract_plugin.hip has a kernel of each kind.
 *
 * OUTPUT RULES (every op's, written once in docs/ORACLE.md, "The contract for special
 * values"; the distributions nan-sprinkled, inf-mixed, signed-zero, all-nan, all-neg-inf and
 * ties exercise them; [bit] marks what the variant's CONTRACT decides). The output buffer
 * arrives poisoned (below), so every rule includes "write the output, always":
 *   sum      n = 0 gives +0.0 (write it, even for an empty input). NaN anywhere, or +inf
 *            together with -inf, gives NaN; otherwise an infinity wins. Finite inputs whose
 *            partial sums may overflow in the plan's orders: +-inf or NaN accepted. An input
 *            of only zeros: either zero, or [RF_CONTRACT_SIGNED_ZERO] -0 when every term is -0
 *            and +0 otherwise. Any summation order is allowed within the bound derived from
 *            the plan.
 *   max      IEEE comparisons; n = 0 gives -inf; NaN inputs are ignored (as fmaxf) and an
 *            input of only NaN gives NaN, or [RF_CONTRACT_NAN_PROPAGATES] any NaN gives NaN.
 *            -0 and +0 tie: either zero is accepted.
 *   argmax   rf_argmax_out {value, index} (rf_argmax_out64 under index_bits 64), value =
 *            x[index] (as a float); n = 0 gives
 *            {-inf, -1}; NaN inputs are ignored and all-NaN gives {NaN, -1}, or
 *            [RF_CONTRACT_NAN_PROPAGATES] any NaN gives {NaN, index of the first NaN}; a tie
 *            (-0 and +0 included) gives the LOWEST index, or [RF_CONTRACT_TIE_ANY] any tied
 *            index.
 *   min      max mirrored: n = 0 gives +inf; NaN ignored (as fminf), all-NaN gives NaN, or
 *            [RF_CONTRACT_NAN_PROPAGATES] any NaN gives NaN; -0 and +0 tie.
 *   argmin   argmax mirrored, in argmax's layout: n = 0 gives {+inf, -1}; an input of only +inf
 *            gives {+inf, 0} (a fold that starts from FLT_MAX instead of +inf gets this
 *            wrong); NaN and ties as argmax's, on the minimum.
 *   softmax  per row: a row containing a NaN or +inf gives NaN in every output of that row; a
 *            row of only -inf gives NaN everywhere, or [RF_CONTRACT_MASKED_ROW_ZERO] 0
 *            everywhere; a -inf entry in a row with a finite
 *            maximum gives exactly +0; cols = 1 gives exactly 1; rows = 0 or cols = 0 writes
 *            nothing. The other outputs are judged against the exact value with the error
 *            bound derived from the plan (plan->rescales and plan->div count too).
 *   logsumexp  one output per row, log sum_j exp(x_j): a NaN in the row gives NaN; else a
 *            +inf gives +inf; a row of only -inf gives -inf, and so does a row of no column
 *            (cols = 0, rows > 0); -inf entries add nothing. rows = 0 writes nothing. The
 *            rest within the bound derived from the plan (docs/TOLERANCES.md).
 *   logsoftmax per row y_j = x_j - logsumexp(row): a row with a NaN or +inf, or of only -inf,
 *            gives NaN in every output; a -inf entry in a row with a finite maximum gives
 *            exactly -inf; an output below the float range may be -inf where a value within
 *            the allowed error rounds to it; rows = 0 or cols = 0 writes nothing.
 *
 * BUFFERS. Output and scratch arrive POISONED, not zeroed: every 32-bit word holds
 * RF_POISON_BITS (a NaN, 0x7FBADBAD) and guard words surround each buffer. A kernel that
 * accumulates into the output or a scratch buffer must zero it first (in its own launch on
 * a->stream: the launch may not synchronise or allocate); an output word left poisoned is
 * reported `unwritten`, a write past the end `oob`. The input a->x is read-only: a launch
 * that changes it is `input-written`, naming the first element it changed (on the simulator
 * the input's pages are read-only, so the write faults and its line is named; on GPUs a check
 * after the launch compares it with a copy), a write just past it `oob`; every variant after
 * it runs on the intact input. Scratch is exactly scratch_bytes(cfg) bytes, on the device,
 * and private to this launch; the simulator's repeat gets it zeroed instead of poisoned
 * (LAUNCH CONTRACT).
 *
 * LAUNCH CONTRACT (what is checked; docs/SIMULATOR.md, "The launch contract"). A breach is
 * the verdict `launch-contract`, with a detail naming the call and, on the simulator, its
 * file and line:
 *   - a->stream only: a kernel launch, hipMemcpyAsync, hipMemsetAsync or hipEventRecord on
 *     any other stream, the default stream (0) included;
 *   - no allocation: hipMalloc, hipFree, hipMallocAsync, hipFreeAsync, hipHostMalloc,
 *     hipHostFree; use scratch_bytes;
 *   - no synchronisation: hipDeviceSynchronize, hipStreamSynchronize, hipEventSynchronize,
 *     hipMemcpy and hipMemset (the synchronous forms);
 *   - scratch written before it is read: the simulator runs every variant again with its
 *     scratch zeroed instead of poisoned; a result that differs (under the same schedule) read
 *     scratch it had not written.
 * The simulator checks every launch, the calls made through its HIP headers (a call through
 * a function pointer is named without its line). On a GPU the runtime cannot be watched: each
 * variant's first launch in a process is also made once under stream capture (thread-local
 * mode; nothing runs), which the runtime refuses for work on the legacy default stream, an
 * allocation or a synchronisation; work on another stream the plugin created, hipMallocAsync
 * and the scratch rule are not seen there.
 * State across launches: the result must depend on the case alone, not on earlier launches
 * (a ticket counter in a __device__ variable that is not reset, a flag, a size cached in a
 * static of the launch function). On the simulator every variant's repeat follows a launch of
 * another shape (another n and grid) and runs under run 0's schedule where the variant is not
 * declared deterministic; other bits are `nondeterministic`, or the failure the repeat gives,
 * with a detail that the earlier launch's shape matters.
 *
 * PLAN LEVELS (redfuzz/plan.h). plan() lists the levels from the inputs to the output; `adds`
 * is the number of additions (max, argmax: comparisons; softmax, logsumexp, log-softmax: adds
 * of the exp sum) on the
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
 * LANGUAGE. Plugins are C++ (C++17) with kernels in plain HIP, written as for hipcc:
 *   #include <hip/hip_runtime.h>          (and <hip/hip_fp16.h>, <hip/hip_bf16.h>)
 *   __global__ void k(...) { __shared__ float tile[32][33]; extern __shared__ float dyn[]; ... }
 *   k<<<grid, block, shmem, stream>>>(args...);   or   hipLaunchKernelGGL(k, grid, block, ...)
 * with threadIdx/blockIdx/blockDim/gridDim, warpSize, __syncthreads, __syncwarp, the __shfl
 * family with and without _sync and a mask (32- or 64-bit), __ballot/__any/__all (and _sync),
 * __activemask, __popc/__ffs/__clz, atomicAdd/Sub/Inc/Dec/Min/Max/CAS/Exch/And/Or/Xor, __ldg,
 * __threadfence(_block), the math functions and fast intrinsics, __half/__half2 and
 * __hip_bfloat16 with their conversions and operations. scripts/redfuzz-plugin builds such a
 * file unmodified for every backend: cuda maps <hip/...> onto CUDA (kernels/plain_hip/cuda/),
 * hip uses ROCm's own headers (kernels/plain_hip/rocm/ adds what an older ROCm lacks), the
 * simulator has headers of its own (sim/include/hip/) and a build step that makes every
 * __shared__ array per-block LDS as RF_SHARED is: poisoned at each block's start, bounds-checked
 * (`oob`), race-checked under ThreadSanitizer, reported at the kernel's own lines; a `_sync` mask
 * that omits a lane taking part (or names lanes calling with another mask) is a
 * divergent-barrier there. docs/SIMULATOR.md, "Plain HIP", says what it models and what not.
 * kernels/port.h's dialect (RF_SHARED, RF_DYN_SHARED, hipLaunchKernelGGL) builds as before.
 * The two entry points must have C linkage (extern "C", as above); rf_variant is a C struct, so
 * initialise it positionally in field order or with C++20 designated initialisers.
 *
 * BUILD RECIPES. Build for the same backend (and sanitizer) as the redfuzz that loads it, with
 * the redfuzz source root (SRC) and SRC/include on the include path. One command does it for
 * every backend this machine can build:
 *   scripts/redfuzz-plugin build my.hip [--out DIR] [--backends sim,sim-tsan,sim-asan,cuda,hip]
 * (DIR/<backend>/libmy.so each; it says which it could not build and why, and exits 2 when a
 * backend asked for built nothing), through rf_add_plugin (cmake/rf_plugin.cmake), which
 * examples/plugin/CMakeLists.txt uses in this tree. The same by hand (the script's flags; the
 * sim recipe is run as written by tests/plugin/plain_hip/recipe.sh):
 *   sim   python3 $SRC/sim/plain_hip/rf_sim_hipcc.py clang++-19 -x c++ -std=c++17 -O2 \
 *           -DRF_SIM=1 -DRF_BACKEND_SIM=1 -fno-fast-math -fsanitize=alignment -fPIC -shared \
 *           -I$SRC/sim/include -I$SRC -I$SRC/include my.hip -o libmy.so
 *         rf_sim_hipcc.py is the simulator's plain-HIP build step, a compiler wrapper: it
 *         preprocesses, rewrites __shared__ declarations and <<<...>>> launches on their own
 *         lines, then runs the command on the result (a port.h source passes through as it is).
 *         -fsanitize=alignment makes a misaligned vector access a verdict as on a GPU; the plain
 *         simulator build refuses a plugin compiled without it (the alignment probe, below).
 *         Do NOT link the simulator: the kernels run on the host program's one simulator
 *         instance, whose symbols redfuzz exports (undefined symbols resolve at load time).
 *   sim-tsan  the sim recipe with -fsanitize=thread -g in place of -fsanitize=alignment, for
 *         the ThreadSanitizer simulator build;
 *   sim-asan  the sim recipe with -fsanitize=address -fsanitize-recover=address
 *         -fno-omit-frame-pointer -g in place of -fsanitize=alignment, for the AddressSanitizer
 *         simulator build (recoverable: a report in a kernel becomes `oob`).
 *   cuda  nvcc -x cu -std=c++17 --expt-relaxed-constexpr -arch=sm_90 -Xcompiler -fPIC \
 *           -shared -cudart static -Xlinker -Bsymbolic -I$SRC/kernels/plain_hip/cuda \
 *           -I$SRC -I$SRC/include my.hip -o libmy.so
 *         (the arch of your GPU; the plugin carries its own static CUDA runtime, which shares
 *         the device's primary context with redfuzz's, so pointers and streams are valid in
 *         both; -Bsymbolic keeps its calls on its own copy.)
 *   hip   hipcc -x hip -std=c++17 --offload-arch=gfx1201 -fPIC -shared \
 *           -I$SRC/kernels/plain_hip/rocm -I$SRC -I$SRC/include my.hip -o libmy.so
 *         (the arch of your GPU; the HIP runtime is shared with redfuzz's. On Debian's
 *         ROCm 5.2 packages gfx1201 also needs the device-library shim of
 *         cmake/rf_hip_debian.cmake, which scripts/redfuzz-plugin applies.)
 * Then: redfuzz --plugin ./libmy.so run --op sum (or REDFUZZ_PLUGINS=./libmy.so, for every
 * command and the fuzz target alike). A plugin may call the plan helpers of redfuzz/plan.h
 * (rf_plan_add), the inline helpers of kernels/launch_common.h and the wave and block
 * reductions of kernels/reduce_prims.h (each states the plan level it adds; the extremum ones
 * are templates over a direction, rf_dir_max or rf_dir_min).
 *
 * WHAT THE LOADER AND THE RUNNER ENFORCE (each refusal names the plugin, the variant and the
 * rule; a refused plugin registers nothing):
 *   - *count fits in the registry (RF_VARIANT_CAPACITY in all), checked before the list is
 *     read; the list holds *count non-NULL pointers;
 *   - every name is non-empty, "<op>/<name>" with the variant's op, at most 63 printable
 *     ASCII characters, no space, no '#', no ',' (selection lists are comma separated), and
 *     unique among every loaded variant;
 *   - summary, constraints, configure, scratch_bytes, plan and launch are non-NULL;
 *   - in_dtype / out_dtype as above;
 *   - index_bits 0, 32 or 64, and nonzero only on an argmax or argmin variant;
 *   - a variant whose argmax index is 32 bits wide (index_bits 0 or 32) does not run on a case
 *     of more than 2^31 - 1 elements: `unsupported`, with the figure;
 *   - every plan (checked each time one is made, by rf_plan_check in redfuzz/plan.h):
 *     n_levels at most RF_PLAN_MAX_LEVELS; each level's kind one of rf_level_kind and its
 *     adds 1..RF_PLAN_MAX_ADDS (2^34); rescales at most 2^34; div and exp known values. A
 *     plan that breaks them is the variant's `launch-error` naming the rule, and the
 *     variant is not launched;
 *   - a configure reason is shown escaped (control bytes as \xNN), so it cannot forge lines;
 *   - the launch contract and state across launches (LAUNCH CONTRACT above):
 *     `launch-contract`, or the repeat's verdict with what the earlier launch changed;
 *   - a launch still running after REDFUZZ_LAUNCH_TIMEOUT_MS (default 60000 ms) is `timeout`
 *     (on the simulator: that much CPU time plus REDFUZZ_LAUNCH_NS_PER_ELEM per element of
 *     the case and per thread, so a correct kernel on a huge case is not a `timeout` for
 *     being slow): the simulator interrupts a kernel that spins without a barrier; on a GPU
 *     the device is then lost to the process (as after a fault);
 *   - the variants are copied at load (every field, the name, summary and constraints
 *     included): what the plugin writes into its own structs later is never seen;
 *   - exit, _exit, _Exit, quick_exit, abort or pthread_exit called by plugin code, or a fault
 *     (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT), in configure, scratch_bytes, plan or launch
 *     (or, on the simulator, in its kernels) is the variant's `crash`, naming the function and
 *     what happened; the run goes on. What cannot be contained (such an exit on a thread of
 *     the plugin's own, a library's exit or abort on another thread during such a call, as
 *     std::terminate's for an exception left uncaught on a thread the plugin started, or
 *     anything of this while the plugin is being loaded) ends redfuzz with exit status 3
 *     and a line naming the plugin, the variant and the function. A call left this way leaves
 *     the plugin's own state as it was at that moment (a lock it held stays held);
 *   - plugin code writing to standard output (printf, std::cout, write(1, ...)), kernels
 *     included, writes to redfuzz's standard error: redfuzz's own output (--json, the tables)
 *     goes to a descriptor of its own (docs/RUNNER.md, "Plugin code is contained").
 *
 * Version rule: RF_PLUGIN_ABI_VERSION changes whenever rf_variant, rf_launch_cfg,
 * rf_launch_args, rf_plan or these two entry points change; redfuzz loads plugins of versions
 * RF_PLUGIN_ABI_OLDEST..RF_PLUGIN_ABI_VERSION (an older plugin's variants get the later
 * fields' defaults: version 3, contract 0; versions 3 and 4, index_bits 0) and refuses any
 * other. */
#ifndef REDFUZZ_PLUGIN_H
#define REDFUZZ_PLUGIN_H
#include <stddef.h>
#include "variant.h"

#define RF_PLUGIN_ABI_VERSION 5   /* 2: rf_variant.fuzz_max_n, rf_plan.exp, rf_plugin_sanitizer;
                                     3: rf_variant.in_dtype, out_dtype (element types);
                                     4: rf_variant.contract;
                                     5: rf_variant.index_bits (64-bit argmax indices) */
/* The oldest ABI version redfuzz still loads: a version-3 plugin's variants end before
 * `contract`, a version-4 plugin's before `index_bits`; the loader gives the missing fields
 * their defaults (0). */
#define RF_PLUGIN_ABI_OLDEST 3

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

/* The alignment probe, exported by every plugin (weak, as the marker above): one 16-byte
 * aligned vector load through p. Compiled with -fsanitize=alignment (the simulator's plain
 * build relies on it: docs/SIMULATOR.md, "Alignment"), a load from a p that is not a multiple
 * of 16 calls the check's handler, which the simulator provides; compiled without it, nothing
 * does. The plain simulator build's loader calls it once with a misaligned p (the handler in
 * probe mode records the call and lets the load go on, rf_sim_alignment_probe) and refuses a
 * plugin whose probe raised nothing: its float4 kernel assuming alignment would pass every
 * sweep unreported. */
#define RF_PLUGIN_ALIGN_PROBE_SYMBOL "rf_plugin_align_probe"
typedef float (*rf_plugin_align_probe_fn)(const void *p);
#ifdef __cplusplus
struct alignas(16) rf_plugin_align_probe_vec {
  float v[4];
};
extern "C" __attribute__((weak, visibility("default"), noinline)) float rf_plugin_align_probe(
    const void *p) {
  return static_cast<const rf_plugin_align_probe_vec *>(p)->v[0];
}
#else
typedef struct {
  _Alignas(16) float v[4];
} rf_plugin_align_probe_vec;
__attribute__((weak, visibility("default"), noinline)) float rf_plugin_align_probe(const void *p) {
  return ((const rf_plugin_align_probe_vec *)p)->v[0];
}
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

/* The alignment probe (C ABI, for the plugin loader, kernels/plugin_loader.c): whether code
 * compiled elsewhere, a plugin, checks alignment the way the plain build's kernels do
 * (-fsanitize=alignment, reported by sim/align_report.cpp; docs/SIMULATOR.md, "Alignment"). */
#ifndef RF_SIM_ALIGN_PROBE_H
#define RF_SIM_ALIGN_PROBE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Calls probe (plugin.h's rf_plugin_align_probe: one 16-byte vector load) with a pointer 4 bytes
 * past a 16-byte boundary, the check's handler in probe mode (it only records the call; the
 * load goes on). Returns 1 when the check ran in the probe, 0 when it did not (compiled without
 * -fsanitize=alignment), -1 where this program has no alignment verdict: the sanitizer builds,
 * and a program whose checks go to a UBSan runtime (the libFuzzer target). */
int rf_sim_alignment_probe(float (*probe)(const void *));

#ifdef __cplusplus
}
/* Probe mode, for the handler (align_report.cpp). */
namespace rf_sim {
extern thread_local bool align_probing, align_probed;
}
#endif
#endif

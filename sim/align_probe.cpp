/* The alignment probe (align_probe.h). Apart from the handlers (align_report.cpp), so that
 * asking links nothing that could clash with a UBSan runtime's: a program whose alignment
 * checks go to such a runtime (the libFuzzer target) has no alignment verdict, and the probe
 * says -1 there, as in the sanitizer builds. */
#include "align_probe.h"

namespace rf_sim {
thread_local bool align_probing = false, align_probed = false;
}

/* Defined (1) by align_report.cpp where this program's checks reach its handlers; weak here, so
 * it is null where that file is not linked. */
extern "C" {
__attribute__((weak)) extern const int rf_sim_align_report_linked;
}

extern "C" int rf_sim_alignment_probe(float (*probe)(const void *)) {
  if (&rf_sim_align_report_linked == nullptr) return -1;
  alignas(16) static const float buf[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  rf_sim::align_probing = true;
  rf_sim::align_probed = false;
  // A 16-byte vector load 4 bytes past a 16-byte boundary: checked code calls the handler.
  (void)probe(reinterpret_cast<const char *>(buf) + 4);
  rf_sim::align_probing = false;
  return rf_sim::align_probed ? 1 : 0;
}

#include <atomic>
/* rf_sim_configure / rf_sim_take_status and friends (sim_control.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "sanitizer_hooks.h"
#include "source_line.h"
#include "status.h"


extern "C" {

void rf_sim_configure(int schedule, uint64_t seed, unsigned wave) {
  rf_sim::Engine &e = rf_sim::engine();
  if (schedule < RF_SIM_SCHED_IN_ORDER || schedule > RF_SIM_SCHED_WAVE_SKEW) {
    rf_sim::status_report(RF_SIM_LAUNCH_ERROR, "configure: unknown schedule %d (in-order used)",
                          schedule);
    schedule = RF_SIM_SCHED_IN_ORDER;
  }
  if (wave != 32 && wave != 64) {
    rf_sim::status_report(RF_SIM_LAUNCH_ERROR, "configure: wave %u is not 32 or 64 (32 used)",
                          wave);
    wave = 32;
  }
  e.schedule = schedule;
  e.seed = seed;
  e.launch_index = 0;
  rf_sim::wave_size = static_cast<int>(wave);
}

/* An input write's message gets the writing instruction's source line here, after the
 * launch, where starting addr2line is safe (source_line.h); the fault handler kept only the
 * address. */
int rf_sim_take_status(char *msg, size_t len) {
  const int code = rf_sim::status_take(msg, len);
  char line[256];
  if (code == RF_SIM_INPUT_WRITTEN && msg && len &&
      rf_sim::source_line_of(rf_sim::status_taken_pc(), line, sizeof line)) {
    const size_t used = strlen(msg);
    snprintf(msg + used, len - used, " at %s", line);
  }
  return code;
}

uintptr_t rf_sim_status_address(void) { return rf_sim::status_taken_address(); }

const char *rf_sim_status_name(int code) {
  switch (code) {
    case RF_SIM_OK: return "ok";
    case RF_SIM_DIVERGENT_BARRIER: return "divergent-barrier";
    case RF_SIM_RACE: return "race";
    case RF_SIM_LAUNCH_ERROR: return "launch-error";
    case RF_SIM_TIMEOUT: return "timeout";
    case RF_SIM_OOB: return "oob";
    case RF_SIM_CRASH: return "crash";
    case RF_SIM_LAUNCH_CONTRACT: return "launch-contract";
    case RF_SIM_INPUT_WRITTEN: return "input-written";
    case RF_SIM_INTERRUPTED: return "interrupted";
  }
  return nullptr;
}

void rf_sim_quiet_coverage(int quiet) {
  if (rf_sim::coverage_quiet) rf_sim::coverage_quiet(quiet != 0);
}

/* Set by the runner from REDFUZZ_COVERAGE_FOLD and REDFUZZ_COVERAGE_CMP, which the edges read
 * and validate (run/settings.def); the simulator itself reads no environment. */
void rf_sim_coverage_fold(int mode) {
  if (rf_sim::coverage_fold_mode) rf_sim::coverage_fold_mode(mode);
}
void rf_sim_coverage_cmp_all(int all) { rf_sim::coverage_cmp_all = all != 0; }

void rf_sim_set_step_budget(uint64_t switches) { rf_sim::engine().budget = switches; }

uint64_t rf_sim_launch_budget(uint64_t switches, uint64_t threads) {
  const uint64_t per_thread = 64, small_launch = uint64_t{1} << 22;
  if (threads <= small_launch) return switches;
  const uint64_t scaled = threads > UINT64_MAX / per_thread ? UINT64_MAX : threads * per_thread;
  return scaled > switches ? scaled : switches;
}

/* Set by the runner from REDFUZZ_SIM_TARGET, which the edges read and validate
 * (run/settings.def); the simulator itself reads no environment. Relaxed: set before any
 * launch, read by kernels' fibers. */
static std::atomic<int> g_target{RF_SIM_TARGET_GFX1201};
void rf_sim_set_target(int target) {
  g_target.store(target == RF_SIM_TARGET_NVIDIA ? RF_SIM_TARGET_NVIDIA : RF_SIM_TARGET_GFX1201,
                 std::memory_order_relaxed);
}
int rf_sim_target(void) { return g_target.load(std::memory_order_relaxed); }

int rf_sim_race_detection(void) { return rf_sim::san::tsan ? 1 : 0; }

uint64_t rf_sim_switch_count(void) { return rf_sim::engine().total_switches; }

}  // extern "C"

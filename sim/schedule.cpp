#include "schedule.h"
#include "sim_control.h"

// pick_next spells the schedules as numbers to stay free of the C header; keep them equal.
static_assert(RF_SIM_SCHED_IN_ORDER == 0 && RF_SIM_SCHED_REVERSE == 1 && RF_SIM_SCHED_RANDOM == 2 &&
                  RF_SIM_SCHED_WAVE_SKEW == 3,
              "schedule numbers used by pick_next");

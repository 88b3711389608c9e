/* The simulator's schedules by number (RF_SIM_SCHED_*), for messages of the simulator's
 * tests and benchmarks (which link the simulator alone, not model/'s rf_sched_name). */
#ifndef RF_SIM_SCHEDULE_NAMES_H
#define RF_SIM_SCHEDULE_NAMES_H

static const char *const kScheduleNames[] = {"in-order", "reverse", "random", "wave-skew"};

#endif

/* The runner's clock for its stage timings (rf_runner_stats' ms_* fields). */
#ifndef RF_CLOCK_H
#define RF_CLOCK_H

/* Milliseconds of a monotonic clock. */
double rf_now_ms(void);
#endif

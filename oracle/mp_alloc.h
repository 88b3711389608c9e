/* GMP/MPFR allocations that end the process with a message instead of abort() (mp_alloc.c).
 * Called once before the first MPFR number is made (rf_runner_create); later calls do
 * nothing. */
#ifndef RF_MP_ALLOC_H
#define RF_MP_ALLOC_H
void rf_oracle_mp_alloc_install(void);
#endif

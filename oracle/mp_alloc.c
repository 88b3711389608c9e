/* GMP (and MPFR through it) abort() when an allocation fails ("GNU MP: Cannot allocate
 * memory"): a SIGABRT in the middle of a sweep, no verdict, no message a user can act on. Its
 * allocation functions are replaced by ones that end the process the way every other
 * allocation failure does (model/oom.h). GMP's contract for these functions is that they
 * never return NULL, so there is no recovery to offer here. */
#include <gmp.h>
#include <stdlib.h>
#include "model/oom.h"
#include "mp_alloc.h"

static void *mp_alloc(size_t bytes) {
  void *p = malloc(bytes);
  if (!p) rf_oom_exit("the exact oracle's multi-precision numbers (GMP/MPFR)", bytes);
  return p;
}

static void *mp_realloc(void *old, size_t old_bytes, size_t bytes) {
  (void)old_bytes;
  void *p = realloc(old, bytes);
  if (!p) rf_oom_exit("the exact oracle's multi-precision numbers (GMP/MPFR)", bytes);
  return p;
}

static void mp_free(void *p, size_t bytes) {
  (void)bytes;
  free(p);
}

void rf_oracle_mp_alloc_install(void) {
  static int done;
  if (done) return;
  done = 1;
  mp_set_memory_functions(mp_alloc, mp_realloc, mp_free);
}

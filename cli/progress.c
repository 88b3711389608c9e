/* Progress lines from a thread of their own (progress.h). The command's thread only updates
 * the shared state under the mutex (a counter and a short text, once a case or a file); the
 * reporter sleeps on a condition variable for the interval, so stopping it is immediate. */
#include "progress.h"
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cli.h"
#include "model/dtype.h"

struct rf_progress {
  pthread_t thread;
  pthread_mutex_t mu;
  pthread_cond_t cv;   /* on CLOCK_MONOTONIC */
  int stop;
  const char *cmd, *unit;
  uint64_t total, done;
  char on[160];
  const rf_runner *r;
  uint64_t interval_ms;
  struct timespec t0;
};

static double since(const struct timespec *t0) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)(t.tv_sec - t0->tv_sec) + (double)(t.tv_nsec - t0->tv_nsec) / 1e9;
}

/* One line, built whole and written with one call (stderr is unbuffered: a line written in
 * pieces could be cut by the command's own messages). */
static void report(rf_progress *p) {
  char line[512];
  int k = snprintf(line, sizeof line, "redfuzz %s: %llu", p->cmd, (unsigned long long)p->done);
  if (p->total)
    k += snprintf(line + k, sizeof line - (size_t)k, "/%llu %s (%.0f%%)",
                  (unsigned long long)p->total, p->unit, 100.0 * (double)p->done / (double)p->total);
  else
    k += snprintf(line + k, sizeof line - (size_t)k, " %s", p->unit);
  k += snprintf(line + k, sizeof line - (size_t)k, ", %.0f s", since(&p->t0));
  if (p->on[0] && k < (int)sizeof line) k += snprintf(line + k, sizeof line - (size_t)k, "; on %s", p->on);
  const rf_variant *v = p->r ? rf_runner_launching(p->r) : NULL;
  if (v && k < (int)sizeof line) k += snprintf(line + k, sizeof line - (size_t)k, "; running %s", v->name);
  if (k >= (int)sizeof line) k = (int)sizeof line - 2;
  line[k++] = '\n';
  fwrite(line, 1, (size_t)k, stderr);
}

static void *reporter(void *arg) {
  rf_progress *p = arg;
  pthread_mutex_lock(&p->mu);
  struct timespec next;
  clock_gettime(CLOCK_MONOTONIC, &next);
  while (!p->stop) {
    next.tv_sec += (time_t)(p->interval_ms / 1000);
    next.tv_nsec += (long)(p->interval_ms % 1000) * 1000000L;
    if (next.tv_nsec >= 1000000000L) { next.tv_sec++; next.tv_nsec -= 1000000000L; }
    int e = 0;
    while (!p->stop && e != ETIMEDOUT) e = pthread_cond_timedwait(&p->cv, &p->mu, &next);
    if (!p->stop) report(p);
  }
  pthread_mutex_unlock(&p->mu);
  return NULL;
}

rf_progress *rf_progress_start(const char *cmd, const char *unit, uint64_t total,
                               const rf_runner *r) {
  if (!rf_cli_settings.progress_ms) return NULL;
  rf_progress *p = calloc(1, sizeof *p);
  if (!p) return NULL;
  *p = (rf_progress){.cmd = cmd, .unit = unit, .total = total, .r = r,
                     .interval_ms = rf_cli_settings.progress_ms};
  clock_gettime(CLOCK_MONOTONIC, &p->t0);
  pthread_condattr_t ca;
  int ok = pthread_mutex_init(&p->mu, NULL) == 0;
  if (ok && pthread_condattr_init(&ca) == 0) {
    ok = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0 && pthread_cond_init(&p->cv, &ca) == 0;
    pthread_condattr_destroy(&ca);
  } else {
    ok = 0;
  }
  /* The reporter takes no signal: Ctrl-C, SIGTERM and the rest reach the command's thread
   * as before (its handlers and the simulator's thread-directed watchdog). */
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  if (ok && pthread_create(&p->thread, NULL, reporter, p) != 0) ok = 0;
  pthread_sigmask(SIG_SETMASK, &old, NULL);
  if (!ok) {
    fprintf(stderr, "redfuzz %s: note: no progress lines (the reporting thread could not "
            "start)\n", cmd);
    free(p);
    return NULL;
  }
  return p;
}

void rf_progress_set(rf_progress *p, uint64_t done, const char *on) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->done = done;
  if (on) snprintf(p->on, sizeof p->on, "%s", on);
  pthread_mutex_unlock(&p->mu);
}

void rf_progress_stop(rf_progress *p) {
  if (!p) return;
  pthread_mutex_lock(&p->mu);
  p->stop = 1;
  pthread_cond_signal(&p->cv);
  pthread_mutex_unlock(&p->mu);
  pthread_join(p->thread, NULL);
  pthread_cond_destroy(&p->cv);
  pthread_mutex_destroy(&p->mu);
  free(p);
}

void rf_progress_case_text(const rf_case *c, char *buf, size_t len) {
  if (rf_op_has_rows(c->op))
    snprintf(buf, len, "%s %ux%u %s %s", rf_op_name(c->op), c->rows, c->cols,
             rf_dtype_name(c->dtype), rf_dist_name(c->dist));
  else
    snprintf(buf, len, "%s n=%llu %s %s", rf_op_name(c->op), (unsigned long long)c->n,
             rf_dtype_name(c->dtype), rf_dist_name(c->dist));
}

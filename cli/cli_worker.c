/* Worker processes for commands that must outlive a GPU fault. A fault inside a kernel leaves
 * a GPU context unusable for the rest of the process (kernels/harness/device.h,
 * rf_dev_error_is_fault),
 * so the command's work runs in a child, which the parent restarts when it exits with
 * RF_EXIT_RESTART; progress lives in memory shared with the children. The parent never touches
 * the device (CUDA is not usable in a child forked after it was initialised). */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "cli.h"

static volatile pid_t g_child;
static volatile sig_atomic_t g_stop;   /* the first stop signal the parent passed on */

/* The child runs in its own process group, so a Ctrl-C from the terminal reaches the parent
 * only and is passed on once: the child's own handler then ends it with its summary, and a
 * second Ctrl-C, passed on too, ends it at once (cli_signal.c). */
static void forward(int sig) {
  if (!g_stop) g_stop = sig;
  if (g_child > 0) kill(g_child, sig);
}

/* A worker must be gone this long after a stop was passed on: one checks between batches and
 * its waits for the device end at once, but host work on a huge case (making or judging 2^24
 * rows) or a driver call can hold it for minutes, and one signal must end a command within
 * 2 s (issue 47; on an H200 a worker judging a 16,776,705-row case was still running 10 s
 * after its SIGTERM). Past it the worker is killed and the parent prints the summary of what
 * was tallied (rf_cli_resume_run), the case it ran left out. */
#define RF_STOP_GRACE_MS 1500

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/* Waits for the worker: its status, and *killed set when it was ended past the grace. */
static int wait_worker(pid_t pid, int *killed) {
  int st = 0;
  double stop_at = 0;
  *killed = 0;
  for (;;) {
    const pid_t w = waitpid(pid, &st, g_stop ? WNOHANG : 0);
    if (w == pid) return st;
    if (w < 0 && errno != EINTR) return st;
    if (!g_stop) continue;   /* EINTR, or a stop just arrived: poll from now on */
    if (!stop_at) stop_at = now_ms();
    if (!*killed && now_ms() - stop_at > RF_STOP_GRACE_MS) {
      kill(pid, SIGKILL);
      *killed = 1;
    }
    const struct timespec pause = {0, 20 * 1000 * 1000};
    nanosleep(&pause, NULL);
  }
}

void *rf_cli_shared_alloc(size_t bytes) {
  void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  return p == MAP_FAILED ? NULL : p;   /* zero-filled */
}

void rf_cli_shared_free(void *p, size_t bytes) {
  if (p) munmap(p, bytes);
}

int rf_cli_supervise(const char *cmd, int (*work)(void *ctx), void *ctx, int *restarts) {
  struct sigaction sa, old_int, old_term;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = forward;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;   /* no SA_RESTART: the blocking wait returns (EINTR) on a stop, and polls */
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  *restarts = 0;
  int rc;
  for (;;) {
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
      fprintf(stderr, "redfuzz %s: cannot start a worker process: %s\n", cmd, strerror(errno));
      rc = -1;
      break;
    }
    if (pid == 0) {
      setpgid(0, 0);
      prctl(PR_SET_PDEATHSIG, SIGTERM);   /* the parent gone: no orphan left on the GPU */
      sigaction(SIGINT, &old_int, NULL);
      sigaction(SIGTERM, &old_term, NULL);
      int wrc = rf_cli_out_finish(cmd, work(ctx));   /* its stdout checked like main's */
      fflush(stderr);
      _exit(wrc);
    }
    g_child = pid;
    setpgid(pid, pid);   /* both sides set it: whichever runs first */
    if (g_stop) kill(pid, g_stop);   /* a stop that came while it was being started */
    int killed;
    const int st = wait_worker(pid, &killed);
    g_child = 0;
    const int restart = WIFEXITED(st) && WEXITSTATUS(st) == RF_EXIT_RESTART;
    if (killed || (restart && g_stop)) {   /* no new worker after a stop */
      if (killed)
        fprintf(stderr, "redfuzz %s: the worker process was still busy %d ms after the stop "
                "(host work or a driver call): ended; the case it ran is left out\n", cmd,
                RF_STOP_GRACE_MS);
      rc = -(int)g_stop;   /* reported as the stop it was (rf_cli_resume_run) */
      break;
    }
    if (restart) {
      ++*restarts;
      continue;
    }
    rc = WIFEXITED(st) ? WEXITSTATUS(st) : -WTERMSIG(st);
    break;
  }
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  return rc;
}

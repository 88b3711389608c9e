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
#include <unistd.h>
#include "cli.h"

static volatile pid_t g_child;

/* The child runs in its own process group, so a Ctrl-C from the terminal reaches the parent
 * only and is passed on once: the child's own handler then ends it with its summary, and a
 * second Ctrl-C, passed on too, ends it at once (cli_signal.c). */
static void forward(int sig) {
  if (g_child > 0) kill(g_child, sig);
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
  sa.sa_flags = SA_RESTART;
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
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {}
    g_child = 0;
    if (WIFEXITED(st) && WEXITSTATUS(st) == RF_EXIT_RESTART) {
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

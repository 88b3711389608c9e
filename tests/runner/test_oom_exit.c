/* Out of memory ends the process with status 2 and the message (model/oom.h), never a crash on
 * a NULL pointer (an unchecked rf_host_buf_get) or GMP's abort() (oracle/mp_alloc.c). Each
 * request runs in a child that asks for 8 TiB, more than the machine holds with its swap (the
 * kernel's overcommit heuristic refuses it at once), and must die exactly that way. With the
 * handler removed (mp_set_memory_functions left to GMP) the MPFR child ends by SIGABRT and the
 * test fails. */
#include <mpfr.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "oracle/mp_alloc.h"
#include "run/buffers.h"

#define HUGE_BYTES ((size_t)1 << 43)

static void ask_host_buffer(void) {
  rf_host_buf b = {0};
  (void)rf_host_buf_get(&b, HUGE_BYTES);
}

static void ask_mpfr(void) {
  rf_oracle_mp_alloc_install();
  mpfr_t x;
  mpfr_init2(x, (mpfr_prec_t)HUGE_BYTES * 8);
  mpfr_set_ui(x, 1, MPFR_RNDN);
}

static int check(const char *name, void (*ask)(void), const char *want) {
  char path[] = "/tmp/rf_oom_XXXXXX";
  int fd = mkstemp(path);
  if (fd < 0) { perror("mkstemp"); return 1; }
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fd, 2);
    ask();
    _exit(0);   /* the allocation succeeded: no exit 2 */
  }
  int st = 0;
  waitpid(pid, &st, 0);
  char msg[512] = {0};
  lseek(fd, 0, SEEK_SET);
  ssize_t got = read(fd, msg, sizeof msg - 1);
  (void)got;
  close(fd);
  unlink(path);
  int ok = WIFEXITED(st) && WEXITSTATUS(st) == 2 && strstr(msg, want) != NULL;
  printf("%s: %s (%s %d) %s", name, ok ? "ok" : "FAIL",
         WIFEXITED(st) ? "exit" : "signal", WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), msg);
  if (!strchr(msg, '\n')) printf("\n");
  return !ok;
}

int main(void) {
  int bad = 0;
  bad |= check("host buffer", ask_host_buffer,
               "redfuzz: out of memory: a host buffer of the runner (8796093022208 bytes;");
  bad |= check("MPFR number", ask_mpfr,
               "redfuzz: out of memory: the exact oracle's multi-precision numbers (GMP/MPFR)");
  return bad;
}

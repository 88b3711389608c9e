/* The source line of a kernel instruction, for reports of the plain build (source_line.h).
 *
 * The plain build has no symbolizer of its own (the sanitizer builds have their runtime's,
 * tsan_report.cpp), so the module's debug information is read by `addr2line` (binutils),
 * started once per distinct instruction and never inside a signal handler: the fault handler
 * keeps the address, and the line is looked up when the status is taken, after the launch.
 * Where addr2line is missing, the module has no debug information or the lookup fails, the
 * report keeps the function's name alone. */
#include "source_line.h"
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <mutex>
#include "engine.h"

extern char **environ;

namespace rf_sim {

namespace {

/* "file:line" from addr2line's output line, the project root stripped; false for "??:0". */
bool parse_line(char *out, size_t len, const char *text) {
  if (!text[0] || text[0] == '?') return false;
  char line[512];
  snprintf(line, sizeof line, "%s", text);
  line[strcspn(line, "\n")] = '\0';
  char *disc = strstr(line, " (discriminator");
  if (disc) *disc = '\0';
  const char *colon = strrchr(line, ':');
  if (!colon || colon[1] == '?' || strcmp(colon, ":0") == 0) return false;
  snprintf(out, len, "%s", short_path(line));
  return true;
}

bool run_addr2line(const char *module, uintptr_t offset, char *out, size_t len) {
  int fd[2];
  if (pipe2(fd, O_CLOEXEC) != 0) return false;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fd[1], STDOUT_FILENO);
  posix_spawn_file_actions_addopen(&fa, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  char hex[32];
  snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(offset));
  char *argv[] = {const_cast<char *>("addr2line"), const_cast<char *>("-e"),
                  const_cast<char *>(module), hex, nullptr};
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, "addr2line", &fa, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fd[1]);
  char buf[600];
  size_t got = 0;
  if (rc == 0) {
    ssize_t k;
    while (got + 1 < sizeof buf && (k = read(fd[0], buf + got, sizeof buf - 1 - got)) != 0) {
      if (k < 0) break;  // EINTR included: the line is optional
      got += static_cast<size_t>(k);
    }
  }
  buf[got] = '\0';
  close(fd[0]);
  if (rc != 0) return false;
  int status = 0;
  pid_t w;
  while ((w = waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
  }
  // ECHILD (SIGCHLD ignored: the child was reaped already): its output is all there is.
  if (w == pid && !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) return false;
  return parse_line(out, len, buf);
}

struct Cached {
  const void *pc;
  bool found;
  char line[256];
};
constexpr int kCache = 32;
Cached cache[kCache];
int cached, next_slot;
std::mutex cache_mutex;

}  // namespace

bool source_line_of(const void *pc, char *out, size_t len) {
  if (!pc || !len) return false;
  std::lock_guard<std::mutex> lock(cache_mutex);
  for (int i = 0; i < cached; i++)
    if (cache[i].pc == pc) {
      if (cache[i].found) snprintf(out, len, "%s", cache[i].line);
      return cache[i].found;
    }
  Dl_info dl;
  Cached c{pc, false, {0}};
  if (dladdr(pc, &dl) && dl.dli_fname && dl.dli_fname[0]) {
    const uintptr_t base = reinterpret_cast<uintptr_t>(dl.dli_fbase);
    // The address in the module's own terms: a shared object's (and a position-independent
    // executable's) addresses are offsets from where it was loaded.
    c.found = run_addr2line(dl.dli_fname, reinterpret_cast<uintptr_t>(pc) - base, c.line,
                            sizeof c.line);
  }
  Cached &slot = cache[cached < kCache ? cached++ : next_slot++ % kCache];
  slot = c;
  if (c.found) snprintf(out, len, "%s", c.line);
  return c.found;
}

}  // namespace rf_sim

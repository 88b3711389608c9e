/* Safe file writes (file_out.h). The name is taken with link(2), which fails with EEXIST
 * instead of replacing, so two writers racing on one name never lose either file; rename(2)
 * is only the fallback for filesystems without hard links. */
#include "file_out.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

struct rf_file {
  FILE *fp;
  char path[PATH_MAX];
  char tmp[PATH_MAX];
};

/* The folder part of path ("." when none). */
static void folder_of(const char *path, char *dir, size_t len) {
  const char *slash = strrchr(path, '/');
  if (!slash) snprintf(dir, len, ".");
  else if (slash == path) snprintf(dir, len, "/");
  else snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* A name this system can hold: the whole path within PATH_MAX and the last part within the
 * folder's NAME_MAX. Checked up front, since open() would truncate nothing but a caller's
 * snprintf might. */
static int name_fits(const char *path, char *err, size_t errlen) {
  size_t len = strlen(path);
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  char dir[PATH_MAX];
  if (len >= PATH_MAX) {
    snprintf(err, errlen, "%.80s...: a path of %zu bytes (allowed: at most %d)", path, len,
             PATH_MAX - 1);
    return -1;
  }
  folder_of(path, dir, sizeof dir);
  long name_max = pathconf(dir, _PC_NAME_MAX);
  if (name_max <= 0) name_max = 255;
  if (!*base) {
    snprintf(err, errlen, "%s: no file name (allowed: a path ending in a file name)", path);
    return -1;
  }
  if ((long)strlen(base) > name_max) {
    snprintf(err, errlen, "%.80s...: a file name of %zu bytes is longer than this system "
             "allows (at most %ld); not truncated", path, strlen(base), name_max);
    return -1;
  }
  return 0;
}

/* 0 when nothing is at path, 1 a regular file, -1 with err otherwise (a symlink is never
 * followed). */
static int what_is_there(const char *path, char *err, size_t errlen) {
  struct stat st;
  if (lstat(path, &st) != 0) {
    if (errno == ENOENT) return 0;
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    return -1;
  }
  if (S_ISLNK(st.st_mode)) {
    snprintf(err, errlen, "%s: is a symbolic link (not followed, not replaced; allowed: a new "
             "name or a regular file)", path);
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    snprintf(err, errlen, "%s: is %s (allowed: a new name or a regular file)", path,
             S_ISDIR(st.st_mode) ? "a folder" : "a special file");
    return -1;
  }
  return 1;
}

rf_file *rf_file_open(const char *path, char *err, size_t errlen) {
  /* A write past `ulimit -f` must fail (EFBIG) and be reported, not kill the process. */
  signal(SIGXFSZ, SIG_IGN);
  if (name_fits(path, err, errlen) || what_is_there(path, err, errlen) < 0) return NULL;
  rf_file *f = calloc(1, sizeof *f);
  if (!f) { snprintf(err, errlen, "%s: out of memory", path); return NULL; }
  snprintf(f->path, sizeof f->path, "%s", path);
  char dir[PATH_MAX];
  folder_of(path, dir, sizeof dir);
  static unsigned counter;
  int fd = -1;
  for (int tries = 0; fd < 0 && tries < 100; tries++) {
    /* Short, so it fits wherever the target's name fits; a dot so replay's *.case skips it. */
    if (snprintf(f->tmp, sizeof f->tmp, "%s/.rf-%ld-%u.tmp", dir, (long)getpid(), counter++) >=
        (int)sizeof f->tmp) {
      errno = ENAMETOOLONG;
      break;
    }
    fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0644);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0 || !(f->fp = fdopen(fd, "wb"))) {
    snprintf(err, errlen, "%s: cannot create a file in %s: %s", path, dir, strerror(errno));
    if (fd >= 0) { close(fd); unlink(f->tmp); }
    free(f);
    return NULL;
  }
  return f;
}

FILE *rf_file_stream(rf_file *f) { return f->fp; }

void rf_file_abort(rf_file *f) {
  if (!f) return;
  if (f->fp) fclose(f->fp);
  unlink(f->tmp);
  free(f);
}

/* 1 when the two files hold the same bytes, 0 when not, -1 when one cannot be read. */
static int same_bytes(const char *a, const char *b) {
  int fa = open(a, O_RDONLY | O_NOFOLLOW), fb = open(b, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  int same = -1;
  if (fa >= 0 && fb >= 0) {
    static char ba[65536], bb[65536];
    for (;;) {
      ssize_t na = read(fa, ba, sizeof ba), nb = read(fb, bb, sizeof bb);
      /* Regular files give whole reads until their end. */
      if (na < 0 || nb < 0) break;
      if (na != nb || memcmp(ba, bb, (size_t)na) != 0) { same = 0; break; }
      if (na == 0) { same = 1; break; }
    }
  }
  if (fa >= 0) close(fa);
  if (fb >= 0) close(fb);
  return same;
}

/* NAME.ext -> NAME-k.ext (k >= 2): the extension is what follows the last dot of the last
 * part, if any. */
static int numbered(const char *path, unsigned k, char *out, size_t len) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  const char *dot = strrchr(base, '.');
  if (!dot || dot == base) dot = path + strlen(path);
  return snprintf(out, len, "%.*s-%u%s", (int)(dot - path), path, k, dot) < (int)len ? 0 : -1;
}

/* Puts tmp at name without replacing anything: 0 done, 1 something is there, -1 errno. */
static int place(const char *tmp, const char *name) {
  if (link(tmp, name) == 0) return 0;
  if (errno == EEXIST) return 1;
  if (errno != EPERM && errno != ENOTSUP && errno != EXDEV && errno != EMLINK && errno != ENOSYS)
    return -1;
  /* No hard links here: a check and a rename (a window a concurrent writer could use). */
  struct stat st;
  if (lstat(name, &st) == 0) return 1;
  return rename(tmp, name) == 0 ? 0 : -1;
}

/* 1 when the file at path holds exactly old[0..len), 0 when not, -1 when it cannot be read. */
static int holds(const char *path, const void *old, size_t len) {
  int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return -1;
  static char buf[65536];
  size_t at = 0;
  int same = 1;
  for (;;) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0) { same = -1; break; }
    if (n == 0) { same = at == len; break; }
    if ((size_t)n > len - at || memcmp(buf, (const char *)old + at, (size_t)n) != 0) {
      same = 0;
      break;
    }
    at += (size_t)n;
  }
  close(fd);
  return same;
}

int rf_file_replace(rf_file *f, const void *old, size_t old_len, char *err, size_t errlen) {
  int rc = -1;
  errno = 0;
  int bad = fflush(f->fp) != 0 || ferror(f->fp);
  int saved = errno;
  struct stat st;
  if (!bad && fsync(fileno(f->fp)) != 0) { bad = 1; saved = errno; }
  if (!bad && lstat(f->path, &st) == 0 && S_ISREG(st.st_mode))
    fchmod(fileno(f->fp), st.st_mode & 07777);   /* the old file's permissions */
  if (fclose(f->fp) != 0 && !bad) { bad = 1; saved = errno; }
  f->fp = NULL;
  if (bad) {
    snprintf(err, errlen, "%s: cannot write: %s (not replaced)", f->path,
             saved ? strerror(saved) : "write error");
    goto out;
  }
  const int there = what_is_there(f->path, err, errlen);
  if (there == 0) snprintf(err, errlen, "%s: is gone (not written again)", f->path);
  if (there != 1) goto out;
  const int same = holds(f->path, old, old_len);
  if (same != 1) {
    snprintf(err, errlen, "%s: %s (not replaced)", f->path,
             same < 0 ? "cannot be read again" : "changed since it was read (edited meanwhile?)");
    goto out;
  }
  if (rename(f->tmp, f->path) != 0) {
    snprintf(err, errlen, "%s: cannot replace: %s (not replaced)", f->path, strerror(errno));
    goto out;
  }
  rc = 0;
  {
    char dir[PATH_MAX];
    folder_of(f->path, dir, sizeof dir);
    int d = open(dir, O_RDONLY);
    if (d >= 0) { fsync(d); close(d); }
  }
out:
  if (rc) unlink(f->tmp);
  free(f);
  return rc;
}

int rf_file_commit(rf_file *f, rf_file_clash clash, char *final, size_t finallen, char *err,
                   size_t errlen) {
  int rc = -1;
  /* Every buffered byte out, then on the disk: a failure of any step is the write's. */
  errno = 0;
  int bad = fflush(f->fp) != 0 || ferror(f->fp);
  int saved = errno;
  if (!bad && fsync(fileno(f->fp)) != 0) { bad = 1; saved = errno; }
  if (fclose(f->fp) != 0 && !bad) { bad = 1; saved = errno; }
  f->fp = NULL;
  if (bad) {
    snprintf(err, errlen, "%s: cannot write: %s (nothing written)", f->path,
             saved ? strerror(saved) : "write error");
    goto out;
  }
  char name[PATH_MAX];
  snprintf(name, sizeof name, "%s", f->path);
  for (unsigned k = 2;; k++) {
    int p = place(f->tmp, name);
    if (p < 0) {
      snprintf(err, errlen, "%s: cannot write: %s (nothing written)", name, strerror(errno));
      goto out;
    }
    if (p == 0) { rc = 0; break; }
    if (what_is_there(name, err, errlen) < 0) goto out;
    int same = same_bytes(f->tmp, name);
    if (same == 1) { rc = 1; break; }
    if (same < 0) {
      snprintf(err, errlen, "%s: exists and cannot be read to compare: %s (not replaced)", name,
               strerror(errno));
      goto out;
    }
    if (clash == RF_FILE_REFUSE) {
      snprintf(err, errlen, "%s: exists with other content (not replaced: remove it or choose "
               "another name)", name);
      goto out;
    }
    if (k > 1000 || numbered(f->path, k, name, sizeof name) ||
        name_fits(name, err, errlen)) {
      if (k > 1000) snprintf(err, errlen, "%s: 1000 numbered names taken", f->path);
      goto out;
    }
  }
  if (final) snprintf(final, finallen, "%s", name);
  /* The new name on the disk too (the folder's entry); a folder that cannot be synced is
   * no error of the file's. */
  {
    char dir[PATH_MAX];
    folder_of(name, dir, sizeof dir);
    int d = open(dir, O_RDONLY);
    if (d >= 0) { fsync(d); close(d); }
  }
out:
  unlink(f->tmp);
  free(f);
  return rc;
}

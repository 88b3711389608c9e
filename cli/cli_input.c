/* Reading case files and fuzz inputs: bounded, never blocking (a FIFO is refused, not
 * opened for a wait), and told apart by one rule (cli.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include "cli.h"
#include "kernels/plugin_loader.h"
#include "run/fuzz_select.h"

char *rf_cli_read_file(const char *path, size_t *len, char *err, size_t errlen) {
  struct stat st;
  /* Sockets cannot be opened; say what they are rather than "No such device". */
  if (stat(path, &st) == 0 && S_ISSOCK(st.st_mode)) {
    snprintf(err, errlen, "%s: is a socket (allowed: a regular file)", path);
    return NULL;
  }
  /* O_NONBLOCK: opening a FIFO (or a device) never waits for a writer; fstat then tells what
   * was opened, before any read could block. */
  int fd = open(path, O_RDONLY | O_NONBLOCK);
  if (fd < 0) { snprintf(err, errlen, "%s: %s", path, strerror(errno)); return NULL; }
  if (fstat(fd, &st) != 0) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    close(fd);
    return NULL;
  }
  if (S_ISDIR(st.st_mode) || S_ISFIFO(st.st_mode)) {
    snprintf(err, errlen, "%s: is a %s (allowed: a file)", path,
             S_ISDIR(st.st_mode) ? "folder" : "FIFO (named pipe); not read, it could block");
    close(fd);
    return NULL;
  }
  /* One byte past the limit tells "too large" without reading the rest. A device is read
   * like a file, bounded: one that has nothing to give now (a terminal) is a read error
   * (EAGAIN), never a wait. */
  char *buf = malloc((size_t)RF_CLI_FILE_MAX + 2);
  if (!buf) {
    close(fd);
    snprintf(err, errlen, "%s: out of memory", path);
    return NULL;
  }
  size_t n = 0;
  while (n <= RF_CLI_FILE_MAX) {
    ssize_t got = read(fd, buf + n, (size_t)RF_CLI_FILE_MAX + 1 - n);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
      close(fd);
      free(buf);
      return NULL;
    }
    n += (size_t)got;
  }
  close(fd);
  if (n > RF_CLI_FILE_MAX) {
    free(buf);
    snprintf(err, errlen, "%s: larger than %u bytes (allowed: case files and fuzz inputs of at "
             "most 1 MiB)", path, RF_CLI_FILE_MAX);
    return NULL;
  }
  buf[n] = '\0';
  *len = n;
  return buf;
}

int rf_cli_is_text(const unsigned char *p, size_t len, size_t *skip) {
  size_t s = len >= 3 && p[0] == 0xef && p[1] == 0xbb && p[2] == 0xbf ? 3 : 0;
  if (skip) *skip = s;
  for (size_t i = s; i < len; i++)
    if (p[i] < 9 || (p[i] > 13 && p[i] < 32) || p[i] == 127) return 0;
  return 1;
}

/* Lines starting with "expect" (after blanks): an upper bound on the expect lines. */
static size_t count_expects(const char *t) {
  size_t k = 0;
  for (const char *p = t; p && *p;) {
    while (*p == ' ' || *p == '\t') p++;
    if (strncmp(p, "expect", 6) == 0) k++;
    p = strchr(p, '\n');
    if (p) p++;
  }
  return k;
}

/* The line each field's key stands on in the last text case read (0: not in the file), so a
 * check made after parsing (the backend's limits, a variant name unknown to this build) can
 * name the file and the line. The CLI reads one case and checks it before the next. */
static unsigned key_lines[RF_FIELD_COUNT];

static void note_key_lines(const char *text) {
  memset(key_lines, 0, sizeof key_lines);
  unsigned line = 1;
  for (const char *p = text; *p; line++) {
    const char *end = strchr(p, '\n');
    const size_t len = end ? (size_t)(end - p) : strlen(p);
    size_t i = 0;
    while (i < len && (p[i] == ' ' || p[i] == '\t')) i++;
    for (size_t f = 0; f < RF_FIELD_COUNT; f++) {
      const size_t kl = strlen(rf_fields[f].key);
      size_t j = i + kl;
      if (j > len || strncmp(p + i, rf_fields[f].key, kl) != 0) continue;
      while (j < len && (p[j] == ' ' || p[j] == '\t')) j++;
      if (j < len && p[j] == '=') key_lines[f] = line;
    }
    p += len + (end ? 1 : 0);
  }
}

void rf_cli_case_where(const char *path, const char *why, char *buf, size_t len) {
  /* why starts with the field: "n: ...", "rows*cols: ..." (the first of the two). */
  size_t k = strcspn(why, ":*");
  for (size_t f = 0; f < RF_FIELD_COUNT; f++)
    if (strlen(rf_fields[f].key) == k && strncmp(why, rf_fields[f].key, k) == 0 &&
        key_lines[f]) {
      snprintf(buf, len, "%s: line %u", path, key_lines[f]);
      return;
    }
  snprintf(buf, len, "%s", path);
}

/* The file's text, checked as a text case (binary, too many expects); NULL with err. */
static char *read_text(const char *path, size_t *len, size_t *skip, char *err, size_t errlen) {
  char *text = rf_cli_read_file(path, len, err, errlen);
  if (!text) return NULL;
  if (!rf_cli_is_text((const unsigned char *)text, *len, skip)) {
    snprintf(err, errlen, "%s is a binary fuzz input (a NUL or control byte; a libFuzzer "
             "artifact), not a text case: 'redfuzz decode %s > case.txt' writes the case it "
             "decodes to, then use case.txt", path, path);
    free(text);
    return NULL;
  }
  size_t k = count_expects(text + *skip);
  if (k > RF_CLI_MAX_EXPECTS) {
    snprintf(err, errlen, "%s: %zu expect lines (allowed: at most %d, one per variant)", path, k,
             RF_CLI_MAX_EXPECTS);
    free(text);
    return NULL;
  }
  return text;
}

/* What the case needs besides its values (model/case_fields.def): every plugin it names
 * loaded, and every name of its selection in this build. A case of a plugin's kernel run
 * without the plugin would run the built-ins alone and could pass: refused, naming the
 * plugin and how to load it. 0, or -1 with err. */
static int check_needs(const char *path, const rf_case *c, char *err, size_t errlen) {
  for (const char *p = c->plugins; *p;) {
    const size_t l = strcspn(p, ",");
    char name[RF_CASE_LIST_MAX];
    snprintf(name, sizeof name, "%.*s", (int)l, p);
    if (!rf_plugin_loaded_path(name)) {
      char loaded[RF_CASE_LIST_MAX], unused[256];
      if (rf_plugin_loaded_names(loaded, sizeof loaded, unused, sizeof unused)) loaded[0] = 0;
      snprintf(err, errlen, "%s: line %u: plugins: the case needs the plugin '%s', which is not "
               "loaded (loaded: %s; allowed: load it before the command, `redfuzz --plugin "
               "DIR/lib%s.so <command> ...` or REDFUZZ_PLUGINS=DIR/lib%s.so, the library built "
               "for this backend; a plugin's case never runs on the built-ins alone)", path,
               key_lines[RF_FIELD_plugins], name, loaded[0] ? loaded : "none", name, name);
      return -1;
    }
    p += l + (p[l] == ',');
  }
  char why[512];
  if (c->only[0] && rf_select_check_list(c->only, 1, why, sizeof why)) {
    snprintf(err, errlen, "%s: line %u: only: %s", path, key_lines[RF_FIELD_only], why);
    return -1;
  }
  return 0;
}

static int parse(const char *path, const char *text, rf_case *c, rf_expect *ex, size_t max_ex,
                 size_t *n_ex, char *err, size_t errlen) {
  char why[512];
  size_t dummy;
  int rc = rf_case_parse_text(text, c, ex, max_ex, n_ex ? n_ex : &dummy, why, sizeof why);
  if (!rc) note_key_lines(text);
  if (!rc && check_needs(path, c, err, errlen)) return -1;
  /* A variant this build does not have (a misspelt name, a plugin not loaded): the file and
   * line, not a failure later in the runner without them. */
  if (!rc && c->variant[0] && !rf_variant_find(c->variant)) {
    snprintf(err, errlen, "%s: line %u: variant: '%s' is not a variant of this build (allowed: "
             "a name from 'redfuzz list', with the plugins loaded: --plugin, REDFUZZ_PLUGINS)",
             path, key_lines[RF_FIELD_variant], c->variant);
    return -1;
  }
  if (rc) { snprintf(err, errlen, "%s: %s", path, why); return -1; }
  return 0;
}

int rf_cli_text_case(const char *path, rf_case *c, rf_expect *ex, size_t max_ex, size_t *n_ex,
                     char *err, size_t errlen) {
  size_t len = 0, skip = 0;
  char *text = read_text(path, &len, &skip, err, errlen);
  if (!text) return -1;
  int rc = parse(path, text + skip, c, ex, max_ex, n_ex, err, errlen);
  free(text);
  return rc;
}

/* 1 when some line holds more than blanks and a comment. */
static int has_content(const char *t) {
  for (const char *p = t; *p;) {
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\v' || *p == '\f') p++;
    if (*p && *p != '\n' && *p != '#') return 1;
    p = strchr(p, '\n');
    if (!p) break;
    p++;
  }
  return 0;
}

int rf_cli_replay_case(const char *path, rf_case *c, rf_expect *ex, size_t max_ex, size_t *n_ex,
                       char *err, size_t errlen) {
  char *text = NULL;
  size_t len = 0;
  const int rc = rf_cli_replay_case_text(path, &text, &len, c, ex, max_ex, n_ex, err, errlen);
  free(text);
  return rc;
}

int rf_cli_replay_case_text(const char *path, char **textp, size_t *lenp, rf_case *c,
                            rf_expect *ex, size_t max_ex, size_t *n_ex, char *err,
                            size_t errlen) {
  size_t len = 0, skip = 0;
  *textp = NULL;
  char *text = read_text(path, &len, &skip, err, errlen);
  if (!text) return -1;
  *textp = text;
  *lenp = len;
  int rc = -1;
  const char *t = text + skip;
  /* A writer cut short (a full disk, a copy in progress) leaves a last line without its
   * newline, and "n=1024" cut to "n=10" would still parse: refused before parsing. */
  if (len > skip && text[len - 1] != '\n') {
    snprintf(err, errlen, "%s: the last line has no newline (a file cut short, or still being "
             "written; allowed: a text case whose every line ends with a newline)", path);
  } else if (!has_content(t)) {
    snprintf(err, errlen, "%s: empty (%s; allowed: a text case with key=value lines)", path,
             len ? "only blank lines and comments" : "0 bytes");
  } else if (!parse(path, t, c, ex, max_ex, n_ex, err, errlen)) {
    /* shrink's files state every variant's verdict: one without any lost its expect lines. */
    if (*n_ex == 0 && strstr(t, RF_CLI_REGRESSION_HEADER))
      snprintf(err, errlen, "%s: a regression file ('%s') without expect lines (allowed: the "
               "expect lines shrink wrote; a file cut short?)", path, RF_CLI_REGRESSION_HEADER);
    else
      rc = 0;
  }
  return rc;
}

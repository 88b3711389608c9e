/* What a fuzz input and a finding need to mean the same thing everywhere (cli.h, "findings"):
 * the selection a fuzz input decodes under, the plugins and selection a case records, the
 * decoded case a campaign keeps beside each artifact, and the folder a plugin's finding goes
 * to (docs/FINDINGS.md). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "cli.h"
#include "kernels/plugin_loader.h"
#include "run/fuzz_select.h"

int rf_cli_selection(const char *cmd, const char *flag, const char *recorded,
                     const char *recorded_from, char *out, size_t outlen) {
  const char *env = rf_cli_settings.only_set ? rf_cli_settings.only_text : NULL;
  /* Two sources that disagree would decode one input to two cases: the user says which. */
  const struct { const char *what, *value; } src[] = {
      {"--only", flag}, {"REDFUZZ_ONLY", env}, {recorded_from, recorded && *recorded ? recorded : NULL}};
  const char *chosen = NULL, *chosen_from = NULL;
  for (size_t i = 0; i < sizeof src / sizeof *src; i++) {
    if (!src[i].value) continue;
    if (chosen && strcmp(chosen, src[i].value) != 0) {
      fprintf(stderr, "redfuzz %s: the selection is given twice and differs: %s is '%.200s', %s "
              "is '%.200s' (allowed: one of them, or both the same; an input decodes to another "
              "case under another selection)\n", cmd, chosen_from, chosen, src[i].what,
              src[i].value);
      return -1;
    }
    if (!chosen) { chosen = src[i].value; chosen_from = src[i].what; }
  }
  if (!chosen) chosen = "";
  char why[512];
  if (rf_select_check_list(chosen, 1, why, sizeof why)) {
    fprintf(stderr, "redfuzz %s: %s: %s\n", cmd, chosen_from, why);
    return -1;
  }
  if (*chosen && rf_only_single_op(chosen) == -2) {
    fprintf(stderr, "redfuzz %s: %s: '%.200s' selects no variant (allowed: variant or op names "
            "from 'redfuzz list', comma-separated; '' = every correct variant)\n", cmd,
            chosen_from, chosen);
    return -1;
  }
  if (strlen(chosen) >= outlen || strlen(chosen) >= RF_CASE_LIST_MAX) {
    fprintf(stderr, "redfuzz %s: %s: '%.60s...' is %zu characters long (allowed: at most %d, what "
            "a case file records)\n", cmd, chosen_from, chosen, strlen(chosen),
            RF_CASE_LIST_MAX - 1);
    return -1;
  }
  snprintf(out, outlen, "%s", chosen);
  return 0;
}

int rf_cli_record_needs(const char *cmd, rf_case *c, const char *only) {
  char err[512];
  if (rf_plugin_loaded_names(c->plugins, sizeof c->plugins, err, sizeof err)) {
    fprintf(stderr, "redfuzz %s: %s\n", cmd, err);
    return -1;
  }
  snprintf(c->only, sizeof c->only, "%s", only);
  return 0;
}

/* PATH.case: the name a campaign gives the decoded case beside an artifact. */
static int sibling_path(const char *path, char *buf, size_t len) {
  return snprintf(buf, len, "%s.case", path) < (int)len ? 0 : -1;
}

/* The decoded case a campaign wrote beside the artifact: 1 read into *c, 0 none there, -1
 * after a message (there but unreadable: it is the campaign's record, never ignored). An empty
 * file is none: `redfuzz decode X > X.case` makes X.case before decode reads it. */
static int read_sibling(const char *cmd, const char *path, rf_case *c, char *where, size_t len) {
  struct stat st;
  if (sibling_path(path, where, len) || lstat(where, &st) != 0) return 0;
  if (S_ISREG(st.st_mode) && st.st_size == 0) return 0;
  char err[1024];
  size_t n = 0;
  char *text = S_ISREG(st.st_mode) ? rf_cli_read_file(where, &n, err, sizeof err) : NULL;
  if (!S_ISREG(st.st_mode)) snprintf(err, sizeof err, "not a regular file");
  if (!text || rf_case_parse_text_len(text, n, c, NULL, 0, NULL, err, sizeof err)) {
    fprintf(stderr, "redfuzz %s: %s: the case its campaign decoded this input to cannot be read: "
            "%s\n", cmd, where, err);
    free(text);
    return -1;
  }
  free(text);
  return 1;
}

int rf_cli_sibling_only(const char *cmd, const char *path, char *only, size_t len) {
  rf_case c;
  char where[4200];
  only[0] = '\0';
  const int got = read_sibling(cmd, path, &c, where, sizeof where);
  if (got > 0) snprintf(only, len, "%s", c.only);
  return got < 0 ? -1 : 0;
}

int rf_cli_check_sibling(const char *cmd, const char *path, const rf_case *decoded) {
  rf_case ran;
  char where[4200];
  const int got = read_sibling(cmd, path, &ran, where, sizeof where);
  if (got <= 0) return got;
  for (size_t i = 0; i < RF_FIELD_COUNT; i++) {
    const rf_field *f = &rf_fields[i];
    if (i == RF_FIELD_plugins) continue;   /* a need, not a value: checked where it runs */
    char here[RF_FIELD_TEXT_MAX], there[RF_FIELD_TEXT_MAX];
    rf_field_format(decoded, f, here, sizeof here);
    rf_field_format(&ran, f, there, sizeof there);
    if (strcmp(here, there) == 0) continue;
    fprintf(stderr, "redfuzz %s: %s decodes here to %s=%s, but its campaign ran %s=%s (%s): "
            "decode it under the campaign's settings (its selection only=%s%s; REDFUZZ_MAX_ELEMS, "
            "REDFUZZ_MAX_THREADS, REDFUZZ_SIZE_CLASSES as they were), or use %s, the case it "
            "ran\n", cmd, path, f->key, here, f->key, there, where, ran.only[0] ? ran.only : "''",
            ran.plugins[0] ? ", with its plugins loaded" : "", where);
    return -1;
  }
  return 0;
}

/* mkdir -p: every missing folder of path. 0, or -1 with err. */
int rf_cli_mkdirs(const char *path, char *err, size_t errlen) {
  char buf[4096];
  if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf) {
    snprintf(err, errlen, "%.80s...: longer than %zu bytes", path, sizeof buf - 1);
    return -1;
  }
  for (char *p = buf + 1;; p++) {
    if (*p != '/' && *p != '\0') continue;
    const char was = *p;
    *p = '\0';
    if (mkdir(buf, 0777) != 0 && errno != EEXIST) {
      snprintf(err, errlen, "%s: cannot create: %s", buf, strerror(errno));
      return -1;
    }
    struct stat st;
    if (stat(buf, &st) != 0 || !S_ISDIR(st.st_mode)) {
      snprintf(err, errlen, "%s: is not a folder", buf);
      return -1;
    }
    if (!was) return 0;
    *p = was;
  }
}

void rf_cli_findings_dir(const rf_variant *v, char *buf, size_t len) {
  const char *lib = v ? rf_plugin_of(v) : NULL;
  if (!lib) { snprintf(buf, len, "regressions"); return; }
  char name[256];
  rf_plugin_name_of_path(lib, name, sizeof name);
  snprintf(buf, len, "findings/%s", name);
}

void rf_cli_plugin_args(char *buf, size_t len) {
  char names[RF_CASE_LIST_MAX], err[256];
  size_t used = 0;
  if (len) buf[0] = '\0';
  if (rf_plugin_loaded_names(names, sizeof names, err, sizeof err)) return;
  for (const char *p = names; *p && used < len;) {
    const size_t l = strcspn(p, ",");
    char name[RF_CASE_LIST_MAX];
    snprintf(name, sizeof name, "%.*s", (int)l, p);
    const char *path = rf_plugin_loaded_path(name);
    int w = snprintf(buf + used, len - used, " --plugin %s", path ? path : name);
    if (w < 0) break;
    used += (size_t)w;
    p += l + (p[l] == ',');
  }
}

/* Environment settings (settings.h, settings.def). */
#include "settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "model/number.h"

void rf_settings_default(rf_settings *s) {
  memset(s, 0, sizeof *s);
#define RF_SETTING(var, member, type, lo, hi, dflt, help) s->member = (uint64_t)(dflt);
#include "settings.def"
#undef RF_SETTING
}

/* The name settings: their names (the value is the index) and what a value is, for the
 * message. */
static const struct {
  rf_setting_type type;
  const char *noun;
  const char *names[4];
} name_sets[] = {
  {RF_SET_ORACLE, "an oracle mode", {"double", "mpfr", "upgrade"}},
  {RF_SET_TARGET, "a simulated target", {"gfx1201", "nvidia"}},
  {RF_SET_FOLD, "a coverage fold", {"0", "reference", "baseline", "full"}},
  {RF_SET_CMP, "a compare mode", {"host", "all"}},
  /* run/input_check.h's RF_INPUT_CHECK_* */
  {RF_SET_INPUT_CHECK, "an input check", {"auto", "protect", "host", "device"}},
};

/* The name set of type, or -1. */
static int name_set_of(rf_setting_type type) {
  for (size_t k = 0; k < sizeof name_sets / sizeof name_sets[0]; k++)
    if (name_sets[k].type == type) return (int)k;
  return -1;
}

/* RF_SET_DEVICES: numbers lo..hi separated by spaces, at least one. 0, or -1 with why. */
static int read_devices(const char *v, uint64_t lo, uint64_t hi, char *why, size_t whylen) {
  char item[64];
  int count = 0;
  for (const char *p = v; *p;) {
    if (*p == ' ') { p++; continue; }
    size_t len = strcspn(p, " ");
    if (len >= sizeof item) len = sizeof item - 1;
    memcpy(item, p, len);
    item[len] = '\0';
    uint64_t num;
    char inner[192];
    if (rf_num_parse(item, lo, hi, &num, inner, sizeof inner)) {
      char *allowed = strstr(inner, " (allowed");   /* said once, by the caller */
      if (allowed) *allowed = '\0';
      snprintf(why, whylen, "'%.60s' is not a list of GPU numbers: %s", v, inner);
      return -1;
    }
    count++;
    p += strcspn(p, " ");
  }
  if (!count) {
    snprintf(why, whylen, "'%.60s' names no GPU", v);
    return -1;
  }
  return 0;
}

static int read_one(const char *var, rf_setting_type type, uint64_t lo, uint64_t hi,
                    const char *v, uint64_t *num, char *text, size_t textlen, char *err,
                    size_t errlen) {
  char why[256];
  /* Every value is kept as text too (the text settings are used as such). */
  if (strlen(v) >= textlen) {
    snprintf(err, errlen, "%s: value is %zu characters long (allowed: at most %zu)", var,
             strlen(v), textlen - 1);
    return -1;
  }
  snprintf(text, textlen, "%s", v);
  switch (type) {
  case RF_SET_TEXT:
    return 0;
  case RF_SET_ORACLE:
  case RF_SET_TARGET:
  case RF_SET_FOLD:
  case RF_SET_CMP:
  case RF_SET_INPUT_CHECK: {
    const int k = name_set_of(type);
    char allowed[128] = "";
    size_t o = 0;
    for (uint64_t i = 0; i < 4 && name_sets[k].names[i]; i++) {
      if (strcmp(v, name_sets[k].names[i]) == 0) { *num = i; return 0; }
      o += (size_t)snprintf(allowed + o, sizeof allowed - o, "%s%s", i ? ", " : "",
                            name_sets[k].names[i]);
    }
    snprintf(err, errlen, "%s: '%.60s' is not %s (allowed: %s)", var, v, name_sets[k].noun,
             allowed);
    return -1;
  }
  case RF_SET_DEVICES:
    if (read_devices(v, lo, hi, why, sizeof why)) {
      snprintf(err, errlen, "%s: %s (allowed: numbers %llu..%llu separated by spaces, e.g. "
               "\"0 1\")", var, why, (unsigned long long)lo, (unsigned long long)hi);
      return -1;
    }
    break;
  case RF_SET_FILE: {
    struct stat st;
    if (stat(v, &st) != 0 || !S_ISREG(st.st_mode) || access(v, R_OK) != 0) {
      snprintf(err, errlen, "%s: '%.200s' is not a file that can be read (allowed: a file)",
               var, v);
      return -1;
    }
    break;
  }
  default:
    if (rf_num_parse(v, lo, hi, num, why, sizeof why) == 0) return 0;
    snprintf(err, errlen, "%s: %s", var, why);
    return -1;
  }
  return 0;
}

int rf_settings_read(rf_settings *s, const char *(*lookup)(const char *name), char *err,
                     size_t errlen) {
  rf_settings_default(s);
#define RF_SETTING(var, member, type, lo, hi, dflt, help)                                   \
  {                                                                                         \
    const char *v = lookup(#var);                                                           \
    /* an empty variable is unset (VAR= in a script means "not given") */                   \
    if (v && *v) {                                                                          \
      if (read_one(#var, type, (uint64_t)(lo), (uint64_t)(hi), v, &s->member,               \
                   s->member##_text, sizeof s->member##_text, err, errlen))                 \
        return -1;                                                                          \
      s->member##_set = 1;                                                                  \
    }                                                                                       \
  }
#include "settings.def"
#undef RF_SETTING
  return 0;
}

static const char *env_lookup(const char *name) { return getenv(name); }

int rf_setting_known(const char *name, size_t len) {
#define RF_SETTING(var, member, type, lo, hi, dflt, help) \
  if (len == sizeof #var - 1 && memcmp(name, #var, len) == 0) return 1;
#include "settings.def"
#undef RF_SETTING
  return 0;
}

extern char **environ;

int rf_settings_from_env(rf_settings *s, char *err, size_t errlen) {
  if (rf_settings_read(s, env_lookup, err, errlen)) return -1;
  /* A REDFUZZ_* name the table does not have is a misspelt setting (REDFUZZ_SERAIL=1 would
   * otherwise change nothing, silently): an error, as an unknown flag is. */
  for (char **e = environ; e && *e; e++) {
    if (strncmp(*e, "REDFUZZ_", 8) != 0) continue;
    const char *eq = strchr(*e, '=');
    size_t len = eq ? (size_t)(eq - *e) : strlen(*e);
    if (rf_setting_known(*e, len)) continue;
    snprintf(err, errlen, "%.*s: not a redfuzz setting (allowed: the REDFUZZ_* variables "
             "'redfuzz --help' lists; unset it or fix its name)", (int)(len < 64 ? len : 64), *e);
    return -1;
  }
  return 0;
}

void rf_settings_help(char *buf, size_t len) {
  size_t o = 0;
  buf[0] = '\0';
#define RF_SETTING(var, member, type, lo, hi, dflt, help) \
  if (o < len) o += (size_t)snprintf(buf + o, len - o, "  %-24s %s\n", #var, help);
#include "settings.def"
#undef RF_SETTING
}

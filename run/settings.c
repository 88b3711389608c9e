/* Environment settings (settings.h, settings.def). */
#include "settings.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/number.h"

void rf_settings_default(rf_settings *s) {
  memset(s, 0, sizeof *s);
#define RF_SETTING(var, member, type, lo, hi, dflt, help) s->member = (uint64_t)(dflt);
#include "settings.def"
#undef RF_SETTING
}

static const char *const oracle_names[] = {"double", "mpfr", "upgrade"};
static const char *const target_names[] = {"gfx1201", "nvidia"};
/* run/input_check.h's RF_INPUT_CHECK_* */
static const char *const input_check_names[] = {"auto", "protect", "host", "device"};

/* 0 with *out = the index of v among names[0..count), or -1. */
static int name_index(const char *v, const char *const *names, uint64_t count, uint64_t *out) {
  for (uint64_t i = 0; i < count; i++)
    if (strcmp(v, names[i]) == 0) { *out = i; return 0; }
  return -1;
}

static int read_one(const char *var, rf_setting_type type, uint64_t lo, uint64_t hi,
                    const char *v, uint64_t *num, char *text, size_t textlen, char *err,
                    size_t errlen) {
  char why[256];
  switch (type) {
  case RF_SET_TEXT:
    if (strlen(v) >= textlen) {
      snprintf(err, errlen, "%s: value is %zu characters long (allowed: at most %zu)", var,
               strlen(v), textlen - 1);
      return -1;
    }
    snprintf(text, textlen, "%s", v);
    return 0;
  case RF_SET_ORACLE:
    if (name_index(v, oracle_names, 3, num) == 0) return 0;
    snprintf(err, errlen, "%s: '%.60s' is not an oracle mode (allowed: double, mpfr, upgrade)",
             var, v);
    return -1;
  case RF_SET_TARGET:
    if (name_index(v, target_names, 2, num) == 0) return 0;
    snprintf(err, errlen, "%s: '%.60s' is not a simulated target (allowed: gfx1201, nvidia)",
             var, v);
    return -1;
  case RF_SET_INPUT_CHECK:
    if (name_index(v, input_check_names, 4, num) == 0) return 0;
    snprintf(err, errlen, "%s: '%.60s' is not an input check (allowed: auto, protect, host, "
             "device)", var, v);
    return -1;
  default:
    if (rf_num_parse(v, lo, hi, num, why, sizeof why) == 0) return 0;
    snprintf(err, errlen, "%s: %s", var, why);
    return -1;
  }
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

/* rf_env_check (env.h): one table (env.def), one number parser. */
#include "env.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "model/number.h"

typedef struct { const char *name; uint64_t lo, hi; const char *words; const char *help; } env_spec;

static const env_spec specs[] = {
#define ENV(name, lo, hi, words, help) {name, lo, hi, words, help},
#include "env.def"
#undef ENV
};

static int word_in(const char *w, const char *list) {
  size_t n = strlen(w);
  for (const char *p = list; p;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    if (len == n && memcmp(p, w, n) == 0) return 1;
    p = end ? end + 1 : NULL;
  }
  return 0;
}

int rf_env_check(char *err, size_t errlen) {
  for (size_t i = 0; i < sizeof specs / sizeof *specs; i++) {
    const env_spec *s = &specs[i];
    const char *v = getenv(s->name);
    if (!v || !*v) continue;
    if (s->words) {
      if (!word_in(v, s->words)) {
        snprintf(err, errlen, "%s: '%.60s' is not valid (allowed: %s; or unset)", s->name, v,
                 s->words);
        return -1;
      }
    } else {
      uint64_t x;
      char why[256];
      if (rf_num_parse(v, s->lo, s->hi, &x, why, sizeof why)) {
        snprintf(err, errlen, "%s: %s", s->name, why);
        return -1;
      }
    }
  }
  return 0;
}

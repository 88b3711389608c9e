/* Known failure signatures (run/known.h). */
#include "known.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RF_KNOWN_ANY_DIST (-1)

typedef struct {
  char variant[RF_VARIANT_NAME_MAX];
  rf_verdict verdict;
  int dist;   /* an rf_dist, or RF_KNOWN_ANY_DIST */
  int rule;   /* an rf_rule (RF_RULE_NONE: decided by none), or RF_KNOWN_ANY_RULE */
} rf_signature;

#define RF_KNOWN_ANY_RULE (-1)

struct rf_known {
  rf_signature *sigs;
  size_t count, cap;
};

static int add(rf_known *k, const rf_signature *s) {
  if (k->count == k->cap) {
    size_t cap = k->cap ? 2 * k->cap : 16;
    rf_signature *grown = realloc(k->sigs, cap * sizeof *grown);
    if (!grown) return -1;
    k->sigs = grown;
    k->cap = cap;
  }
  k->sigs[k->count++] = *s;
  return 0;
}

/* 0 with *s filled from one line's words, else -1 with why in err. */
static int parse_line(char *line, rf_signature *s, char *err, size_t errlen) {
  char *words[4];
  int n = 0;
  for (char *w = strtok(line, " \t\r\n"); w; w = strtok(NULL, " \t\r\n")) {
    if (n == 4) {
      snprintf(err, errlen, "'%.40s' after the signature (allowed: variant verdict [dist]) and "
               "an optional rule=NAME last", w);
      return -1;
    }
    words[n++] = w;
  }
  if (n < 2) {
    snprintf(err, errlen, "'%.40s' is not a signature (allowed: variant verdict [dist]) and an "
             "optional rule=NAME last",
             n ? words[0] : "");
    return -1;
  }
  if (strlen(words[0]) >= RF_VARIANT_NAME_MAX || !strchr(words[0], '/')) {
    snprintf(err, errlen, "variant '%.40s' is not a variant name (allowed: <op>/<name>, at most "
             "%d characters)", words[0], RF_VARIANT_NAME_MAX - 1);
    return -1;
  }
  snprintf(s->variant, sizeof s->variant, "%s", words[0]);
  if (rf_verdict_parse(words[1], &s->verdict) || !rf_verdict_is_failure(s->verdict)) {
    snprintf(err, errlen, "verdict '%.40s' is not a failure verdict (allowed: %s; not pass or "
             "unsupported)", words[1], rf_verdict_list());
    return -1;
  }
  s->dist = RF_KNOWN_ANY_DIST;
  s->rule = RF_KNOWN_ANY_RULE;
  for (int i = 2; i < n; i++) {
    if (strncmp(words[i], "rule=", 5) == 0) {
      rf_rule r;
      if (s->rule != RF_KNOWN_ANY_RULE || rf_rule_parse(words[i] + 5, &r)) {
        snprintf(err, errlen, "'%.40s' is not a contract rule (allowed: one rule=NAME, NAME one "
                 "of %s)", words[i], rf_rule_list());
        return -1;
      }
      s->rule = (int)r;
      continue;
    }
    rf_dist d;
    if (s->dist != RF_KNOWN_ANY_DIST || s->rule != RF_KNOWN_ANY_RULE) {
      snprintf(err, errlen, "'%.40s' after the signature (allowed: variant verdict [dist]) and "
               "an optional rule=NAME last", words[i]);
      return -1;
    }
    if (rf_dist_parse(words[i], &d)) {
      snprintf(err, errlen, "dist '%.40s' is not a distribution (allowed: one name from "
               "docs/CASE_FORMAT.md, or nothing for every dist)", words[i]);
      return -1;
    }
    s->dist = (int)d;
  }
  return 0;
}

rf_known *rf_known_load(const char *path, char *err, size_t errlen) {
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, errlen, "%s: cannot read it", path);
    return NULL;
  }
  rf_known *k = calloc(1, sizeof *k);
  if (!k) {
    fclose(f);
    snprintf(err, errlen, "%s: out of memory", path);
    return NULL;
  }
  char line[512], why[400];
  unsigned lineno = 0;
  while (k && fgets(line, sizeof line, f)) {
    lineno++;
    char *p = line + strspn(line, " \t");
    if (*p == '#' || *p == '\n' || *p == '\r' || *p == '\0') continue;
    rf_signature s;
    if (parse_line(p, &s, why, sizeof why)) {
      snprintf(err, errlen, "%s:%u: %s", path, lineno, why);
      rf_known_free(k);
      k = NULL;
    } else if (add(k, &s)) {
      snprintf(err, errlen, "%s: out of memory", path);
      rf_known_free(k);
      k = NULL;
    }
  }
  if (k && ferror(f)) {
    snprintf(err, errlen, "%s: read error", path);
    rf_known_free(k);
    k = NULL;
  }
  fclose(f);
  return k;
}

int rf_known_has_rule(const rf_known *k, const char *variant, rf_verdict verdict, rf_dist dist,
                      rf_rule rule) {
  for (size_t i = 0; k && i < k->count; i++) {
    const rf_signature *s = &k->sigs[i];
    if (s->verdict == verdict && (s->dist == RF_KNOWN_ANY_DIST || s->dist == (int)dist) &&
        (s->rule == RF_KNOWN_ANY_RULE || s->rule == (int)rule) &&
        strcmp(s->variant, variant) == 0)
      return 1;
  }
  return 0;
}

int rf_known_has(const rf_known *k, const char *variant, rf_verdict verdict, rf_dist dist) {
  return rf_known_has_rule(k, variant, verdict, dist, RF_RULE_NONE);
}

size_t rf_known_count(const rf_known *k) { return k ? k->count : 0; }

void rf_known_free(rf_known *k) {
  if (!k) return;
  free(k->sigs);
  free(k);
}

/* Shared by the known-signature tests (test_known.c, test_known_rules.c): a known file written
 * from text and loaded (run/known.h), and a check that a text is refused with a message. */
#ifndef RF_KNOWN_TESTLIB_H
#define RF_KNOWN_TESTLIB_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rf_test.h"
#include "run/known.h"

static rf_known *known_load_text(const char *text, char *err, size_t len) {
  char path[64];
  snprintf(path, sizeof path, "/tmp/rf_known_XXXXXX");
  int fd = mkstemp(path);
  if (fd < 0) return NULL;
  FILE *f = fdopen(fd, "w");
  fputs(text, f);
  fclose(f);
  rf_known *k = rf_known_load(path, err, len);
  unlink(path);
  return k;
}

static void known_refuses(const char *text, const char *want) {
  char err[512] = "";
  rf_known *k = known_load_text(text, err, sizeof err);
  CHECK(k == NULL);
  CHECK_MSG(strstr(err, want) != NULL, "'%s': got '%s', want '%s'", text, err, want);
  rf_known_free(k);
}
#endif

/* Old fuzz artifacts keep their meaning: the binary corpus as version 1 wrote it
 * (tests/case/corpus-v1/, a copy of corpus/bin before version 2) decodes to the case of its
 * text twin in corpus/text, with version 1's `wide` read as today's `overflow`. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/case.h"
#include "rf_test.h"

static size_t slurp(const char *path, char *buf, size_t cap) {
  FILE *f = fopen(path, "rb");
  if (!f) return (size_t)-1;
  size_t n = fread(buf, 1, cap - 1, f);
  fclose(f);
  buf[n] = 0;
  return n;
}

int main(void) {
  const char *src = getenv("RF_SOURCE_DIR");
  if (!src) src = ".";
  char dir[1024], path[1200], text[8192];
  snprintf(dir, sizeof dir, "%s/tests/case/corpus-v1", src);
  DIR *d = opendir(dir);
  CHECK_MSG(d != NULL, "cannot open %s", dir);
  if (!d) return rf_test_done();
  int files = 0, wide = 0;
  struct dirent *e;
  while ((e = readdir(d))) {
    size_t l = strlen(e->d_name);
    if (l < 5 || strcmp(e->d_name + l - 4, ".bin") != 0) continue;
    snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
    uint8_t bytes[256];
    size_t nb = slurp(path, (char *)bytes, sizeof bytes);
    CHECK_MSG(nb != (size_t)-1 && nb >= 1 && bytes[0] == 1, "%s: not a version-1 file", path);
    rf_case got, want;
    rf_case_decode(bytes, nb, NULL, &got);
    snprintf(path, sizeof path, "%s/corpus/text/%.*s.case", src, (int)(l - 4), e->d_name);
    CHECK_MSG(slurp(path, text, sizeof text) != (size_t)-1, "missing %s", path);
    char err[256];
    size_t ne = 0;
    CHECK_MSG(rf_case_parse_text(text, &want, NULL, 0, &ne, err, sizeof err) == 0, "%s: %s", path,
              err);
    if (want.dist == RF_DIST_WIDE) {
      want.dist = RF_DIST_OVERFLOW;
      wide++;
    }
    want.variant[0] = 0;
    CHECK_MSG(rf_case_equal(&got, &want), "%s decodes to another case", e->d_name);
    files++;
  }
  closedir(d);
  printf("%d version-1 corpus files, %d of them `wide`\n", files, wide);
  CHECK(files >= 200); /* the mapping of `wide` itself: test_case_codec */
  return rf_test_done();
}

#include <errno.h>
#include <stdlib.h>
#include "parse_count.h"

int rf_parse_count(const char *s, uint64_t *out) {
  char *end;
  if (!*s || *s == '-' || *s == '+') return -1;
  errno = 0;
  if (s[0] == '2' && s[1] == '^') {
    if (s[2] < '0' || s[2] > '9') return -1;
    unsigned long k = strtoul(s + 2, &end, 10);
    if (errno || *end || k > 62) return -1;
    *out = UINT64_C(1) << k;
    return 0;
  }
  unsigned long long v = strtoull(s, &end, 0);
  if (errno || *end) return -1;
  *out = v;
  return 0;
}

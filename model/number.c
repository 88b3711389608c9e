/* The one number parser (number.h). Hand-written rather than strtoull: strtoull accepts a
 * sign ("-1" is 2^64-1), leading spaces and octal, each of which once let a bad flag through
 * as a huge or different value. */
#include "number.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* Digits in base 10 or 16 from s[0..len); 0, -1 not a number, -2 overflow. */
static int digits(const char *s, size_t len, unsigned base, uint64_t *out) {
  if (len == 0) return -1;
  uint64_t v = 0;
  int over = 0;
  for (size_t i = 0; i < len; i++) {
    char ch = s[i];
    unsigned d;
    if (ch >= '0' && ch <= '9') d = (unsigned)(ch - '0');
    else if (base == 16 && ch >= 'a' && ch <= 'f') d = 10u + (unsigned)(ch - 'a');
    else if (base == 16 && ch >= 'A' && ch <= 'F') d = 10u + (unsigned)(ch - 'A');
    else return -1;
    if (v > (UINT64_MAX - d) / base) over = 1;
    else v = v * base + d;
  }
  *out = v;
  return over ? -2 : 0;
}

/* One number in s[0..len): 0, -1 not a number, -2 too large for 64 bits. */
static int number(const char *s, size_t len, uint64_t *out) {
  if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) return digits(s + 2, len - 2, 16, out);
  if (len > 2 && s[0] == '2' && s[1] == '^') {
    size_t k_end = 2;
    while (k_end < len && s[k_end] >= '0' && s[k_end] <= '9') k_end++;
    uint64_t k;
    if (digits(s + 2, k_end - 2, 10, &k)) return -1;
    if (k > 64) return -2;
    if (k_end == len) {
      if (k == 64) return -2;
      *out = UINT64_C(1) << k;
      return 0;
    }
    if (s[k_end] != '+' && s[k_end] != '-') return -1;
    uint64_t d;
    int rc = digits(s + k_end + 1, len - k_end - 1, 10, &d);
    if (rc) return rc;
    /* 2^64-D for D >= 1 is in range (2^64-1 is how ranges print UINT64_MAX): computed as
     * (2^64-1) - (D-1), never through 2^64 itself. */
    if (k == 64) {
      if (s[k_end] != '-' || d == 0) return -2;
      *out = UINT64_MAX - (d - 1);
      return 0;
    }
    uint64_t v = UINT64_C(1) << k;
    if (s[k_end] == '+') {
      if (d > UINT64_MAX - v) return -2;
      *out = v + d;
    } else {
      if (d > v) return -1;   /* below zero: no negative counts */
      *out = v - d;
    }
    return 0;
  }
  return digits(s, len, 10, out);
}

/* Large powers of two (and 2^64-1) read better as 2^K; everything else in decimal. */
static void one_end(uint64_t v, char *buf, size_t len) {
  if (v >= (UINT64_C(1) << 20) && (v & (v - 1)) == 0) snprintf(buf, len, "2^%d", __builtin_ctzll(v));
  else if (v == UINT64_MAX) snprintf(buf, len, "2^64-1");
  else snprintf(buf, len, "%" PRIu64, v);
}

void rf_num_range_text(uint64_t lo, uint64_t hi, char *buf, size_t len) {
  char a[32], b[32];
  one_end(lo, a, sizeof a);
  one_end(hi, b, sizeof b);
  if (lo == hi) snprintf(buf, len, "%s", a);
  else snprintf(buf, len, "%s..%s", a, b);
}

/* The value as shown in messages: cut at 40 characters, control bytes as '?'. */
static void shown(const char *s, size_t len, char *buf, size_t buflen) {
  size_t o = 0;
  for (size_t i = 0; i < len && i < 40 && o + 1 < buflen; i++)
    buf[o++] = (unsigned char)s[i] < 0x20 || (unsigned char)s[i] == 0x7f ? '?' : s[i];
  if (len > 40 && o + 4 < buflen) { memcpy(buf + o, "...", 3); o += 3; }
  buf[o] = '\0';
}

static int item(const char *s, size_t len, uint64_t lo, uint64_t hi, uint64_t *out, char *why,
                size_t whylen) {
  char v[48], range[64];
  shown(s, len, v, sizeof v);
  rf_num_range_text(lo, hi, range, sizeof range);
  int rc = number(s, len, out);
  if (rc == -1) {
    snprintf(why, whylen, "'%s' is not a number (allowed: %s; decimal, 0x hex or 2^K[+-D])", v,
             range);
    return -1;
  }
  if (rc == -2 || *out < lo || *out > hi) {
    snprintf(why, whylen, "'%s' is out of range (allowed: %s)", v, range);
    return -1;
  }
  return 0;
}

int rf_num_parse(const char *s, uint64_t lo, uint64_t hi, uint64_t *out, char *why,
                 size_t whylen) {
  char dummy[1];
  if (!why || !whylen) { why = dummy; whylen = sizeof dummy; }
  uint64_t v;
  if (item(s, strlen(s), lo, hi, &v, why, whylen)) return -1;
  *out = v;
  return 0;
}

int rf_num_parse_list(const char *s, uint64_t lo, uint64_t hi, uint64_t *out, size_t max,
                      size_t *count, char *why, size_t whylen) {
  char dummy[1];
  if (!why || !whylen) { why = dummy; whylen = sizeof dummy; }
  size_t n = 0;
  const char *p = s;
  for (;;) {
    const char *end = strchr(p, ',');
    size_t len = end ? (size_t)(end - p) : strlen(p);
    const char *dots = NULL;
    for (size_t i = 0; i + 1 < len; i++)
      if (p[i] == '.' && p[i + 1] == '.') { dots = p + i; break; }
    uint64_t a, b;
    if (dots) {
      if (item(p, (size_t)(dots - p), lo, hi, &a, why, whylen) ||
          item(dots + 2, len - (size_t)(dots - p) - 2, lo, hi, &b, why, whylen))
        return -1;
      if (b < a) {
        char v[48];
        shown(p, len, v, sizeof v);
        snprintf(why, whylen, "range '%s' runs backwards (allowed: a..b with a <= b)", v);
        return -1;
      }
    } else {
      if (item(p, len, lo, hi, &a, why, whylen)) return -1;
      b = a;
    }
    for (uint64_t v = a;; v++) {
      if (n == max) {
        snprintf(why, whylen, "'%.40s%s' has more than %zu values (allowed: at most %zu)", s,
                 strlen(s) > 40 ? "..." : "", max, max);
        return -1;
      }
      out[n++] = v;
      if (v == b) break;
    }
    if (!end) break;
    p = end + 1;
  }
  *count = n;
  return 0;
}

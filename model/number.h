/* The one number parser: every flag, case-file value and environment variable that holds a
 * count goes through it, so "010", "0x10", "2^4" and "2^4+1" mean the same everywhere.
 *
 *   number := decimal | "0x" hex | "2^" K [ ("+" | "-") decimal ]     (K 0..63)
 *   list   := item { "," item }        item := number | number ".." number   (inclusive)
 *
 * Decimal is always base 10 (a leading 0 is not octal). No sign, no spaces, no suffix. */
#ifndef RF_NUMBER_H
#define RF_NUMBER_H
#include <stddef.h>
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

/* 0 with *out set when s is a number inside lo..hi; else -1 and why says what is wrong with
 * the text ("is not a number", "is out of range") and what is allowed, in the form
 * "'VALUE' is out of range (allowed: LO..HI)". The caller puts the field's name in front. */
int rf_num_parse(const char *s, uint64_t lo, uint64_t hi, uint64_t *out, char *why,
                 size_t whylen);
/* A comma list of numbers and inclusive ranges a..b, expanded in order into out[0..*count).
 * -1 with why when an item is bad, out of lo..hi, a range runs backwards, or the list has
 * more than max values (never cut silently). */
int rf_num_parse_list(const char *s, uint64_t lo, uint64_t hi, uint64_t *out, size_t max,
                      size_t *count, char *why, size_t whylen);
/* "LO..HI" in the form rf_num_parse prints, powers of two as 2^K: for help texts. */
void rf_num_range_text(uint64_t lo, uint64_t hi, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif

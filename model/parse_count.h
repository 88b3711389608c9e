/* One parser for the sizes every command takes: "N" (decimal or 0x hex) or "2^K". */
#ifndef RF_PARSE_COUNT_H
#define RF_PARSE_COUNT_H
#include <stdint.h>
/* 0 and *out set, or -1 for anything else (signs, junk, K > 62, overflow). */
int rf_parse_count(const char *s, uint64_t *out);
#endif

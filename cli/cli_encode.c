/* redfuzz encode: text case -> the binary form the fuzzer reads (decode: cli_decode.c). */
#include <stdlib.h>
#include <string.h>
#include "cli.h"

static const char help_encode[] =
  "usage: redfuzz encode CASE.case OUT.bin\n"
  "\n"
  "Writes the canonical binary form of a text case (what the fuzz target decodes), for the\n"
  "seed corpus. The binary form carries no variant filter. Exit status 0, 1 OUT cannot be\n"
  "written, 2 bad usage or an unreadable case.\n";
static int encode_flags(int argc, char **argv, const char **pos, size_t *npos);

int rf_cmd_encode(int argc, char **argv) {
  const char *pos[2];
  size_t npos = 0;
  int p = encode_flags(argc, argv, pos, &npos);
  if (p) return p > 0 ? RF_EXIT_OK : RF_EXIT_USAGE;
  if (npos != 2) {
    fprintf(stderr, "redfuzz encode: %s (allowed: CASE.case OUT.bin; see --help)\n",
            npos ? "OUT.bin: none given" : "CASE.case: none given");
    return RF_EXIT_USAGE;
  }
  char err[1024];
  rf_case c;
  if (rf_cli_text_case(pos[0], &c, NULL, 0, NULL, err, sizeof err)) {
    fprintf(stderr, "redfuzz encode: %s\n", err);
    return RF_EXIT_USAGE;
  }
  uint8_t buf[RF_CASE_ENCODED_MAX];
  size_t len = rf_case_encode(&c, buf);
  FILE *f = fopen(pos[1], "wb");
  int bad = !f || fwrite(buf, 1, len, f) != len;
  if (f && fclose(f)) bad = 1;
  if (bad) {
    fprintf(stderr, "redfuzz encode: OUT.bin: cannot write %s\n", pos[1]);
    return RF_EXIT_FAIL;
  }
  return 0;
}

/* encode has no options (so no flag table): the parser still gives it --help and refuses
 * unknown options. */
static int encode_flags(int argc, char **argv, const char **pos, size_t *npos) {
  return rf_flags_parse("encode", NULL, 0, argc, argv, NULL, pos, 2, npos, help_encode, NULL);
}

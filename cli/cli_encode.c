/* redfuzz encode: text case -> the binary form the fuzzer reads (decode: cli_decode.c). */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "model/file_out.h"

static const char help_encode[] =
  "usage: redfuzz encode CASE.case OUT.bin\n"
  "\n"
  "Writes the canonical binary form of a text case (what the fuzz target decodes), for the\n"
  "seed corpus. The binary form carries no variant filter. OUT is written whole or not at\n"
  "all; a different file already there is not replaced (an identical one is left as it is).\n"
  "Exit status 0, 2 bad usage, an unreadable case, or OUT cannot be written.\n";
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
  /* Written whole or not at all; a different file already at OUT.bin is not replaced. */
  rf_file *out = rf_file_open(pos[1], err, sizeof err);
  if (out) fwrite(buf, 1, len, rf_file_stream(out));
  if (!out || rf_file_commit(out, RF_FILE_REFUSE, NULL, 0, err, sizeof err) < 0) {
    fprintf(stderr, "redfuzz encode: OUT.bin: cannot write %s: %s\n", pos[1], err);
    return RF_EXIT_USAGE;
  }
  return 0;
}

/* encode has no options (so no flag table): the parser still gives it --help and refuses
 * unknown options. */
static int encode_flags(int argc, char **argv, const char **pos, size_t *npos) {
  return rf_flags_parse("encode", NULL, 0, argc, argv, NULL, pos, 2, npos, help_encode, NULL);
}

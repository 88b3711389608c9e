/* redfuzz encode / decode: between the text form and the binary form the fuzzer reads. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "run/fuzz_select.h"

static const char help_encode[] =
  "usage: redfuzz encode CASE.case OUT.bin\n"
  "\n"
  "Writes the canonical binary form of a text case (what the fuzz target decodes), for the\n"
  "seed corpus. The binary form carries no variant filter.\n";
static const char help_decode[] =
  "usage: redfuzz decode FILE [--only LIST]\n"
  "\n"
  "Prints the text form of a binary fuzz input, decoded exactly as the fuzz target does\n"
  "(with this backend's limits and the REDFUZZ_ONLY list given by --only).\n";

int rf_cmd_encode(int argc, char **argv) {
  if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
    fputs(help_encode, stdout);
    return 0;
  }
  if (argc != 3) { fputs(help_encode, stderr); return RF_EXIT_USAGE; }
  char err[512];
  char *text = rf_read_file(argv[1], err, sizeof err);
  if (!text) { fprintf(stderr, "redfuzz encode: %s\n", err); return RF_EXIT_USAGE; }
  rf_case c;
  size_t n_exp = 0;
  int rc = rf_case_parse_text(text, &c, NULL, 0, &n_exp, err, sizeof err);
  free(text);
  if (rc) { fprintf(stderr, "redfuzz encode: %s: %s\n", argv[1], err); return RF_EXIT_USAGE; }
  uint8_t buf[RF_CASE_ENCODED_MAX];
  size_t len = rf_case_encode(&c, buf);
  FILE *f = fopen(argv[2], "wb");
  if (!f || fwrite(buf, 1, len, f) != len) {
    fprintf(stderr, "redfuzz encode: cannot write %s\n", argv[2]);
    if (f) fclose(f);
    return RF_EXIT_FAIL;
  }
  fclose(f);
  return 0;
}

int rf_cmd_decode(int argc, char **argv) {
  const char *file = NULL, *only = "";
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) { fputs(help_decode, stdout); return 0; }
    if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) { only = argv[++i]; continue; }
    if (file || argv[i][0] == '-') { fputs(help_decode, stderr); return RF_EXIT_USAGE; }
    file = argv[i];
  }
  if (!file) { fputs(help_decode, stderr); return RF_EXIT_USAGE; }
  FILE *f = fopen(file, "rb");
  if (!f) { fprintf(stderr, "redfuzz decode: %s: cannot open\n", file); return RF_EXIT_USAGE; }
  static uint8_t buf[1 << 16];
  size_t len = fread(buf, 1, sizeof buf, f);
  fclose(f);
  /* The backend's limits are compile-time policy: decoding opens no device. */
  rf_limits lim = rf_fuzz_limits(&rf_cli_settings);
  rf_case c;
  rf_fuzz_decode_like_target(buf, len, &lim, only, &c);
  rf_case_write_text(&c, stdout);
  return 0;
}

/* redfuzz decode: a binary fuzz input -> its text case, as the fuzz target decodes it. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "run/fuzz_select.h"
#define RF_FLAGS_DEF "flags_decode.def"
#include "flags_table.h"

static const char help_decode[] =
  "usage: redfuzz decode FILE [--only LIST]\n"
  "\n"
  "Prints the text form of a binary fuzz input (a file of at most 1 MiB; any bytes are a\n"
  "fuzz input), decoded exactly as the fuzz target does: with this backend's limits (lowered\n"
  "by REDFUZZ_MAX_ELEMS, REDFUZZ_MAX_THREADS, REDFUZZ_SIZE_CLASSES) and the selection, --only\n"
  "or REDFUZZ_ONLY (the same list if both are given), or else the one recorded in FILE.case.\n"
  "The case names the plugins loaded (plugins=) and the selection (only=), which a case of a\n"
  "plugin's kernel needs to run as it ran. A campaign (scripts/fuzz.sh) writes FILE.case beside\n"
  "each artifact with this command; when FILE.case is there and FILE decodes here to another\n"
  "case, that is an error naming the field (exit 2).\n"
  "\n";

int rf_cmd_decode(int argc, char **argv) {
  const char *pos[1];
  size_t npos = 0;
  rf_flag_val v[RF_FLAG_COUNT];
  int p = rf_flags_parse("decode", rf_flags, RF_FLAG_COUNT, argc, argv, v, pos, 1, &npos,
                         help_decode, NULL);
  if (p) return p > 0 ? RF_EXIT_OK : RF_EXIT_USAGE;
  if (!npos) {
    fprintf(stderr, "redfuzz decode: FILE: none given (allowed: a binary fuzz input; see "
            "--help)\n");
    return RF_EXIT_USAGE;
  }
  /* The selection as the fuzz target took it (REDFUZZ_ONLY), or as its campaign recorded it. */
  char recorded[RF_CASE_LIST_MAX], only[RF_CASE_LIST_MAX];
  if (rf_cli_sibling_only("decode", pos[0], recorded, sizeof recorded) ||
      rf_cli_selection("decode", v[F_ONLY].given ? v[F_ONLY].text : NULL, recorded,
                       "FILE.case's only", only, sizeof only))
    return RF_EXIT_USAGE;
  char err[1024];
  size_t len = 0;
  char *buf = rf_cli_read_file(pos[0], &len, err, sizeof err);
  if (!buf) { rf_cli_line(stderr, "redfuzz decode: FILE: %s\n", err); return RF_EXIT_USAGE; }
  /* The backend's limits are compile-time policy: decoding opens no device. */
  rf_fuzz_budget budget = rf_fuzz_budget_of(&rf_cli_settings);
  rf_case c;
  rf_fuzz_decode_budget((const uint8_t *)buf, len, &budget, only, &c);
  free(buf);
  if (rf_cli_record_needs("decode", &c, only) || rf_cli_check_sibling("decode", pos[0], &c))
    return RF_EXIT_USAGE;
  rf_case_write_text(&c, stdout);
  return 0;
}

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
  "fuzz input), decoded exactly as the fuzz target does (with this backend's limits, lowered\n"
  "by REDFUZZ_MAX_ELEMS, and the REDFUZZ_ONLY list given by --only).\n"
  "\n";

int rf_cmd_decode(int argc, char **argv) {
  const char *pos[1];
  size_t npos = 0;
  rf_flag_val v[RF_FLAG_COUNT];
  int p = rf_flags_parse("decode", rf_flags, RF_FLAG_COUNT, argc, argv, v, pos, 1, &npos,
                         help_decode, NULL);
  if (p) return p > 0 ? RF_EXIT_OK : RF_EXIT_USAGE;
  const char *only = v[F_ONLY].given ? v[F_ONLY].text : "";
  if (!npos) {
    fprintf(stderr, "redfuzz decode: FILE: none given (allowed: a binary fuzz input; see "
            "--help)\n");
    return RF_EXIT_USAGE;
  }
  char why[512];
  if (rf_select_check_list(only, 1, why, sizeof why)) {   /* every name known (fuzz_select.h) */
    fprintf(stderr, "redfuzz decode: --only: %s\n", why);
    return RF_EXIT_USAGE;
  }
  if (*only && rf_only_single_op(only) == -2) {
    fprintf(stderr, "redfuzz decode: --only: '%.60s' selects no variant (allowed: variant or op "
            "names from 'redfuzz list', comma-separated; '' = every correct variant)\n", only);
    return RF_EXIT_USAGE;
  }
  char err[1024];
  size_t len = 0;
  char *buf = rf_cli_read_file(pos[0], &len, err, sizeof err);
  if (!buf) { rf_cli_line(stderr, "redfuzz decode: FILE: %s\n", err); return RF_EXIT_USAGE; }
  /* The backend's limits are compile-time policy: decoding opens no device. */
  rf_fuzz_budget budget = rf_fuzz_budget_of(&rf_cli_settings);
  rf_case c;
  rf_fuzz_decode_budget((const uint8_t *)buf, len, &budget, only, &c);
  free(buf);
  rf_case_write_text(&c, stdout);
  return 0;
}


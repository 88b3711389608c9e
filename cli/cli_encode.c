/* redfuzz encode: text case -> the binary form the fuzzer reads (decode: cli_decode.c). */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "model/file_out.h"
#include "run/fuzz_select.h"
#define RF_FLAGS_DEF "flags_encode.def"
#include "flags_table.h"

static const char help_encode[] =
  "usage: redfuzz encode CASE.case OUT.bin [--fold]\n"
  "\n"
  "Writes the canonical binary form of a text case (what the fuzz target decodes), for the\n"
  "seed corpus. The binary form carries no variant filter, plugins or selection (the fuzz\n"
  "target takes them from REDFUZZ_PLUGINS and REDFUZZ_ONLY). A case the fuzz target would decode\n"
  "as another one under this build's limits (n = 5000 on the simulator, whose fuzz inputs hold\n"
  "at most 4096 elements) is refused, naming the field, unless --fold is given. OUT is\n"
  "written whole or not at all; a different file already there is not replaced (an identical\n"
  "one is left as it is). Exit status 0, 2 bad usage, an unreadable case, one the binary form\n"
  "cannot hold, or OUT cannot be written.\n\n";

/* The binary form means what the fuzz target makes of it: decoded under its limits
 * (rf_fuzz_limits: REDFUZZ_MAX_ELEMS, REDFUZZ_MAX_THREADS, the grid fold), a larger value
 * folds into another case. A case that does not come back as it went in is refused, naming
 * the first field that changes, its value and what comes back, instead of writing a file
 * that stands for another case. 0, or -1 after the message. */
/* A field the binary form does not carry: the variant, and the lists (plugins, the selection)
 * a decoded fuzz input takes from the environment it is decoded in (model/case_fields.def). */
static int not_in_binary(size_t i) {
  return i == RF_FIELD_variant || rf_fields[i].type == RF_FT_LIST;
}

/* The first field (those not in the binary form aside) where a and b differ, or -1. */
static int first_difference(const rf_case *a, const rf_case *b) {
  for (size_t i = 0; i < RF_FIELD_COUNT; i++) {
    if (not_in_binary(i)) continue;
    char x[RF_FIELD_TEXT_MAX], y[RF_FIELD_TEXT_MAX];
    rf_field_format(a, &rf_fields[i], x, sizeof x);
    rf_field_format(b, &rf_fields[i], y, sizeof y);
    if (strcmp(x, y) != 0) return (int)i;
  }
  return -1;
}

/* The fuzz target draws a size class from a hash of the whole input (run/fuzz_select.h);
 * classes 1 and 2 decode a case that holds in class 0 as class 0 does, classes 3 (short rows)
 * and 4 (a derived boundary) do not. Where the plain form draws a class that decodes it
 * otherwise, a few bytes past the binary form (which the decoder reads only in the hash) move
 * it into class 0: one byte moves the hash's class draw (its high 32 bits, FNV-1a) by at most
 * 2^16 and two by about 2^26, which leave a slice of 2^28 values (class 4's, beside class 1's)
 * only near its edge; a third moves it anywhere. Returns the length to write. */
static size_t steer_to_cheap_class(uint8_t *buf, size_t len) {
  const rf_fuzz_budget b = rf_fuzz_budget_of(&rf_cli_settings);
  rf_case cheap, drawn;
  rf_fuzz_decode_like_target(buf, len, &b.lim[0], "", &cheap);
  rf_fuzz_decode_budget(buf, len, &b, "", &drawn);
  if (first_difference(&cheap, &drawn) < 0 || len + 3 > RF_CASE_ENCODED_MAX) return len;
  for (size_t extra = 1; extra <= 3; extra++)
    for (uint32_t t = 0; t < (UINT32_C(1) << (8 * extra)) && t < (UINT32_C(1) << 20); t++) {
      for (size_t i = 0; i < extra; i++) buf[len + i] = (uint8_t)(t >> (8 * (extra - 1 - i)));
      if (rf_fuzz_class_of(buf, len + extra, &b) == 0) return len + extra;
    }
  return len;   /* not reached in practice (class 0 is most draws); the check refuses */
}

static int check_round_trip(const char *path, const rf_case *c, const uint8_t *buf,
                            size_t len) {
  rf_limits lim = rf_fuzz_limits(&rf_cli_settings);
  rf_fuzz_budget budget = rf_fuzz_budget_of(&rf_cli_settings);
  rf_case back;
  rf_fuzz_decode_budget(buf, len, &budget, "", &back);
  for (size_t i = 0; i < RF_FIELD_COUNT; i++) {
    const rf_field *f = &rf_fields[i];
    if (not_in_binary(i)) continue;   /* the binary form carries no variant nor lists (help) */
    char want[RF_FIELD_TEXT_MAX], got[RF_FIELD_TEXT_MAX];
    rf_field_format(c, f, want, sizeof want);
    rf_field_format(&back, f, got, sizeof got);
    if (strcmp(want, got) == 0) continue;
    fprintf(stderr, "redfuzz encode: %s: %s = %s cannot be held by the binary form: the fuzz "
            "target would decode it as %s = %s (the binary form holds, on this backend, at most "
            "%llu elements (REDFUZZ_MAX_ELEMS), %llu GPU threads a launch (REDFUZZ_MAX_THREADS), "
            "grid %u; use the text case with run, sweep or replay)\n", path, f->key, want,
            f->key, got, (unsigned long long)lim.max_elems,
            (unsigned long long)lim.max_threads, (unsigned)RF_FUZZ_MAX_GRID);
    return -1;
  }
  return 0;
}

int rf_cmd_encode(int argc, char **argv) {
  const char *pos[2];
  size_t npos = 0;
  rf_flag_val v[RF_FLAG_COUNT];
  int p = rf_flags_parse("encode", rf_flags, RF_FLAG_COUNT, argc, argv, v, pos, 2, &npos,
                         help_encode, NULL);
  if (p) return p > 0 ? RF_EXIT_OK : RF_EXIT_USAGE;
  const int fold = v[F_FOLD].given != 0;
  rf_flags_free(v, RF_FLAG_COUNT);
  if (npos != 2) {
    fprintf(stderr, "redfuzz encode: %s (allowed: CASE.case OUT.bin; see --help)\n",
            npos ? "OUT.bin: none given" : "CASE.case: none given");
    return RF_EXIT_USAGE;
  }
  char err[1024];
  rf_case c;
  if (rf_cli_text_case(pos[0], &c, NULL, 0, NULL, err, sizeof err)) {
    rf_cli_line(stderr, "redfuzz encode: %s\n", err);
    return RF_EXIT_USAGE;
  }
  uint8_t buf[RF_CASE_ENCODED_MAX];
  size_t len = steer_to_cheap_class(buf, rf_case_encode(&c, buf));
  if (!fold && check_round_trip(pos[0], &c, buf, len)) return RF_EXIT_USAGE;
  /* Written whole or not at all; a different file already at OUT.bin is not replaced. */
  rf_file *out = rf_file_open(pos[1], err, sizeof err);
  if (out) fwrite(buf, 1, len, rf_file_stream(out));
  if (!out || rf_file_commit(out, RF_FILE_REFUSE, NULL, 0, err, sizeof err) < 0) {
    rf_cli_line(stderr, "redfuzz encode: OUT.bin: cannot write %s: %s\n", pos[1], err);
    return RF_EXIT_USAGE;
  }
  return 0;
}

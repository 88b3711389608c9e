/* Environment settings (run/settings.def): every REDFUZZ_* value is validated like a flag at
 * the edge; a bad one names the variable, the value and what is allowed. */
#include <string.h>
#include "rf_test.h"
#include "run/settings.h"
#include "run/fuzz_select.h"
#include "run/backend.h"

static const char *vars[16][2];
static const char *lookup(const char *name) {
  for (int i = 0; i < 16 && vars[i][0]; i++)
    if (strcmp(vars[i][0], name) == 0) return vars[i][1];
  return NULL;
}
static int read_with(const char *var, const char *val, rf_settings *s, char *err, size_t len) {
  memset(vars, 0, sizeof vars);
  vars[0][0] = var;
  vars[0][1] = val;
  return rf_settings_read(s, lookup, err, len);
}

static void rejects(const char *var, const char *val, const char *want) {
  rf_settings s;
  char err[512] = "";
  CHECK(read_with(var, val, &s, err, sizeof err) == -1);
  if (!strstr(err, want)) fprintf(stderr, "  %s=%s: got '%s', want '%s'\n", var, val, err, want);
  CHECK(strstr(err, want) != NULL);
}

int main(void) {
  rf_settings s;
  char err[512];
  /* defaults */
  CHECK(read_with("UNRELATED", "1", &s, err, sizeof err) == 0);
  CHECK(s.serial == 0 && s.graphs == 1 && s.max_elems == 0 && !s.max_elems_set);
  /* every bad class answered with variable, value and allowed range */
  rejects("REDFUZZ_MAX_ELEMS", "abc", "REDFUZZ_MAX_ELEMS: 'abc' is not a number (allowed: 1..2^32");
  rejects("REDFUZZ_MAX_ELEMS", "0", "REDFUZZ_MAX_ELEMS: '0' is out of range (allowed: 1..2^32)");
  rejects("REDFUZZ_MAX_ELEMS", "-5", "REDFUZZ_MAX_ELEMS: '-5' is not a number");
  rejects("REDFUZZ_SERIAL", "yes", "REDFUZZ_SERIAL: 'yes' is not a number (allowed: 0..1");
  rejects("REDFUZZ_SERIAL", "2", "REDFUZZ_SERIAL: '2' is out of range (allowed: 0..1)");
  rejects("REDFUZZ_STREAMS", "9", "REDFUZZ_STREAMS: '9' is out of range (allowed: 1..4)");
  rejects("REDFUZZ_JUDGE_THREADS", "0", "REDFUZZ_JUDGE_THREADS: '0' is out of range (allowed: 1..8)");
  rejects("REDFUZZ_GRAPHS", "off", "REDFUZZ_GRAPHS: 'off' is not a number");
  rejects("REDFUZZ_SOFTMAX_ORACLE", "exact",
          "REDFUZZ_SOFTMAX_ORACLE: 'exact' is not an oracle mode (allowed: double, mpfr, upgrade)");
  /* good values, the one number syntax */
  CHECK(read_with("REDFUZZ_MAX_ELEMS", "2^12", &s, err, sizeof err) == 0);
  CHECK(s.max_elems == 4096 && s.max_elems_set);
  rf_limits l = rf_fuzz_limits(&s);
  CHECK(l.max_n == (rf_backend.limits.max_n < 4096 ? rf_backend.limits.max_n : 4096));
  CHECK(read_with("REDFUZZ_SOFTMAX_ORACLE", "upgrade", &s, err, sizeof err) == 0);
  CHECK(s.softmax_oracle == RF_ORACLE_UPGRADE);
  CHECK(read_with("REDFUZZ_ONLY", "sum/lds,max", &s, err, sizeof err) == 0);
  CHECK(strcmp(s.only_text, "sum/lds,max") == 0);
  /* an empty variable is unset */
  CHECK(read_with("REDFUZZ_MAX_ELEMS", "", &s, err, sizeof err) == 0 && !s.max_elems_set);
  /* the help lists every variable */
  char help[4096];
  rf_settings_help(help, sizeof help);
  CHECK(strstr(help, "REDFUZZ_MAX_ELEMS") && strstr(help, "REDFUZZ_SOFTMAX_ORACLE") &&
        strstr(help, "REDFUZZ_PLUGINS"));
  return rf_test_done();
}

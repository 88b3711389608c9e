/* One case from the case flags (flags_case.def): the file first, then the flags on top. */
#include <stdlib.h>
#include <string.h>
#include "cli.h"
#include "model/dtype.h"
#include "kernels/harness/device.h"
#include "run/backend.h"

int rf_cli_check_variant(const char *cmd, const rf_flag_spec *s, const char *name, int op) {
  const rf_variant *v = rf_variant_find(name);
  if (!v)
    return rf_flag_error(cmd, s, name, "is not a variant of this build (allowed: a name from "
                         "'redfuzz list', \"<op>/<name>\")");
  if (op >= 0 && (int)v->op != op)
    return rf_flag_error(cmd, s, name, "is a %s variant, but the op is %s (allowed: a %s "
                         "variant)", rf_op_name(v->op), rf_op_name((rf_op)op),
                         rf_op_name((rf_op)op));
  return 0;
}

int rf_cli_case_build(const char *cmd, const rf_flag_spec *specs, const rf_flag_val *vals,
                      const rf_limits *lim, rf_case *out) {
  rf_case c;
  rf_case_default(&c);
  char err[1024];
  if (vals[CF_CASE].given) {
    if (rf_cli_text_case(vals[CF_CASE].text, &c, NULL, 0, NULL, err, sizeof err)) {
      rf_cli_line(stderr, "redfuzz %s: --case: %s\n", cmd, err);   /* a path: one line */
      return -1;
    }
  }
  const rf_case file = c;
  const int from_file = vals[CF_CASE].given != 0;
  const rf_variant *named = NULL;
  if (vals[CF_variant].given && vals[CF_variant].text[0]) {
    named = rf_variant_find(vals[CF_variant].text);
    if (!named) return rf_cli_check_variant(cmd, &specs[CF_variant], vals[CF_variant].text, -1);
  }
  if (vals[CF_op].given) c.op = (rf_op)vals[CF_op].num;
  else if (named && !from_file) c.op = named->op;   /* --variant max/wave alone: op max */
  if (named && named->op != c.op)
    return rf_cli_check_variant(cmd, &specs[CF_variant], named->name, (int)c.op);
  if (vals[CF_variant].given)
    snprintf(c.variant, sizeof c.variant, "%s", vals[CF_variant].text);

  /* Sizes: each op has its own; a size flag for the other kind of op is an error, not
   * silently dropped. */
  if (rf_op_has_rows(c.op)) {
    char ops1[128];   /* the 1-D ops, from the op table */
    if (vals[CF_n].given)
      return rf_flag_error(cmd, &specs[CF_n], vals[CF_n].text, "applies to %s only (allowed for "
                           "%s: --shape RxC)", rf_op_list_of(0, " and ", ops1, sizeof ops1),
                           rf_op_name(c.op));
    if (vals[CF_SHAPE].given) {
      c.rows = (uint32_t)vals[CF_SHAPE].list[0];
      c.cols = (uint32_t)vals[CF_SHAPE].list[1];
    } else if (!(from_file && rf_op_has_rows(file.op))) {
      c.rows = 4;
      c.cols = 33;
    }
    c.n = 0;
  } else {
    if (vals[CF_SHAPE].given)
      return rf_flag_error(cmd, &specs[CF_SHAPE], vals[CF_SHAPE].text, "applies to softmax, "
                           "logsumexp and logsoftmax only (allowed for %s: --n N)", rf_op_name(c.op));
    if (vals[CF_n].given) c.n = vals[CF_n].num;
    else if (from_file && rf_op_has_rows(file.op)) {
      rf_case d;
      rf_case_default(&d);
      c.n = d.n;
    }
    c.rows = c.cols = 0;
  }
  /* Every other field, from the case schema: a flag given sets its field (names arrive as
   * their index, numbers as their value, text as itself). A new field in
   * model/case_fields.def gets its flag and its assignment here without an edit. */
#define RF_CLI_SET_RF_FT_OP(m, ct, v) c.m = (ct)(v)->num
#define RF_CLI_SET_RF_FT_DIST(m, ct, v) c.m = (ct)(v)->num
#define RF_CLI_SET_RF_FT_SCHED(m, ct, v) c.m = (ct)(v)->num
#define RF_CLI_SET_RF_FT_U64(m, ct, v) c.m = (ct)(v)->num
#define RF_CLI_SET_RF_FT_U32(m, ct, v) c.m = (ct)(v)->num
#define RF_CLI_SET_RF_FT_WAVE(m, ct, v) c.m = (ct)(v)->num
#define RF_CLI_SET_RF_FT_DTYPE(m, ct, v) c.m = (ct)(v)->num
#define RF_CLI_SET_RF_FT_NAME(m, ct, v) snprintf(c.m, sizeof c.m, "%s", (v)->text)
#define RF_CLI_SET_RF_FT_LIST(m, ct, v) snprintf(c.m, sizeof c.m, "%s", (v)->text)
#define RF_CASE_FIELD(key, member, ctype, type, lo, hi, dflt, input, help) \
  if (CF_##key != CF_op && CF_##key != CF_n && vals[CF_##key].given)    \
    RF_CLI_SET_##type(member, ctype, &vals[CF_##key]);
#include "model/case_fields.def"
#undef RF_CASE_FIELD
  /* --schedule and --wave are the simulator's: a GPU runs the case under its own scheduler
   * and wave size, so a given one would change nothing there (refused, never ignored; a case
   * file's fields are kept: regressions replay on every backend). */
  const int sim_only[] = {CF_schedule, CF_wave};
  for (size_t i = 0; i < 2 && !rf_backend.is_sim; i++)
    if (vals[sim_only[i]].given)
      return rf_flag_error(cmd, &specs[sim_only[i]], vals[sim_only[i]].text, "applies to the "
                           "simulator only (allowed on the %s backend: leave it out)",
                           rf_backend.name);
  /* --variant NAME alone: the case has the variant's input type, as it has its op. */
  if (named && !vals[CF_dtype].given && !from_file) c.dtype = named->in_dtype;
  if (named && named->in_dtype != c.dtype)
    return rf_flag_error(cmd, &specs[CF_variant], named->name, "reads %s inputs, but the "
                         "dtype is %s (allowed: --dtype %s)", rf_dtype_name(named->in_dtype),
                         rf_dtype_name(c.dtype), rf_dtype_name(named->in_dtype));
  if (rf_case_validate(&c, lim, err, sizeof err)) {
    /* A field from the case file (no flag overrode it) is named by file and line. */
    char where[1100] = "";
    if (from_file) {
      const rf_field *f = NULL;
      size_t k = strcspn(err, ":*");
      for (size_t i = 0; i < RF_FIELD_COUNT && !f; i++)
        if (strlen(rf_fields[i].key) == k && strncmp(err, rf_fields[i].key, k) == 0)
          f = &rf_fields[i];
      const rf_flag_spec *flag = NULL;
      for (size_t i = 0; f && i < CF_COUNT && !flag; i++)
        if (specs[i].name && strcmp(specs[i].name + 2, f->key) == 0) flag = &specs[i];
      const int shape = f && (strcmp(f->key, "rows") == 0 || strcmp(f->key, "cols") == 0);
      if (f && !(flag && vals[flag - specs].given) && !(shape && vals[CF_SHAPE].given)) {
        rf_cli_case_where(vals[CF_CASE].text, err, where, sizeof where - 3);
        strcat(where, ": ");
      }
    }
    fprintf(stderr, "redfuzz %s: %s%s (this backend's limits)\n", cmd, where, err);
    return -1;
  }
  *out = c;
  return 0;
}

rf_runner *rf_cli_runner(const char *cmd) {
  char err[512];
  /* A GPU build without a usable GPU is a set-up problem, not a failing kernel: exit 2. */
  if (rf_dev_require(err, sizeof err)) {
    fprintf(stderr, "redfuzz %s: %s\n", cmd, err);
    exit(RF_EXIT_USAGE);
  }
  rf_runner *r = rf_runner_create(&rf_cli_settings, err, sizeof err);
  if (!r) fprintf(stderr, "redfuzz %s: %s\n", cmd, err);
  return r;
}

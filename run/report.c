#include <math.h>
#include <string.h>
#include "report.h"
#include "model/dtype.h"

void rf_report_case_line(FILE *f, const rf_case *c) {
  fprintf(f, "op=%s ", rf_op_name(c->op));
  if (rf_op_has_rows(c->op)) fprintf(f, "rows=%u cols=%u ", c->rows, c->cols);
  else fprintf(f, "n=%llu ", (unsigned long long)c->n);
  /* the element type only when it is not the default, so float32 lines read as before */
  fprintf(f, "dist=%s seed=%llu block=%u grid=%u items=%u schedule=%s wave=%u%s%s",
          rf_dist_name(c->dist), (unsigned long long)c->seed, c->block, c->grid, c->items,
          rf_sched_name(c->sched), c->wave, c->dtype ? " dtype=" : "",
          c->dtype ? rf_dtype_name(c->dtype) : "");
  /* likewise the misalignment only when there is one */
  if (c->misalign) fprintf(f, " misalign=%u", c->misalign);
  fprintf(f, "%s%s\n", c->variant[0] ? " variant=" : "", c->variant);
}

static void num(FILE *f, double v) {
  if (v == 0) fprintf(f, " %-11s", "0");
  else fprintf(f, " %-11.4g", v);
}

void rf_report_table(FILE *f, const rf_case *c, const rf_result *res, size_t n) {
  (void)c;
  fprintf(f, "%-30s %-17s %-11s %-11s %-11s %-9s %s\n", "variant", "verdict", "error", "bound",
          "err/bound", "time_ms", "plan / detail");
  for (size_t i = 0; i < n; i++) {
    const rf_result *r = &res[i];
    char verdict[32];
    snprintf(verdict, sizeof verdict, "%s%s", rf_verdict_name(r->verdict),
             r->suspicious ? " (susp.)" : "");
    fprintf(f, "%-30s %-17s", r->variant->name, verdict);
    if (r->verdict == RF_V_UNSUPPORTED) {
      fprintf(f, " %-11s %-11s %-11s %-9s %s\n", "-", "-", "-", "-", r->detail);
      continue;
    }
    num(f, r->err);
    num(f, r->bound);
    num(f, r->ratio);
    if (isnan(r->ms)) fprintf(f, " %-9s", "-");
    else fprintf(f, " %-9.3f", r->ms);
    fprintf(f, " %s%s%s\n", r->plan, r->detail[0] ? " | " : "", r->detail);
  }
}

void rf_json_string(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\') fprintf(f, "\\%c", ch);
    else if (ch < 0x20) fprintf(f, "\\u%04x", ch);
    else fputc(ch, f);
  }
  fputc('"', f);
}

/* JSON has no inf/nan: every writer spells them as the strings "inf", "-inf", "nan". */
void rf_json_number(FILE *f, const char *key, double v) {
  if (isfinite(v)) fprintf(f, ",\"%s\":%.17g", key, v);
  else fprintf(f, ",\"%s\":\"%s\"", key, isnan(v) ? "nan" : v > 0 ? "inf" : "-inf");
}

void rf_report_json(FILE *f, const rf_case *c, const rf_result *res, size_t n) {
  for (size_t i = 0; i < n; i++) {
    const rf_result *r = &res[i];
    /* the case's fields from its table (model/case_fields.def), then the result's */
    fputc('{', f);
    rf_case_write_json_members(c, f, 0);
    fprintf(f, ",\"variant\":");
    rf_json_string(f, r->variant->name);
    fprintf(f, ",\"verdict\":\"%s\",\"suspicious\":%s", rf_verdict_name(r->verdict),
            r->suspicious ? "true" : "false");
    rf_json_number(f, "error", r->err);
    rf_json_number(f, "bound", r->bound);
    rf_json_number(f, "ratio", r->ratio);
    rf_json_number(f, "ms", r->ms);
    rf_json_number(f, "got", r->got);
    rf_json_number(f, "want", r->want);
    fprintf(f, ",\"plan\":");
    rf_json_string(f, r->plan);
    fprintf(f, ",\"detail\":");
    rf_json_string(f, r->detail);
    fprintf(f, "}\n");
  }
}

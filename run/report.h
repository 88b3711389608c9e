/* Printing results: the verdict table for people, JSON lines for machines. */
#ifndef RF_REPORT_H
#define RF_REPORT_H
#include <stdio.h>
#include "runner.h"
void rf_report_case_line(FILE *f, const rf_case *c);
void rf_report_table(FILE *f, const rf_case *c, const rf_result *res, size_t n);
void rf_report_json(FILE *f, const rf_case *c, const rf_result *res, size_t n);
/* Writes s as a JSON string literal. */
void rf_json_string(FILE *f, const char *s);
#endif

/* Printing results: the verdict table for people, JSON lines for machines. */
#ifndef RF_REPORT_H
#define RF_REPORT_H
#include <stdio.h>
#include "runner.h"
void rf_report_case_line(FILE *f, const rf_case *c);
void rf_report_table(FILE *f, const rf_case *c, const rf_result *res, size_t n);
void rf_report_json(FILE *f, const rf_case *c, const rf_result *res, size_t n);
/* Writes ,"key":v; JSON has no infinities or NaN, so those are the strings "inf", "-inf"
 * and "nan" (every JSON writer of redfuzz uses this). */
void rf_json_number(FILE *f, const char *key, double v);
/* Writes s as a JSON string literal. */
void rf_json_string(FILE *f, const char *s);
#endif

/* One summary a variant of a row op's per-row judge records (softmax_device.h's rf_smd_rec,
 * which the log ops share): what run/dev_verdicts.c reads back instead of every row's record,
 * so that a case's read-back does not grow with its rows (issue 12: row ops of more than 2^16
 * rows were judged on the host because 48 bytes a row and variant came back).
 *
 * The summary is exactly what the host's scan of the records in row order keeps
 * (dev_verdicts.c, rows_from_records, and run/judge.c's first-among-equals rule):
 *   bad_row    the first row whose verdict is not RF_SMD_PASS (RF_RS_NONE: none),
 *              bad_verdict its verdict;
 *   worst_row  the first row of the largest ratio among rows whose ratio is above -1 (the
 *              scan's start; a NaN ratio is never above anything), worst its record
 *              (RF_RS_NONE: no such row).
 * Rows are folded a chunk at a time, in row order: a chunk's summary is combined with the
 * summary so far, a later row winning only by a strictly larger ratio, so folding chunks of
 * any size gives the one-pass summary (tests/kernels/test_row_summary.c checks both against a
 * host scan). */
#ifndef RF_ROW_SUMMARY_H
#define RF_ROW_SUMMARY_H
#include <stdint.h>
#include "softmax_device.h"
#ifdef __cplusplus
extern "C" {
#endif

#define RF_RS_NONE 0xffffffffu

typedef struct {
  rf_smd_rec worst;
  uint32_t worst_row, bad_row, bad_verdict, pad;
} rf_rs_summary;

/* Enqueues the fold of nv variants' records (variant k's rows records from recs + k * rows, of
 * rows row0 .. row0 + rows - 1 of the case) into sums[k], on stream (NULL = default): row0 == 0
 * starts each summary, later chunks combine with it. 0 or the launch error (nothing for rows
 * or nv 0: a first chunk of no row still writes empty summaries). */
int rf_rs_fold_launch(const rf_smd_rec *recs, uint32_t nv, uint32_t rows, uint32_t row0,
                      rf_rs_summary *sums, void *stream);
#ifdef __cplusplus
}
#endif
#endif

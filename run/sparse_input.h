/* Inputs of sparse distributions (sparse_input.c): a zeroed, read-only buffer of their own with
 * only the markers written. Used by the inputs stage (dev_inputs.c). */
#ifndef RF_SPARSE_INPUT_H
#define RF_SPARSE_INPUT_H
#include "runner_internal.h"

/* bc's input into a new buffer *buf (the previous one freed); bc->dev_x set. NULL, or what
 * failed (in msg). */
const char *rf_sparse_input_make(void **buf, char *msg, size_t len, batch_case *bc);
void rf_sparse_input_free(void **buf);
#endif

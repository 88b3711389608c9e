/* The inputs a batch's variants read, placed on the device (docs/RUNNER.md, "A batch, stage by stage"): an
 * input the host made is the arena's input slot; one made on the device (route.input
 * RF_INPUT_DEVICE) goes into a persistent buffer laid out like an arena input, its guards and
 * payload written by device kernels; a sparse one (RF_INPUT_SPARSE) gets a zeroed read-only
 * buffer of its own with its markers written (sparse_input.c). This stage owns those buffers
 * and counts what it made. */
#ifndef RF_DEV_INPUTS_H
#define RF_DEV_INPUTS_H
#include "runner_internal.h"

typedef struct {
  void *gen;                 /* inputs made on the device, with their guards */
  size_t gen_cap;
  void *sparse;              /* the sparse input of the last case */
  char msg[320];             /* what failed, for the caller */
  unsigned long long made, sparse_made;   /* rf_runner_stats.inputs_device, inputs_sparse */
} rf_dev_inputs;

/* Every case's bc->dev_x: its slot in `inputs` (host-made), or made here. NULL, or what
 * failed. */
const char *rf_dev_inputs_place(rf_dev_inputs *di, batch_case *bcs, size_t nc,
                                const rf_arena *inputs);
void rf_dev_inputs_free(rf_dev_inputs *di);

#endif

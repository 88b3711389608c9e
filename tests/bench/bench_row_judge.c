/* GPU time of the row ops' device judge by shape and team (kernels/harness/row_team.h): for softmax
 * and log-softmax, the oracle and the judge of NV variants as a block a row (two launches),
 * as a wave a row (two launches, the judge's grid over rows x variants), and as the case
 * launch (rf_smd_case_launch, rf_lgd_case_launch: the runner's launches for a case of one
 * chunk of rows). Microseconds of
 * device time a case (rf_dev_timer, the mean of REPS), so the runner's choice of team can be
 * made from figures. Figures only, no thresholds.
 *   bench_row_judge [reps]   (default 50) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "kernels/harness/device.h"
#include "kernels/harness/softmax_device.h"
#include "kernels/harness/log_device.h"
#include "oracle/bounds.h"
#include "oracle/logsumexp.h"

#define NV 8
static const uint32_t shapes[][2] = {{1, 33}, {4, 33}, {64, 33}, {1024, 8}, {8, 256},
                                     {256, 256}, {4, 1024}, {64, 1024}, {4096, 1}, {16384, 4},
                                     {262144, 4}};

static void *up(const void *h, size_t n) {
  void *d = NULL;
  if (rf_dev_alloc(&d, n ? n : 1) || rf_dev_upload(d, h, n)) { fprintf(stderr, "device memory\n"); exit(1); }
  return d;
}

int main(int argc, char **argv) {
  const int reps = argc > 1 ? atoi(argv[1]) : 50;
  char msg[256];
  if (reps < 1) { fprintf(stderr, "bench_row_judge: reps must be at least 1\n"); return 2; }
  if (rf_dev_require(msg, sizeof msg)) { fprintf(stderr, "bench_row_judge: %s\n", msg); return 2; }
  printf("%-10s %-11s %10s %10s %10s   (us of device time a case, %d variants)\n", "shape", "op",
         "block x2", "wave x2", "case", NV);
  int e = 0;
  rf_device_info info0;
  const int sim = rf_dev_info(&info0) == 0 && strcmp(info0.backend, "sim") == 0;
  for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
    const uint32_t rows = shapes[s][0], cols = shapes[s][1];
    const size_t n = (size_t)rows * cols;
    if (sim && rows > 64) {   /* the simulator's step budget stops a launch of that many blocks */
      printf("%ux%u: skipped on the simulator\n", rows, cols);
      continue;
    }
    float *x = malloc(n * sizeof *x);
    srand(7);
    for (size_t i = 0; i < n; i++) x[i] = (float)rand() / (float)RAND_MAX * 8.0f - 4.0f;
    void *dx = up(x, n * 4), *dgot = up(x, n * 4);
    double *y = NULL;
    rf_smd_row *info = NULL;
    rf_lgd_row *linfo = NULL;
    rf_smd_rec *rec = NULL;
    e |= rf_dev_alloc((void **)&y, n * 8) | rf_dev_alloc((void **)&info, rows * sizeof *info) |
         rf_dev_alloc((void **)&linfo, rows * sizeof *linfo) |
         rf_dev_alloc((void **)&rec, (size_t)NV * rows * sizeof *rec);
    rf_plan plan;
    memset(&plan, 0, sizeof plan);
    plan.n_levels = 1;
    plan.level[0].kind = RF_LEVEL_CHAIN;
    plan.level[0].adds = cols;
    const rf_smd_io io = {0, 0, 0, 0, 0};
    rf_smd_variant sv[NV];
    rf_lgd_variant lv[NV];
    rf_lsr_params lp;
    memset(&lp, 0, sizeof lp);
    lp.sm.exp_ulps = RF_EXP_HOST_LIBM.exp_ulps;
    lp.sm.ulps_per_arg = RF_EXP_HOST_LIBM.ulps_per_arg;
    lp.sm.depth = cols;
    lp.log_ulps = RF_LOG_HOST_LIBM.log_ulps;
    for (int k = 0; k < NV; k++) {
      sv[k] = (rf_smd_variant){dgot, rf_softmax_bound_params(&plan, &RF_EXP_HOST_LIBM), io};
      lv[k] = (rf_lgd_variant){dgot, 0, 0, lp};
    }
    double t[2][3];
    for (int way = 0; way < 3; way++) {
      const uint32_t team = way == 0 ? RF_ROW_TEAM_BLOCK : RF_ROW_TEAM_WAVE;
      for (int op = 0; op < 2; op++) {
        for (int warm = 0; warm < 2; warm++) {
          rf_dev_timer_start();
          for (int r = 0; r < (warm ? reps : 1); r++) {
            if (op == 0 && way < 2) {
              e |= rf_smd_oracle_launch_team(dx, 0, rows, cols, y, info, team, NULL);
              e |= rf_smd_judge_launch_team(dx, sv, NV, y, info, rows, cols, 0, rec, team, NULL);
            } else if (op == 0) {
              e |= rf_smd_case_launch(dx, 0, sv, NV, y, info, rows, cols, 0, rec, NULL);
            } else if (way < 2) {
              e |= rf_lgd_oracle_launch_team(dx, 0, rows, cols, linfo, team, NULL);
              e |= rf_lgd_judge_launch_team(dx, 0, lv, NV, linfo, rows, cols, 0, 0, rec, team, NULL);
            } else {
              e |= rf_lgd_case_launch(dx, 0, lv, NV, linfo, rows, cols, 0, 0, rec, NULL);
            }
          }
          t[op][way] = rf_dev_timer_stop_ms() * 1e3 / reps;
          if (e || rf_dev_sim_take_status(msg, sizeof msg)) {
            fprintf(stderr, "bench_row_judge: a launch failed (%ux%u, op %d, way %d): %s\n", rows,
                    cols, op, way, e ? rf_dev_error_string(e) : msg);
            return 1;
          }
        }
      }
    }
    char sh[32];
    snprintf(sh, sizeof sh, "%ux%u", rows, cols);
    printf("%-10s %-11s %10.1f %10.1f %10.1f\n", sh, "softmax", t[0][0], t[0][1], t[0][2]);
    printf("%-10s %-11s %10.1f %10.1f %10.1f\n", sh, "logsoftmax", t[1][0], t[1][1], t[1][2]);
    rf_dev_free(dx); rf_dev_free(dgot); rf_dev_free(y); rf_dev_free(info); rf_dev_free(linfo);
    rf_dev_free(rec);
    free(x);
  }
  if (e || rf_dev_last_error()) { fprintf(stderr, "bench_row_judge: a launch failed\n"); return 1; }
  return 0;
}

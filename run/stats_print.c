/* The runner's statistics as text (stats_print.h). */
#include "run/stats_print.h"
#include "run/host_reason.h"

void rf_stats_print(const rf_runner_stats *st, const rf_stats_style *s) {
  FILE *f = s->out;
  const char *p = s->prefix, *u = s->unit, *scope = s->scope;
  const double per = st->cases ? 1.0 / (double)st->cases : 0;
  /* The harness's kernels are counted exactly; a variant's launch call may enqueue several
   * kernels, which only its launch function knows (rf_runner_stats). */
  if (st->cases || s->every_line)
    fprintf(f, "%slaunches per %s: the harness's %.2f kernels (generator, guards, fill, oracles, "
            "verdicts, judges), the variants' %.2f launch calls%s\n", p, u,
            (double)st->harness_launches * per, (double)st->kernel_runs * per, scope);
  const double total = st->ms_generate + st->ms_oracle + st->ms_upload + st->ms_launch +
                       st->ms_sync + st->ms_download + st->ms_judge + st->ms_recheck;
  if (s->times && (s->every_line || (st->cases && total > 0))) {
    const double k = 1e3 * per;   /* ms summed over units -> us per unit */
    fprintf(f, "%stime per %s (us): generate %.1f, oracle %.1f, upload %.1f, launch %.1f, sync "
            "%.1f, download %.1f, judge %.1f, host re-checks %.1f", p, u, k * st->ms_generate,
            k * st->ms_oracle, k * st->ms_upload, k * st->ms_launch, k * st->ms_sync,
            k * st->ms_download, k * st->ms_judge, k * st->ms_recheck);
    if (s->other) fprintf(f, "; other (%s) %.1f", s->other, k * (s->ms_wall - total));
    fputc('\n', f);
    if (st->ms_recheck_thread > 0 || s->every_line)
      fprintf(f, "%sbackground re-check thread (us per %s, off the critical path): %.1f; waits "
              "for it (in host re-checks above) %.1f\n", p, u, k * st->ms_recheck_thread,
              k * st->ms_recheck_wait);
  }
  if (st->oracle_device_cases || s->every_line)
    fprintf(f, "%sexact answers made on the device: %llu %ss, %llu of them also on the host "
            "(the same); inputs made on the device: %llu%s\n", p, st->oracle_device_cases, u,
            st->oracle_rechecks, st->inputs_device, scope);
  if (st->verdict_batches || s->every_line)
    fprintf(f, "%sverdicts made on the device: %llu batches, %llu results from their records, "
            "%llu judged on the host (a failure, or not decidable from a record), %llu also "
            "judged on the host (the same)%s\n", p, st->verdict_batches,
            st->verdict_device_runs, st->verdict_host_runs, st->verdict_rechecks, scope);
  if (st->softmax_device_cases || s->every_line)
    fprintf(f, "%ssoftmax cases judged on the device: %llu (%llu of them made again and judged "
            "on the host: a failure or an undecided row)%s\n", p, st->softmax_device_cases,
            st->softmax_device_to_host, scope);
  if (st->log_device_cases || s->every_line)
    fprintf(f, "%slog-op cases judged on the device: %llu (%llu of them made again and judged "
            "on the host: a failure or an undecided row)%s\n", p, st->log_device_cases,
            st->log_device_to_host, scope);
  /* Why units were not wholly made and judged on the device (run/host_reasons.def). */
  if (s->times) rf_host_reasons_print(f, p, st->host_cases, st->host_ms);
  if (st->softmax_rows_double + st->softmax_rows_mpfr)
    fprintf(f, "%ssoftmax oracle: %llu rows in double, %llu in MPFR (NaN rows: a NaN or +inf, or "
            "only -inf; or REDFUZZ_SOFTMAX_ORACLE=mpfr), %llu upgraded to MPFR (an element within "
            "the double oracle's margin of its bound)%s\n", p, st->softmax_rows_double,
            st->softmax_rows_mpfr, st->softmax_rows_upgraded, scope);
  if (st->lse_rows_double + st->lse_rows_mpfr)
    fprintf(f, "%slog-op oracle: %llu rows in double, %llu in MPFR (NaN, +inf or no finite entry "
            "in the row, or REDFUZZ_SOFTMAX_ORACLE=mpfr), %llu upgraded to MPFR (an output within "
            "the double oracle's margin of its bound)%s\n", p, st->lse_rows_double,
            st->lse_rows_mpfr, st->lse_rows_upgraded, scope);
}

# Plots of a `redfuzz study` run (scripts/study.sh passes the variables):
#   dir       the study's output folder (CSV files in, PNG files out)
#   op        sum or softmax
#   variants  space-separated variant names, in the study's order
#   dists     space-separated distributions to draw error-vs-n panels for
# Writes err_vs_n_<dist>.png (one panel per variant), err_median.png (every variant's median
# per distribution) and ratio_by_variant.png (the spread of err/bound).
set datafile separator ","
set datafile columnheaders
set logscale xy 2
set format x "2^{%L}"
set format y "10^{%T}"
set logscale y 10
set grid

runs = dir."/runs.csv"
summary = dir."/summary.csv"
is_sum = op eq "sum"
ylab = is_sum ? "|ŝ − s| / (u·Σ|x_i|)" : "|ŷ_j − y_j| / (u·max(y_j, 2^{-126}))"
xlab = is_sum ? "n" : "row length (cols)"
pos(v) = v > 0 ? v : NaN   # log axes: an exact result (error 0) has no point
sel(v, d) = strcol("variant") eq v && strcol("dist") eq d

# Fixed ranges: a panel without a single point (every error 0) must not stop the script.
stats summary using (column("n")) nooutput
xlo = STATS_min
xhi = STATS_max > STATS_min ? STATS_max : 2 * STATS_min
nd = words(dists)
array LO[nd]
array HI[nd]
array MLO[nd]   # the medians' own range, for err_median.png
array MHI[nd]
do for [j = 1:nd] {
  d = word(dists, j)
  undefine STATS_*
  stats runs using (strcol("dist") eq d ? pos(column("scaled_err")) : NaN) nooutput
  LO[j] = exists("STATS_min") ? STATS_min / 2 : 1e-3
  undefine STATS_*
  stats summary using (strcol("dist") eq d ? pos(column(is_sum ? "sqrt_h" : "scaled_bound") * (is_sum ? 4 : 1)) : NaN) nooutput
  hi_level = exists("STATS_max") ? STATS_max : 1
  undefine STATS_*
  stats summary using (strcol("dist") eq d ? pos(column("err_scaled_max")) : NaN) nooutput
  HI[j] = 4 * (exists("STATS_max") && STATS_max > hi_level ? STATS_max : hi_level)
  undefine STATS_*
  stats summary using (strcol("dist") eq d ? pos(column("err_scaled_median")) : NaN) nooutput
  MLO[j] = exists("STATS_min") ? STATS_min / 2 : 1e-3
  MHI[j] = exists("STATS_max") ? STATS_max * 2 : 1
}
set xrange [xlo : xhi]   # after the stats: they would filter on it

nv = words(variants)
cols = nv >= 4 ? 3 : 2
rows = int((nv + cols) / cols)   # ceil((nv + 1) / cols): one more slot for the legend
set terminal pngcairo size 1500, 310 * rows + 50 font "DejaVu Sans,10"

# ---- error against n, one panel per variant, one figure per distribution ------------------
do for [j = 1:nd] {
  d = word(dists, j)
  set yrange [LO[j] : HI[j]]
  set output dir."/err_vs_n_".d.".png"
  set multiplot layout rows, cols title sprintf("%s: error against n, dist = %s (u = 2^{-24}; points: runs, line: per-size median)%s", op, d, is_sum ? "" : "\nsoftmax: at the element of largest error/bound") font ",12"
  unset key
  do for [i = 1:nv] {
    v = word(variants, i)
    set title v
    set xlabel xlab
    set ylabel ylab
    if (is_sum) {
      plot runs    using (sel(v, d) ? column("n") : NaN):(pos(column("scaled_err"))) with points pt 7 ps 0.4 lc rgb "#a0a0a0", \
           summary using (sel(v, d) ? column("n") : NaN):(pos(column("err_scaled_median"))) with linespoints lw 2 pt 7 ps 0.6 lc rgb "#1f77b4", \
           summary using (sel(v, d) ? column("n") : NaN):(pos(column("scaled_bound"))) with lines lw 2 lc rgb "#d62728", \
           summary using (sel(v, d) ? column("n") : NaN):(pos(column("sqrt_h"))) with lines lw 2 dt 2 lc rgb "#2ca02c", \
           summary using (sel(v, d) ? column("n") : NaN):(pos(4 * column("sqrt_h"))) with lines lw 1 dt 3 lc rgb "#2ca02c"
    } else {
      plot runs    using (sel(v, d) ? column("n") : NaN):(pos(column("scaled_err"))) with points pt 7 ps 0.4 lc rgb "#a0a0a0", \
           summary using (sel(v, d) ? column("n") : NaN):(pos(column("err_scaled_median"))) with linespoints lw 2 pt 7 ps 0.6 lc rgb "#1f77b4", \
           summary using (sel(v, d) ? column("n") : NaN):(pos(column("scaled_bound"))) with lines lw 2 lc rgb "#d62728"
    }
  }
  # The legend, alone in the next slot.
  set title ""
  unset border
  unset tics
  unset xlabel
  unset ylabel
  unset grid
  set key center center box opaque font ",10" spacing 1.4
  if (is_sum) {
    plot NaN with points pt 7 ps 0.6 lc rgb "#a0a0a0" title "one run (seed)", \
         NaN with linespoints lw 2 pt 7 lc rgb "#1f77b4" title "median over seeds", \
         NaN with lines lw 2 lc rgb "#d62728" title "worst-case bound γ_h·Σ|x_i| (Higham §4.2)", \
         NaN with lines lw 2 dt 2 lc rgb "#2ca02c" title "probabilistic √h·u·Σ|x_i| (Higham \\& Mary 2019)", \
         NaN with lines lw 1 dt 3 lc rgb "#2ca02c" title "4√h·u·Σ|x_i|: the runner's 'suspicious' level"
  } else {
    plot NaN with points pt 7 ps 0.6 lc rgb "#a0a0a0" title "one run (seed)", \
         NaN with linespoints lw 2 pt 7 lc rgb "#1f77b4" title "median over seeds", \
         NaN with lines lw 2 lc rgb "#d62728" title "derived bound at the same element"
  }
  unset multiplot
  set border
  set tics
  set grid
  set xrange [xlo : xhi]
}

# ---- every variant's median, one panel per distribution, the legend in its own panel -------
array C[10] = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", \
               "#7f7f7f", "#bcbd22", "#17becf"]
colour(i) = C[(i - 1) % 10 + 1]
set terminal pngcairo size 1700,500 font "DejaVu Sans,10"
set output dir."/err_median.png"
set multiplot layout 1, nd + 1 title sprintf("%s: median error against n per variant", op) font ",12"
unset key
do for [j = 1:nd] {
  d = word(dists, j)
  set yrange [MLO[j] : MHI[j]]
  set title "dist = ".d
  set xlabel xlab
  set ylabel ylab
  plot for [i = 1:nv] summary using (sel(word(variants, i), d) ? column("n") : NaN):(pos(column("err_scaled_median"))) \
       with linespoints lw 1.5 pt (i % 7 + 1) ps 0.6 lc rgb colour(i)
}
set title ""
unset border
unset tics
unset xlabel
unset ylabel
unset grid
set key center center box opaque font ",9"
set xrange [1:2]
set yrange [1:2]
plot for [i = 1:nv] NaN with linespoints lw 1.5 pt (i % 7 + 1) lc rgb colour(i) title word(variants, i)
unset multiplot
set border
set tics
set grid

# ---- the spread of err/bound per variant ---------------------------------------------------
# Boxes p25..p75, whiskers p10..p90, a cross at the maximum; one box per distribution beside
# each other. Quantiles are of the nonzero ratios (ratio_dist.csv counts the exact results).
set terminal pngcairo size 1500,700 font "DejaVu Sans,10"
set output dir."/ratio_by_variant.png"
unset logscale x
set format x "%g"
set logscale y 10
set xtics rotate by -30 left font ",9"
set xtics ()
do for [i = 1:nv] { set xtics add (word(variants, i) i - 1) }
set xlabel ""
set ylabel "error / derived bound"
set title sprintf("%s: error/bound per variant (boxes p25–p75, whiskers p10–p90, × max; zero errors left out)", op)
set key top right box opaque font ",8"
set boxwidth 0.8 / (nd + 1)
off(di) = (di - (nd - 1) / 2.0) * 0.8 / (nd + 1)
ratios = dir."/ratio_dist.csv"
set autoscale xy
undefine STATS_*
stats ratios using (pos(column("p10"))) nooutput
rlo = exists("STATS_min") ? STATS_min / 2 : 1e-6
undefine STATS_*
stats ratios using (pos(column("max"))) nooutput
set yrange [rlo : exists("STATS_max") ? 2 * STATS_max : 1]
set xrange [-0.6:nv - 0.4]
plot for [j = 1:nd] ratios using (strcol("dist") eq word(dists, j) ? column("vi") + off(j - 1) : NaN):(pos(column("p25"))):(pos(column("p10"))):(pos(column("p90"))):(pos(column("p75"))) \
       with candlesticks whiskerbars lw 1.5 lc j title word(dists, j), \
     for [j = 1:nd] ratios using (strcol("dist") eq word(dists, j) ? column("vi") + off(j - 1) : NaN):(pos(column("p50"))):(pos(column("p50"))):(pos(column("p50"))):(pos(column("p50"))) \
       with candlesticks lw 2 lc j notitle, \
     for [j = 1:nd] ratios using (strcol("dist") eq word(dists, j) ? column("vi") + off(j - 1) : NaN):(pos(column("max"))) \
       with points pt 2 ps 1 lc j notitle

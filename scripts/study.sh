#!/usr/bin/env bash
# Error against summation order (issue 6, docs/STUDY.md): runs `redfuzz study` from a build
# folder, then gnuplot draws the PNGs into the same output folder.
#   scripts/study.sh [--build DIR] [--out DIR] [extra redfuzz study args...]
#   scripts/study.sh --plot-only [--out DIR]   (plots an earlier run, e.g. one from a GPU host)
# Defaults: --build build (the sim preset), --out out/study. Any backend works; the study
# clamps the size range to what the backend accepts and says so. Without gnuplot the study
# still runs and the plots are left for --plot-only on a machine that has it.
# --build and --out given are the caller's folders (the defaults are in the checkout).
# Exit status: the study's (0, 1 a failure verdict: the tables are plotted), 2 bad usage.
set -euo pipefail
RF_CALLER_DIR=${RF_CALLER_DIR:-$PWD}
cd "$(dirname "$0")/.."
RF_PROG="study.sh"
source scripts/lib/opts.sh
rf_errexit_2
RF_OPT_ALLOWED=([--build]="a build folder" [--out]="a folder")

build=build
out=out/study
plot_only=0
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) rf_opt_path build "$@"; shift 2 ;;
    --out) rf_opt_path out "$@"; shift 2 ;;
    --plot-only) plot_only=1; shift ;;
    -h|--help) sed -n '2,11p' "$RF_SELF"; exit 0 ;;
    *) extra+=("$1"); shift ;;
  esac
done

status=0
if [ "$plot_only" -eq 0 ]; then
  rf="$build/fuzz/redfuzz"
  [ -x "$rf" ] || rf="$build/redfuzz"
  if [ ! -x "$rf" ]; then
    echo "study.sh: no redfuzz in $build (build it: cmake --preset sim && cmake --build --preset sim)" >&2
    exit 2
  fi
  rf_mkdir --out "$out"
  "$rf" study --out "$out" ${extra[@]+"${extra[@]}"} | tee "$out/fit.txt" || status=$?
  # Exit 1 is a failure verdict: the tables are complete and worth plotting; 2 is bad usage.
  if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then exit "$status"; fi
fi

if [ ! -f "$out/fit.csv" ]; then
  echo "study.sh: $out/fit.csv is missing: nothing to plot" >&2
  exit 2
fi
if ! command -v gnuplot >/dev/null; then
  echo "study.sh: gnuplot is missing (scripts/bootstrap.sh installs gnuplot-nox); the tables" \
       "are in $out, plot them later with: scripts/study.sh --plot-only --out DIR" >&2
  exit "$status"
fi
# The plotted names, in the study's order, from its own tables.
op=$(awk -F, 'NR == 2 { print $1; exit }' "$out/fit.csv")
variants=$(awk -F, 'NR > 1 && !seen[$2]++ { printf "%s ", $2 }' "$out/fit.csv")
dists=$(awk -F, 'NR > 1 && !seen[$3]++ { printf "%s ", $3 }' "$out/fit.csv")
# gnuplot's single-quoted strings double a quote: a folder named with one stays one string.
q="'" qq="''"
gnuplot -e "dir='${out//$q/$qq}'; op='$op'; variants='$variants'; dists='$dists'" scripts/study_plots.gp
echo "study.sh: plots in $out:" $(cd "$out" && ls *.png)
exit "$status"

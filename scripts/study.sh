#!/usr/bin/env bash
# Error against summation order (issue 6, docs/STUDY.md): runs `redfuzz study` from a build
# folder, then gnuplot draws the PNGs into the same output folder.
#   scripts/study.sh [--build DIR] [--out DIR] [extra redfuzz study args...]
# Defaults: --build build (the sim preset), --out out/study. Any backend works; the study
# clamps the size range to what the backend accepts and says so.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build
out=out/study
extra=()
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build="${2:?--build needs a folder}"; shift 2 ;;
    --out) out="${2:?--out needs a folder}"; shift 2 ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    *) extra+=("$1"); shift ;;
  esac
done

rf="$build/fuzz/redfuzz"
[ -x "$rf" ] || rf="$build/redfuzz"
if [ ! -x "$rf" ]; then
  echo "study.sh: no redfuzz in $build (build it: cmake --preset sim && cmake --build --preset sim)" >&2
  exit 2
fi
if ! command -v gnuplot >/dev/null; then
  echo "study.sh: gnuplot is missing (scripts/bootstrap.sh installs gnuplot-nox)" >&2
  exit 2
fi

status=0
mkdir -p "$out"
"$rf" study --out "$out" ${extra[@]+"${extra[@]}"} | tee "$out/fit.txt" || status=$?
# Exit 1 is a failure verdict: the tables are complete and worth plotting; 2 is bad usage.
if [ "$status" -ne 0 ] && [ "$status" -ne 1 ]; then exit "$status"; fi

# The plotted names, in the study's order, from its own tables.
op=$(awk -F, 'NR == 2 { print $1; exit }' "$out/fit.csv")
variants=$(awk -F, 'NR > 1 && !seen[$2]++ { printf "%s ", $2 }' "$out/fit.csv")
dists=$(awk -F, 'NR > 1 && !seen[$3]++ { printf "%s ", $3 }' "$out/fit.csv")
gnuplot -e "dir='$out'; op='$op'; variants='$variants'; dists='$dists'" scripts/study_plots.gp
echo "study.sh: plots in $out:" $(cd "$out" && ls *.png)
exit "$status"

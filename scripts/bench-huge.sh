#!/usr/bin/env bash
# Every built-in sum, max and argmax variant (or those named) at huge n on the simulator, on
# the sparse `markers` distribution (docs/CASE_FORMAT.md, "Sparse inputs"): one `redfuzz run`
# per variant and size, printing its verdict, wall time and peak memory.
#
#   scripts/bench-huge.sh [--redfuzz PATH] [--n "N ..."] [--grid G] [--block B] [--seed S]
#                         [VARIANT ...]
#
# Defaults: build/fuzz/redfuzz, n = 2^31+5 and 2^32+3, grid 1, block 32: the simulator runs a
# thread's whole grid-stride loop before the next thread's, so with a stride of a page or
# more every load is a TLB miss (370 ns a load measured on the CI VM at grid 64 x 256); at
# 32 threads the stride is 128 bytes and a page serves 32 loads of each thread (grid-stride
# variants loop;
# variants that take one element per thread need n/block blocks, more threads than the
# simulator runs, and say `unsupported`), seed 7, every built-in sum/max/argmax variant.
# Time: wall and CPU (user + system) seconds; on a shared machine the CPU time is the figure.
# Memory: maxrss (getrusage) counts each mapping of the shared zero chunk again, so it grows
# with n even though those pages exist once; `pss_peak_kB` (sampled from
# /proc/PID/smaps_rollup every 0.2 s) is the memory the process really holds.
# REDFUZZ_SIM_THREADS is passed through (default 1: a shared machine); the launch watchdog is
# off (REDFUZZ_LAUNCH_TIMEOUT_MS=0): a launch over 2^31 elements runs for minutes.
set -u
redfuzz=build/fuzz/redfuzz
sizes="2147483653 4294967299"
grid=1
block=32
seed=7
variants=()
while [ $# -gt 0 ]; do
  case "$1" in
    --redfuzz) redfuzz=$2; shift 2 ;;
    --n) sizes=$2; shift 2 ;;
    --grid) grid=$2; shift 2 ;;
    --block) block=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    -h|--help) sed -n '2,22p' "$0"; exit 0 ;;
    -*) echo "bench-huge.sh: unknown option '$1' (allowed: --redfuzz, --n, --grid, --block, --seed)" >&2; exit 2 ;;
    *) variants+=("$1"); shift ;;
  esac
done
[ -x "$redfuzz" ] || { echo "bench-huge.sh: --redfuzz: '$redfuzz' is not an executable" >&2; exit 2; }
if [ ${#variants[@]} -eq 0 ]; then
  mapfile -t variants < <("$redfuzz" list | awk '/^(sum|max|argmax)\// && $1 !~ /\/mut-/ {print $1}')
fi
export REDFUZZ_LAUNCH_TIMEOUT_MS=0 REDFUZZ_SIM_THREADS=${REDFUZZ_SIM_THREADS:-1}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
printf '%-28s %-12s %-14s %9s %9s %11s %11s  %s\n' variant n verdict wall_s cpu_s maxrss_kB pss_peak_kB detail
for n in $sizes; do
  for v in "${variants[@]}"; do
    op=${v%%/*}
    dtype=f32
    case "$v" in *f16*) dtype=f16 ;; *bf16*) dtype=bf16 ;; esac
    start=$(date +%s.%N)
    /usr/bin/time -f '%M %U %S' -o "$tmp/time" "$redfuzz" run --op "$op" --dtype "$dtype" --n "$n" \
      --dist markers --seed "$seed" --grid "$grid" --block "$block" --variant "$v" >"$tmp/out" 2>&1 &
    pid=$!
    peak=0
    while kill -0 "$pid" 2>/dev/null; do
      child=$(pgrep -P "$pid" | head -1)
      if [ -n "$child" ] && [ -r "/proc/$child/smaps_rollup" ]; then
        p=$(awk '/^Pss:/ {print $2}' "/proc/$child/smaps_rollup" 2>/dev/null)
        [ -n "$p" ] && [ "$p" -gt "$peak" ] && peak=$p
      fi
      sleep 0.2
    done
    wait "$pid"
    end=$(date +%s.%N)
    row=$(grep -E "^$v " "$tmp/out" | head -1)
    verdict=$(echo "$row" | awk '{print $2}')
    detail=$(echo "$row" | sed 's/.*| //; t; s/.*//')
    [ -n "$verdict" ] || { verdict=error; detail=$(tail -1 "$tmp/out"); }
    read -r rss ucpu scpu < <(tail -1 "$tmp/time")
    printf '%-28s %-12s %-14s %9.1f %9.1f %11s %11s  %s\n' "$v" "$n" "$verdict" \
      "$(echo "$end - $start" | bc)" "$(echo "$ucpu + $scpu" | bc)" "$rss" "$peak" "$detail"
  done
done

#!/usr/bin/env bash
# Every built-in sum, max, min, argmax, argmin and logsumexp variant (or those named) at huge
# sizes on the simulator, on the sparse `markers` distribution (docs/CASE_FORMAT.md, "Sparse
# inputs"): one `redfuzz run` per variant and size, printing its verdict, wall time and peak
# memory, then one summary line per size. A size is an n (the 1-D variants) or a shape RxC
# (logsumexp's: R rows of C, each the same row of markers).
#
#   scripts/bench-huge.sh [--redfuzz PATH] [-j N] [--n "N|RxC ..."] [--grid G] [--block B]
#                         [--seed S] [VARIANT ...]
#
# Defaults: build/fuzz/redfuzz (or a pack's launcher, scripts/simpack.sh DIR: DIR/redfuzz),
# n = 2^31+5 and 2^32+3 and the shapes 2049x2^20 and 4097x2^20 (the row that starts past 2^31
# and past 2^32 elements), -j 1 (runs at once: each takes one core and the markers' pages),
# seed 1 (its markers put the maximum at n-1 or n-2: at 2^32+3 an argmax index past 2^32, where
# seed 7 puts it at 2^24, which a 32-bit index holds), every built-in sum/max/min/argmax/argmin
# and logsumexp variant. Grid and block per variant, unless given:
#   grid-stride variants: grid 1 x block 32. The simulator runs a thread's whole grid-stride
#     loop before the next thread's; with a stride of a page or more every load is a TLB
#     miss (370 ns a load measured at grid 64 x 256); at 32 threads the stride is 128 bytes
#     and a page serves 32 loads of each thread.
#   one-element-per-thread variants (`redfuzz list`: "grid = ceil(n/block)"): their default
#     block; they need n threads, past the simulator's cap of a launch (REDFUZZ_SIM_MAX_THREADS,
#     default 2^22): `unsupported` unless the cap is raised (REDFUZZ_SIM_MAX_THREADS=2^33
#     runs them: minutes per variant, docs/SIMULATOR.md "Huge sparse inputs").
#   logsumexp variants: their default launch (grid and block from the shape).
# Time: wall and CPU (user + system) seconds; on a shared machine the CPU time is the figure.
# Memory: maxrss (getrusage) counts each mapping of the shared zero chunk again, so it grows
# with n even though those pages exist once; `pss_peak_kB` (sampled from
# /proc/PID/smaps_rollup every 0.2 s) is the memory the process really holds.
# Summary per size: passed, failed (any other verdict, errors included), unsupported, the
# CPU seconds of all its runs and the largest pss_peak_kB.
# REDFUZZ_SIM_THREADS and REDFUZZ_SIM_MAX_THREADS are passed through (default 1 and 2^22);
# the launch watchdog is off (REDFUZZ_LAUNCH_TIMEOUT_MS=0): a launch over 2^31 elements runs
# for minutes. Exit 0 when every run passed or was unsupported, 1 otherwise, 2 bad usage.
set -u
redfuzz=build/fuzz/redfuzz
sizes="2147483653 4294967299 2049x1048576 4097x1048576"
grid=
block=
seed=1
jobs=1
variants=()
usage_err() { echo "bench-huge.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --redfuzz|--n|--grid|--block|--seed|-j)
      [ $# -ge 2 ] || usage_err "$1 needs a value" ;;&
    --redfuzz) redfuzz=$2; shift 2 ;;
    --n) sizes=$2; shift 2 ;;
    --grid) grid=$2; shift 2 ;;
    --block) block=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    -j) jobs=$2; shift 2 ;;
    -h|--help) sed -n '2,37p' "$0"; exit 0 ;;
    -*) usage_err "unknown option '$1' (allowed: --redfuzz, -j, --n, --grid, --block, --seed)" ;;
    *) variants+=("$1"); shift ;;
  esac
done
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || usage_err "-j: '$jobs' is not a count (allowed: 1, 2, ...)"
[ -x "$redfuzz" ] || usage_err "--redfuzz: '$redfuzz' is not an executable"
json=$("$redfuzz" list --json) || usage_err "--redfuzz: '$redfuzz list --json' failed"
if [ ${#variants[@]} -eq 0 ]; then
  mapfile -t variants < <(sed -n 's/^{"variant":"\(\(sum\|max\|min\|argmax\|argmin\|logsumexp\)\/[^"]*\)".*"mutant":false.*/\1/p' <<<"$json")
fi
# One-element-per-thread variants: their grid is ceil(n/block) (the list's constraints).
per_thread=" $(grep -F 'grid = ceil(n/block)' <<<"$json" | sed 's/^{"variant":"\([^"]*\)".*/\1/' | tr '\n' ' ') "
export REDFUZZ_LAUNCH_TIMEOUT_MS=0 REDFUZZ_SIM_THREADS=${REDFUZZ_SIM_THREADS:-1}
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# One run: writes "variant n verdict wall cpu rss pss detail" (tab-separated) to $tmp/res.K.
one() {
  local k=$1 v=$2 n=$3 op=${2%%/*} dtype=f32 g=$grid b=$block size=--n
  # the variant's input type, from the list (a name's "f16" is also in "bf16")
  dtype=$(grep -F "{\"variant\":\"$v\"," <<<"$json" | sed -n 's/.*"in_dtype":"\([a-z0-9]*\)".*/\1/p')
  dtype=${dtype:-f32}
  case "$n" in *x*) size=--shape ;; esac
  if [ -z "$g$b" ]; then
    case "$size $per_thread" in --shape*|*" $v "*) g=0 b=0 ;; *) g=1 b=32 ;; esac
  fi
  local start end pid peak=0 child p
  start=$(date +%s.%N)
  /usr/bin/time -f '%M %U %S' -o "$tmp/time.$k" "$redfuzz" run --op "$op" --dtype "$dtype" \
    "$size" "$n" --dist markers --seed "$seed" --grid "${g:-0}" --block "${b:-0}" --variant "$v" \
    >"$tmp/out.$k" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    # the process itself (a pack's launcher execs the loader in place) or its child
    for child in $(pgrep -P "$pid") "$pid"; do
      [ -r "/proc/$child/smaps_rollup" ] || continue
      p=$(awk '/^Pss:/ {print $2}' "/proc/$child/smaps_rollup" 2>/dev/null)
      [ -n "$p" ] && [ "$p" -gt "$peak" ] && peak=$p
    done
    sleep 0.2
  done
  wait "$pid"
  end=$(date +%s.%N)
  local row verdict detail rss ucpu scpu
  row=$(grep -E "^$v " "$tmp/out.$k" | head -1)
  verdict=$(awk '{print $2}' <<<"$row")
  detail=$(awk '{$1 = $2 = $3 = $4 = $5 = $6 = ""; sub(/^ +/, ""); print}' <<<"$row")  # plan / detail
  [ -n "$verdict" ] || { verdict=error; detail=$(tail -1 "$tmp/out.$k"); }
  read -r rss ucpu scpu < <(tail -1 "$tmp/time.$k")
  # awk for the sums: a GPU host may lack bc
  printf '%s\t%s\t%s\t%.1f\t%.1f\t%s\t%s\t%s\n' "$v" "$n" "$verdict" \
    "$(awk -v a="$end" -v b="$start" 'BEGIN { print a - b }')" \
    "$(awk -v a="${ucpu:-0}" -v b="${scpu:-0}" 'BEGIN { print a + b }')" "${rss:-0}" "$peak" \
    "$detail" > "$tmp/res.$k"
}

row_fmt='%-28s %-12s %-14s %9s %9s %11s %11s  %s\n'
printf "$row_fmt" variant n verdict wall_s cpu_s maxrss_kB pss_peak_kB detail
k=0
for n in $sizes; do
  first=$k
  for v in "${variants[@]}"; do
    # a shape for the row variants, an n for the others
    is_shape=0 is_row=0
    [[ "$n" == *x* ]] && is_shape=1
    [[ "$v" == logsumexp/* ]] && is_row=1
    [ "$is_shape" = "$is_row" ] || continue
    while [ "$(jobs -pr | wc -l)" -ge "$jobs" ]; do wait -n; done
    one "$k" "$v" "$n" &
    k=$((k + 1))
  done
  wait
  # the size's rows in variant order, then its summary
  for ((i = first; i < k; i++)); do
    IFS=$'\t' read -r v nn verdict wall cpu rss pss detail < "$tmp/res.$i"
    printf "$row_fmt" "$v" "$nn" "$verdict" "$wall" "$cpu" "$rss" "$pss" "$detail"
  done
  cat "$tmp"/res.* 2>/dev/null | awk -F'\t' -v n="$n" -v lo="$first" -v hi="$k" '
    BEGIN { p = f = u = cpu = pss = 0 }
    $2 == n { if ($3 == "pass") p++; else if ($3 == "unsupported") u++; else f++
              cpu += $5; if ($7 > pss) pss = $7 }
    END { printf "summary n=%s: %d passed, %d failed, %d unsupported, %.1f CPU s, max pss %d kB\n",
                 n, p, f, u, cpu, pss }'
done
! cut -f3 "$tmp"/res.* | grep -qvE '^(pass|unsupported)$'

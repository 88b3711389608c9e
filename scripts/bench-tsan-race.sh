#!/usr/bin/env bash
# What a race costs the ThreadSanitizer build: the same sweep of a racy kernel in the plain
# simulator build and in the TSan one, with the wall and CPU seconds of each and their ratio.
# The TSan build ends a launch at its first race (docs/SIMULATOR.md, "Races end the launch"),
# so a racy kernel's sweep there costs about what the plain build's does (the target: within
# 2x), where every racing access used to raise a report the runtime symbolised.
#   scripts/bench-tsan-race.sh [--plain DIR] [--tsan DIR] [--plugin FILE] [--variant V]
#                              [-- SWEEP-ARGS ...]
# Defaults: the build trees build and build-tsan of the checkout (presets sim and sim-tsan,
# built with their tests); in each, the plugin tests/plugin/plain_hip/ext_softmax.hip as
# built there (tests/plugin/plain_hip/librf_plain_ext_softmax.so) and its variant
# softmax/plain-ext-softmax-race (an extern __shared__ row softmax missing the barrier after
# thread 0's write of the row's maximum); the default sweep of that variant. --plugin FILE:
# a file name inside each tree (or a path of the caller's). SWEEP-ARGS go to both sweeps.
# Paths given are the caller's. Prints one line per build and the ratio of the wall times.
# Exit 0 when both sweeps ran and caught the variant, 1 when one did not, 2 bad usage or a
# build that is missing.
set -uo pipefail
RF_CALLER_DIR=${RF_CALLER_DIR:-$PWD}
cd "$(dirname "$0")/.."
RF_PROG="bench-tsan-race.sh"
source scripts/lib/opts.sh
RF_OPT_ALLOWED=([--plain]="a build folder" [--tsan]="a build folder" [--plugin]="a plugin file"
                [--variant]="a variant name")
plain=build
tsan=build-tsan
plugin=tests/plugin/plain_hip/librf_plain_ext_softmax.so
variant=softmax/plain-ext-softmax-race
while [ $# -gt 0 ]; do
  case $1 in
    --plain) rf_opt_path plain "$@"; shift 2 ;;
    --tsan) rf_opt_path tsan "$@"; shift 2 ;;
    --plugin) rf_opt_value plugin "$@"; shift 2 ;;
    --variant) rf_opt_value variant "$@"; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,18p' "$RF_SELF" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) rf_opt_unknown "$1" ;;
  esac
done
status=0
declare -A wall_s
TIMEFORMAT='%R %U %S'
for kind in plain tsan; do
  dir=${!kind}
  lib=$dir/$plugin
  [[ "$plugin" == /* ]] && lib=$plugin
  [ -f "$lib" ] || [ ! -f "$RF_CALLER_DIR/$plugin" ] || lib=$RF_CALLER_DIR/$plugin
  if [ ! -x "$dir/fuzz/redfuzz" ] || [ ! -f "$lib" ]; then
    rf_opt_fail "the $kind build '$dir' has no fuzz/redfuzz or no $plugin (build its preset with the tests)"
  fi
  out=$(mktemp)
  t=$( { time "$dir/fuzz/redfuzz" --plugin "$lib" sweep --variant "$variant" "$@" >"$out" 2>"$out.err"; } 2>&1 )
  read -r wall user sys <<<"$(echo "$t" | tail -n 1)"
  row=$(grep -E "^$variant +[0-9]+" "$out" | head -n 1)
  runs=$(echo "$row" | awk '{print $2}')
  failed=$(echo "$row" | awk '{print $5}')
  printf '%-6s %s runs, %s failed, %.2f s wall, %.2f s CPU\n' "$kind" "${runs:-0}" "${failed:-0}" \
    "$wall" "$(awk -v u="$user" -v s="$sys" 'BEGIN { print u + s }')"
  if [ -z "$runs" ] || [ "${failed:-0}" -eq 0 ]; then
    echo "$RF_PROG: the $kind sweep did not catch $variant; its output: $out (stderr $out.err)" >&2
    status=1
  else
    rm -f "$out" "$out.err"
  fi
  wall_s[$kind]=$wall
done
awk -v p="${wall_s[plain]}" -v t="${wall_s[tsan]}" \
  'BEGIN { printf "tsan/plain wall: %.2f (target: at most 2)\n", (p > 0 ? t / p : 0) }'
exit $status

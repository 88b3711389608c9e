#!/usr/bin/env bash
# Benchmark figures for docs/BENCH.md: `redfuzz bench` from an existing build (no building
# here: the GPU machine has no compilers), then torch.softmax on the same softmax shape when
# python3 with torch and a CUDA device are available. Plain text on stdout, to paste.
#   scripts/bench.sh [--build DIR] [redfuzz bench options...]
# DIR defaults to build-cuda, else build. With no bench options the defaults run (sum, max,
# argmax at n = 2^22, 2^24, 2^26; softmax 4096x1024) and torch's median fills x_ref of the
# softmax rows; with options, torch is still timed (at 4096x1024) but not passed on.
# Exit status: redfuzz bench's (1 when a verdict failed), 2 when there is no redfuzz.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=""
if [ "${1:-}" = "--build" ]; then
  [ $# -ge 2 ] || { echo "bench.sh: --build needs a folder" >&2; exit 2; }
  build=$2
  shift 2
fi
if [ -z "$build" ]; then
  for d in "$root/build-cuda" "$root/build"; do
    if [ -x "$d/fuzz/redfuzz" ] || [ -x "$d/redfuzz" ]; then build=$d; break; fi
  done
fi
exe=""
for e in "$build/fuzz/redfuzz" "$build/redfuzz"; do
  if [ -n "$build" ] && [ -x "$e" ]; then exe=$e; break; fi
done
if [ -z "$exe" ]; then
  echo "bench.sh: no redfuzz in '${build:-build-cuda or build}'" \
       "(build it: cmake --preset cuda && cmake --build build-cuda)" >&2
  exit 2
fi

# torch first, so its median can fill x_ref of the softmax rows.
if command -v python3 >/dev/null; then
  torch_line=$(python3 "$root/scripts/torch_softmax_bench.py" 2>&1 | tail -n 1)
else
  torch_line="torch: not available (no python3)"
fi
torch_ms=$(printf '%s\n' "$torch_line" | sed -n 's/.*median_ms \([0-9.]*\).*/\1/p')

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "redfuzz bench: $exe, commit $commit, $(date -u +%Y-%m-%dT%H:%MZ)"
args=("$@")
if [ $# -eq 0 ] && [ -n "$torch_ms" ]; then args=(--torch-ms "$torch_ms"); fi
echo "command: redfuzz bench ${args[*]}"
"$exe" bench "${args[@]}"
status=$?
echo
echo "$torch_line"
exit $status

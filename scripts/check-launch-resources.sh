#!/usr/bin/env bash
# Every kernel must launch at every block size its variant allows (up to 1024 threads). nvcc
# assumes nothing about the block size unless a kernel says (__launch_bounds__), and a kernel
# that uses more than 64 registers a thread cannot start 1024 threads on an sm_90 SM (65,536
# registers): "too many resources requested for launch". The GPU fuzz campaign found exactly
# that in softmax/row-reg; this finds it without a GPU. It compiles every kernels/*.hip,
# kernels/mutants/*.hip and examples/plugin/*.hip for sm_90 with `ptxas -v` and fails a kernel
# whose registers x 1024 exceed the register file or whose static shared memory exceeds 48 KiB.
# (clang's gfx1201 code already assumes up to 1024 threads a block unless told otherwise.)
#
# Usage: scripts/check-launch-resources.sh [file.hip ...]   (default: the kernel globs above)
#        scripts/check-launch-resources.sh --self-test      (a planted kernel must fail)
# Env:   NVCC (/usr/local/cuda/bin/nvcc). Without nvcc it says so and exits 0 (skipped).
# Prints one line per kernel over half the budget and "N passed, N failed"; exit 1 on failure.
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
MAX_THREADS=1024
REGS_PER_SM=65536
MAX_STATIC_SMEM=49152
if ! [ -x "$NVCC" ] && ! command -v "$NVCC" >/dev/null; then
  echo "check-launch-resources: $NVCC not found: skipped"
  exit 0
fi

self_test() {
  local dir rc
  dir=$(mktemp -d) || exit 2
  trap 'rm -rf "$dir"' RETURN
  # 24 float4 live across a data-dependent loop: far more than 64 registers unless bounded.
  local body='{
  float4 q[24];
  for (int k = 0; k < 24; k++) q[k] = x[threadIdx.x + k * blockDim.x];
  float s = 0;
  for (int r = 0; r < n; r++)
    for (int k = 0; k < 24; k++) s += q[k].x * q[(k + r) % 24].y + q[k].z * q[k].w;
  y[threadIdx.x] = s;
}'
  printf '#include "kernels/port.h"\n__global__ void heavy(const float4 *x, float *y, int n) %s\n' \
    "$body" >"$dir/heavy.hip"
  printf '#include "kernels/port.h"\n__global__ void __launch_bounds__(1024) heavy(const float4 *x, float *y, int n) %s\n' \
    "$body" >"$dir/bounded.hip"
  "$0" "$dir/heavy.hip" >"$dir/out" 2>&1; rc=$?
  if [ $rc -ne 1 ]; then echo "self-test: the unbounded heavy kernel was not failed (exit $rc):"; cat "$dir/out"; return 1; fi
  "$0" "$dir/bounded.hip" >"$dir/out" 2>&1; rc=$?
  if [ $rc -ne 0 ]; then echo "self-test: the bounded kernel failed (exit $rc):"; cat "$dir/out"; return 1; fi
  echo "self-test: a kernel needing more than 64 registers fails; with __launch_bounds__(1024) it passes"
}
if [ "${1:-}" = "--self-test" ]; then self_test; exit $?; fi

if [ $# -gt 0 ]; then files=("$@"); else
  files=("$root"/kernels/*.hip "$root"/kernels/half/*.hip "$root"/kernels/harness/*.hip
         "$root"/kernels/mutants/*.hip "$root"/examples/plugin/*.hip); fi
passed=0; failed=0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# kernels/plain_hip/cuda first: a plugin written in plain HIP (<hip/hip_runtime.h>, as
# examples/plugin/my_sum.hip) is compiled as redfuzz-plugin's cuda build compiles it
# (cmake/rf_plugin.cmake); Debian's own hip_runtime.h does not compile under nvcc 13.
for f in "${files[@]}"; do
  if ! "$NVCC" -x cu -std=c++17 -arch=sm_90 --expt-relaxed-constexpr -Xptxas -v -I"$root/kernels/plain_hip/cuda" -I"$root" -I"$root/include" \
       -c "$f" -o "$tmp/k.o" >"$tmp/log" 2>&1; then
    echo "FAIL ${f#$root/}: does not compile"; sed 's/^/    /' "$tmp/log" | head -20
    failed=$((failed + 1)); continue
  fi
  # ptxas: "Compiling entry function 'NAME' for 'sm_90'", then "Used R registers, ... S bytes smem".
  out=$(awk -v maxr=$((REGS_PER_SM / MAX_THREADS)) -v maxs=$MAX_STATIC_SMEM '
    /Compiling entry function/ { match($0, /function .[^'"'"']*/); name = substr($0, RSTART + 10, RLENGTH - 10); next }
    /Used [0-9]+ registers/ && name != "" {
      match($0, /Used [0-9]+ registers/); r = substr($0, RSTART + 5, RLENGTH - 15) + 0
      s = 0; if (match($0, /[0-9]+ bytes smem/)) s = substr($0, RSTART, RLENGTH - 11) + 0
      bad = r > maxr || s > maxs
      if (bad || r > maxr / 2) printf "%s %s: %d registers, %d bytes smem\n", bad ? "BAD " : "ok  ", name, r, s
      nbad += bad; n++; name = ""
    }
    END { printf "kernels %d bad %d\n", n, nbad }' "$tmp/log")
  nk=$(echo "$out" | awk '/^kernels/ {print $2}'); nb=$(echo "$out" | awk '/^kernels/ {print $4}')
  if [ "${nk:-0}" -eq 0 ]; then
    echo "SKIP ${f#$root/}: no kernels"
  elif [ "${nb:-0}" -gt 0 ]; then
    echo "FAIL ${f#$root/}: ${nk:-0} kernels, ${nb:-0} cannot launch $MAX_THREADS threads on sm_90"
    echo "$out" | grep -v '^kernels' | sed 's/^/    /'
    failed=$((failed + 1))
  else
    echo "PASS ${f#$root/}: $nk kernels launch $MAX_THREADS threads on sm_90"
    echo "$out" | grep '^ok ' | sed 's/^/    /'
    passed=$((passed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]

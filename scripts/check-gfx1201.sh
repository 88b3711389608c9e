#!/usr/bin/env bash
# Compiles the device code of every kernels/*.hip, kernels/half/*.hip, kernels/harness/*.hip and
# kernels/mutants/*.hip for gfx1201 (RDNA4, the user's GPU) with clang-19 and Debian's
# libamdhip64-dev headers, and checks each result:
#   1. it compiles (-Wall -Wextra; warnings are counted, not fatal);
#   2. the code object targets amdgcn-amd-amdhsa--gfx1201;
#   3. every kernel is wave32: `.amdhsa_wavefront_size32 1` in its descriptor and
#      `.wavefront_size: 32` in its metadata (our kernels assume warpSize 32 there);
#   4. the device code references no symbol but the ROCm device libraries' (__ocml_*, __ockl_*,
#      ...): a host symbol there (e.g. a const variant table that clang also emits for the
#      device) would break the real device link.
# Flags: no -D__HIP_PLATFORM_AMD__ is needed (hip_common.h derives it from clang's __HIP__).
# -nogpulib because Debian ships no ROCm device-library bitcode; so we cannot link, and check 4
# reads the unlinked bitcode (-fgpu-rdc) instead.
#
# Usage: scripts/check-gfx1201.sh [file.hip ...]   (default: the kernel globs above)
#        scripts/check-gfx1201.sh --self-test      (shows that each check catches a planted bug)
# Env:   CLANG (clang++-19), NM (llvm-nm-19), RF_GFX_EXTRA_FLAGS (appended to every compile).
# Prints one line per file and "N passed, N failed"; exits 1 when any file failed, 2 on misuse.
set -u

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CLANG=${CLANG:-clang++-19}
NM=${NM:-llvm-nm-19}
TARGET=amdgcn-amd-amdhsa--gfx1201
# Symbols the ROCm device libraries (ocml, ockl, oclc, irif) define at link time.
DEVLIB_SYMBOLS='^(__ocml_|__ockl_|__oclc_|__irif_|__atomic_work_item_fence$)'

for tool in "$CLANG" "$NM"; do
  command -v "$tool" >/dev/null || { echo "check-gfx1201: $tool not found" >&2; exit 2; }
done

self_test() {
  local dir rc fails=0 passes=0
  dir=$(mktemp -d) || exit 2
  trap 'rm -rf "$dir"' RETURN
  cat >"$dir/good.hip" <<'EOF'
#include <hip/hip_runtime.h>
__global__ void twice(float *x) { x[threadIdx.x] *= 2.0f; }
EOF
  printf '%s\n' '#include <hip/hip_runtime.h>' '__global__ void broken(float *x) { x[0] = ; }' \
    >"$dir/syntax_error.hip"
  cat >"$dir/host_table.hip" <<'EOF'
#include <hip/hip_runtime.h>
__global__ void twice(float *x) { x[threadIdx.x] *= 2.0f; }
static int host_only(int v) { return v + 1; }
extern "C" int (*const host_table[])(int) = {host_only};
EOF
  # expect: name, wanted exit status, extra flags, file
  expect() {
    RF_GFX_EXTRA_FLAGS="$3" "$0" "$4" >"$dir/out" 2>&1
    rc=$?
    if [ "$rc" -eq "$2" ]; then
      passes=$((passes + 1)); echo "self-test PASS $1 (exit $rc)"
    else
      fails=$((fails + 1)); echo "self-test FAIL $1 (exit $rc, wanted $2):"; sed 's/^/    /' "$dir/out"
    fi
  }
  expect "correct kernel is accepted" 0 "" "$dir/good.hip"
  expect "compile error is reported" 1 "" "$dir/syntax_error.hip"
  expect "wave64 code is reported" 1 "-mwavefrontsize64" "$dir/good.hip"
  expect "host symbol in device code is reported" 1 "" "$dir/host_table.hip"
  echo "$passes passed, $fails failed"
  [ "$fails" -eq 0 ]
}

if [ "${1:-}" = "--self-test" ]; then self_test; exit $?; fi

if [ $# -gt 0 ]; then
  files=("$@")
else
  shopt -s nullglob
  files=("$root"/kernels/*.hip "$root"/kernels/half/*.hip "$root"/kernels/harness/*.hip
         "$root"/kernels/mutants/*.hip)
  shopt -u nullglob
fi
if [ ${#files[@]} -eq 0 ]; then echo "check-gfx1201: no .hip files found" >&2; exit 2; fi

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2206  # RF_GFX_EXTRA_FLAGS is a list of flags on purpose
flags=(-std=c++17 -x hip --offload-arch=gfx1201 --offload-device-only -nogpulib -O2
       -Wall -Wextra -I"$root" -I"$root/include" ${RF_GFX_EXTRA_FLAGS:-})

passed=0 failed=0
fail() {  # file, reason, [log to show]
  failed=$((failed + 1))
  echo "FAIL $1: $2"
  if [ -n "${3:-}" ]; then sed -n '1,25s/^/    /p' "$3"; fi  # the first 25 lines
}

for f in "${files[@]}"; do
  name=${f#"$root"/}
  asm=$tmp/out.s log=$tmp/log bc=$tmp/out.bc
  if ! "$CLANG" "${flags[@]}" -S -o "$asm" "$f" >"$log" 2>&1; then
    fail "$name" "compile error" "$log"; continue
  fi
  warnings=$(grep -c 'warning:' "$log")
  if ! grep -q "^[[:space:]]*\.amdgcn_target \"$TARGET\"" "$asm" ||
     ! grep -q "^amdhsa\.target:[[:space:]]*$TARGET\$" "$asm"; then
    fail "$name" "code object does not target $TARGET"; continue
  fi
  kernels=$(grep -c '^[[:space:]]*\.amdhsa_kernel ' "$asm")
  wave32=$(grep -c '^[[:space:]]*\.amdhsa_wavefront_size32 1$' "$asm")
  meta32=$(grep -c '^[[:space:]]*\.wavefront_size:[[:space:]]*32$' "$asm")
  if [ "$wave32" -ne "$kernels" ] || [ "$meta32" -ne "$kernels" ]; then
    fail "$name" "not wave32: $kernels kernels, $wave32 with .amdhsa_wavefront_size32 1, $meta32 with .wavefront_size: 32"
    continue
  fi
  if ! "$CLANG" "${flags[@]}" -fgpu-rdc -c -o "$bc" "$f" >"$log" 2>&1; then
    fail "$name" "compile error (-fgpu-rdc bitcode)" "$log"; continue
  fi
  # Dynamic LDS (RF_DYN_SHARED -> extern __shared__) is an undefined symbol until the device
  # link by design: allow exactly the names this file declares that way.
  dyn=$(grep -oE 'RF_DYN_SHARED\([^,]+,[[:space:]]*[A-Za-z_][A-Za-z0-9_]*\)' "$f" |
        sed -E 's/.*,[[:space:]]*([A-Za-z_][A-Za-z0-9_]*)\)/\1/' | sort -u | paste -sd'|' -)
  "$NM" --undefined-only --format=just-symbols --demangle "$bc" | grep -Ev "$DEVLIB_SYMBOLS" |
    { if [ -n "$dyn" ]; then grep -Evx "$dyn"; else cat; fi; } >"$tmp/foreign" || true
  if [ -s "$tmp/foreign" ]; then
    fail "$name" "device code references $(wc -l <"$tmp/foreign") symbols no device library defines (host code seen by the device pass? see docs/KERNELS_SUM.md), e.g.:" "$tmp/foreign"
    continue
  fi
  passed=$((passed + 1))
  if [ "$kernels" -eq 0 ]; then what="no kernels (host code only)"; else what="$kernels kernels, all wave32"; fi
  echo "PASS $name: $what, $TARGET, $warnings warnings"
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]

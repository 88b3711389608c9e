#!/usr/bin/env bash
# Builds the whole `hip` backend (host and device, preset hip: clang-19 for gfx1201 against
# Debian 12's ROCm 5.2 packages, see cmake/rf_hip_debian.cmake) and checks the binary:
#   1. build-hip/fuzz/redfuzz links against libamdhip64 (ELF NEEDED);
#   2. every code object in its .hip_fatbin section (one offload bundle per .hip file) is for
#      amdgcn-amd-amdhsa--gfx1201, and every kernel in it is wave32;
#   3. every kernel the host side can launch (a __device_stub__ symbol) has its gfx1201
#      kernel descriptor (<kernel>.kd) in those code objects, and no code object is missing;
#   4. on a machine without an AMD GPU, `redfuzz run` says "no HIP device found" and exits 2
#      (skipped, with a note, where /dev/kfd exists: run scripts/gpu-verify.sh there instead).
# What it cannot check: that the kernels run correctly on a gfx1201 (no AMD GPU here), and that
# ROCm 5.2's device library (built before RDNA4 existed) behaves on it.
#
# Usage: scripts/check-hip-build.sh [--build DIR]     (default build-hip)
#        scripts/check-hip-build.sh --self-test       (each check fires on a planted fault)
# Env:   JOBS (build parallelism, default nproc), LLVM_SUFFIX (-19).
# Exits 0 when every check passed, 1 when one failed, 2 on misuse or missing tools.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
S=${LLVM_SUFFIX:--19}
CLANG=clang++$S OBJCOPY=llvm-objcopy$S READELF=llvm-readelf$S NM=llvm-nm$S CXXFILT=llvm-cxxfilt$S
BUNDLER=clang-offload-bundler$S
TARGET=amdgcn-amd-amdhsa--gfx1201
BUNDLE_ID=hipv4-$TARGET
BUILD=$root/build-hip
SELF_TEST=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD=$(realpath -m "$2"); shift 2;;
    --self-test) SELF_TEST=1; shift;;
    -h|--help) sed -n '2,19p' "$0"; exit 0;;
    *) echo "check-hip-build: unknown option '$1' (see --help)" >&2; exit 2;;
  esac
done
for tool in "$CLANG" "$OBJCOPY" "$READELF" "$NM" "$CXXFILT" "$BUNDLER" python3; do
  command -v "$tool" >/dev/null || { echo "check-hip-build: $tool not found (scripts/bootstrap.sh)" >&2; exit 2; }
done

# check_binary BIN: checks 1-3 on an already linked binary; prints one line per check.
check_binary() {
  local bin=$1 tmp fails=0 n
  tmp=$(mktemp -d) || return 2
  local dyn
  dyn=$("$READELF" -d "$bin" 2>&1)   # a variable, not a pipe into grep -q (pipefail, SIGPIPE)
  if grep -q 'NEEDED.*\[libamdhip64\.so' <<<"$dyn"; then
    echo "PASS links libamdhip64 ($(grep -o 'libamdhip64\.so[.0-9]*' <<<"$dyn"))"
  else
    echo "FAIL $bin does not link libamdhip64"; fails=$((fails + 1))
  fi
  if ! "$OBJCOPY" --dump-section .hip_fatbin="$tmp/fat.bin" "$bin" "$tmp/discard" 2>"$tmp/err"; then
    echo "FAIL no .hip_fatbin section (no device code in $bin): $(head -c 200 "$tmp/err")"
    rm -rf "$tmp"; return 1
  fi
  # The section is the bundles of every .hip file, each at its own aligned offset: split it at
  # each bundle's magic string.
  n=$(python3 - "$tmp/fat.bin" "$tmp" <<'EOF'
import re, sys
data = open(sys.argv[1], 'rb').read()
starts = [m.start() for m in re.finditer(re.escape(b'__CLANG_OFFLOAD_BUNDLE__'), data)]
for i, s in enumerate(starts):
    end = starts[i + 1] if i + 1 < len(starts) else len(data)
    open(f'{sys.argv[2]}/bundle{i}.bin', 'wb').write(data[s:end])
print(len(starts))
EOF
)
  local objs=0 bad=0 kernels=0
  : >"$tmp/device_kernels"
  for ((i = 0; i < n; i++)); do
    local b=$tmp/bundle$i.bin ids
    ids=$("$BUNDLER" --list --type=o --input="$b" 2>&1)
    if ! grep -qx "$BUNDLE_ID" <<<"$ids"; then
      echo "FAIL bundle $i has no $BUNDLE_ID code object (it holds: $(tr '\n' ' ' <<<"$ids"))"
      bad=$((bad + 1)); continue
    fi
    if grep -v -x -e "$BUNDLE_ID" -e 'host-x86_64-unknown-linux-*' <<<"$ids" | grep -q .; then
      echo "FAIL bundle $i holds other targets: $(tr '\n' ' ' <<<"$ids")"; bad=$((bad + 1))
    fi
    "$BUNDLER" --unbundle --type=o --input="$b" --targets="$BUNDLE_ID" \
      --output="$tmp/co$i.o" || { echo "FAIL bundle $i: cannot unbundle"; bad=$((bad + 1)); continue; }
    objs=$((objs + 1))
    local notes k w32 tgt
    notes=$("$READELF" --notes "$tmp/co$i.o")
    tgt=$(grep -oE 'amdhsa\.target:[[:space:]]*[^[:space:]]+' <<<"$notes" | awk '{print $2}')
    if [ "$tgt" != "$TARGET" ]; then
      echo "FAIL code object $i targets '${tgt:-nothing}', not $TARGET"; bad=$((bad + 1))
    fi
    k=$(grep -cE '^[[:space:]]+\.symbol:[[:space:]]+.*\.kd$' <<<"$notes")
    w32=$(grep -cE '^[[:space:]]+\.wavefront_size:[[:space:]]+32$' <<<"$notes")
    if [ "$k" -ne "$w32" ]; then
      echo "FAIL code object $i: $k kernels but $w32 with .wavefront_size: 32"; bad=$((bad + 1))
    fi
    kernels=$((kernels + k))
    "$NM" --defined-only --format=just-symbols "$tmp/co$i.o" | sed -n 's/\.kd$//p' >>"$tmp/device_kernels"
  done
  if [ "$bad" -eq 0 ] && [ "$objs" -gt 0 ]; then
    echo "PASS $objs code objects, all $TARGET, $kernels kernels, all wave32"
  else
    echo "FAIL code objects: $bad problems in $n bundles"; fails=$((fails + 1))
  fi
  # Host side: each kernel the program can launch has a __device_stub__<name> (clang's HIP
  # host stub); demangled, "__device_stub__" removed, it must equal a device kernel's name.
  "$NM" --defined-only --format=just-symbols "$bin" | "$CXXFILT" |
    grep '__device_stub__' | sed 's/__device_stub__//' | sed -E 's/^void //' | sort -u >"$tmp/host"
  "$CXXFILT" <"$tmp/device_kernels" | sed -E 's/^void //' | sort -u >"$tmp/dev"
  comm -23 "$tmp/host" "$tmp/dev" >"$tmp/missing"
  local nh
  nh=$(wc -l <"$tmp/host")
  if [ "$nh" -eq 0 ]; then
    echo "FAIL no host kernel stubs found in $bin"; fails=$((fails + 1))
  elif [ -s "$tmp/missing" ]; then
    echo "FAIL $(wc -l <"$tmp/missing") of $nh host-launchable kernels have no $TARGET code, e.g.:"
    head -n 5 "$tmp/missing" | sed 's/^/    /'; fails=$((fails + 1))
  else
    echo "PASS every one of the $nh host-launchable kernels has $TARGET code in the binary"
  fi
  rm -rf "$tmp"
  [ "$fails" -eq 0 ]
}

self_test() {
  local dir passes=0 fails=0 rc
  dir=$(mktemp -d) || exit 2
  trap 'rm -rf "$dir"' RETURN
  local bc=$BUILD/rf-device-libs
  [ -d "$bc" ] || { echo "check-hip-build --self-test: configure $BUILD first (its device libraries)" >&2; return 2; }
  # RF_PLANT_MISSING: the device pass sees another kernel than the host pass, so the host
  # can launch a kernel that has no device code.
  cat >"$dir/k.hip" <<'EOF'
#include <hip/hip_runtime.h>
#if defined(RF_PLANT_MISSING) && defined(__HIP_DEVICE_COMPILE__)
__global__ void other(float *x) { x[threadIdx.x] = 1.0f; }
#else
__global__ void twice(float *x) { x[threadIdx.x] *= 2.0f; }
#endif
#if !defined(__HIP_DEVICE_COMPILE__)
int main() { float *p; (void)hipMalloc(&p, 4); hipLaunchKernelGGL(twice, 1, 1, 0, 0, p); return 0; }
#endif
EOF
  printf '%s\n' 'int main() { return 0; }' >"$dir/host.cpp"
  local cc=("$CLANG" -x hip --rocm-device-lib-path="$bc" -O1)
  # build NAME FLAGS...: a small program, linked with libamdhip64 unless told otherwise.
  # shellcheck disable=SC2015  # any failing step reports the log
  "${cc[@]}" --offload-arch=gfx1201 "$dir/k.hip" -o "$dir/good" -lamdhip64 2>"$dir/log" &&
  "${cc[@]}" --offload-arch=gfx1201 -mwavefrontsize64 "$dir/k.hip" -o "$dir/wave64" -lamdhip64 2>>"$dir/log" &&
  "${cc[@]}" --offload-arch=gfx1030 \
     "$dir/k.hip" -o "$dir/other_arch" -lamdhip64 2>>"$dir/log" &&
  "${cc[@]}" --offload-arch=gfx1201 -no-hip-rt "$dir/k.hip" -o "$dir/no_hip_lib" \
     -Wl,--as-needed -Wl,--unresolved-symbols=ignore-all 2>>"$dir/log" &&
  "$CLANG" "$dir/host.cpp" -o "$dir/host_only" 2>>"$dir/log" || {
    echo "self-test: cannot build the planted programs:"; sed 's/^/    /' "$dir/log" | head -20; return 1; }
  "${cc[@]}" --offload-arch=gfx1201 -DRF_PLANT_MISSING "$dir/k.hip" -o "$dir/missing_kernel" \
     -lamdhip64 2>>"$dir/log" || {
    echo "self-test: cannot build the missing-kernel program:"; sed 's/^/    /' "$dir/log" | head; return 1; }
  expect() {  # name, wanted (0 pass, 1 fail), binary, a line the output must hold
    check_binary "$3" >"$dir/out" 2>&1; rc=$?
    if { [ "$2" -eq 0 ] && [ "$rc" -eq 0 ]; } || { [ "$2" -ne 0 ] && [ "$rc" -ne 0 ] && grep -q "$4" "$dir/out"; }; then
      passes=$((passes + 1)); echo "self-test PASS $1"
    else
      fails=$((fails + 1)); echo "self-test FAIL $1 (exit $rc):"; sed 's/^/    /' "$dir/out"
    fi
  }
  expect "a correct gfx1201 program passes" 0 "$dir/good" ""
  expect "wave64 kernels are reported" 1 "$dir/wave64" "wavefront_size: 32"
  expect "code for another GPU is reported" 1 "$dir/other_arch" "no $BUNDLE_ID"
  expect "a missing libamdhip64 is reported" 1 "$dir/no_hip_lib" "does not link libamdhip64"
  expect "a binary without device code is reported" 1 "$dir/host_only" "no .hip_fatbin"
  expect "a kernel without device code is reported" 1 "$dir/missing_kernel" "have no $TARGET code"
  echo "$passes passed, $fails failed"
  [ "$fails" -eq 0 ]
}

export PATH
if [ ! -f "$BUILD/CMakeCache.txt" ]; then
  echo "== configure $BUILD (preset hip)"
  mkdir -p "$BUILD"
  cmake --preset hip -B "$BUILD" >"$BUILD/configure.log" 2>&1 ||
    { echo "FAIL configure (log: $BUILD/configure.log):"; tail -n 20 "$BUILD/configure.log"; exit 1; }
fi
if [ "$SELF_TEST" = 1 ]; then self_test; exit $?; fi

echo "== build $BUILD (redfuzz, host and device)"
start=$(date +%s)
cmake --build "$BUILD" -j "${JOBS:-$(nproc)}" --target redfuzz >"$BUILD/build.log" 2>&1 ||
  { echo "FAIL build (log: $BUILD/build.log):"; grep -E 'error|FAILED' "$BUILD/build.log" | head -n 20; exit 1; }
echo "built in $(( $(date +%s) - start ))s; $(grep -c 'warning:' "$BUILD/build.log") compiler warnings"
bin=$BUILD/fuzz/redfuzz
check_binary "$bin"; rc=$?

if [ -e /dev/kfd ]; then
  echo "NOTE /dev/kfd exists: not checking the no-device message; run the GPU checks instead"
else
  out=$("$bin" run --op sum --n 8 2>&1); r=$?
  if [ "$r" -eq 2 ] && grep -q '^redfuzz run: no HIP device found' <<<"$out"; then
    echo "PASS without a GPU: '${out:0:90}...' (exit 2)"
  else
    echo "FAIL without a GPU, redfuzz run exited $r and said: ${out:0:300}"; rc=1
  fi
  if "$bin" list --op sum >/dev/null 2>&1; then echo "PASS redfuzz list works without a GPU"
  else echo "FAIL redfuzz list fails without a GPU"; rc=1; fi
fi
[ "$rc" -eq 0 ] && echo "check-hip-build: all checks passed" || echo "check-hip-build: FAILED"
exit "$rc"

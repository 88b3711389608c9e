#!/usr/bin/env bash
# The top CMakeLists refuses a cache whose optimisation flags a failed configure left empty
# (a configure without the compiler, then one with it: CMake keeps the empty flags and the
# build would be unoptimised). Checks that it fires, and that a clean configure with the same
# compiler passes.   test_stale_cache.sh <source dir> <C compiler> <C++ compiler>
set -u
src=$1 cc=$2 cxx=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gen=(); command -v ninja >/dev/null && gen=(-G Ninja)
cmake -S "$src" -B "$work/b" "${gen[@]}" -DCMAKE_C_COMPILER=/nonexistent/cc \
  -DCMAKE_CXX_COMPILER=/nonexistent/c++ >"$work/first.log" 2>&1 &&
  { echo "FAIL: the configure without a compiler passed"; exit 1; }
if cmake -S "$src" -B "$work/b" "${gen[@]}" -DCMAKE_C_COMPILER="$cc" \
     -DCMAKE_CXX_COMPILER="$cxx" >"$work/second.log" 2>&1; then
  echo "FAIL: the configure over the stale cache passed"; cat "$work/second.log"; exit 1
fi
if ! grep -q 'no -O' "$work/second.log" || ! grep -q 'CMakeCache.txt' "$work/second.log"; then
  echo "FAIL: refused without the message"; cat "$work/second.log"; exit 1
fi
rm -rf "$work/b"
cmake -S "$src" -B "$work/b" "${gen[@]}" -DCMAKE_C_COMPILER="$cc" -DCMAKE_CXX_COMPILER="$cxx" \
  >"$work/third.log" 2>&1 || { echo "FAIL: a clean configure was refused"; cat "$work/third.log"; exit 1; }
echo "stale cache refused; clean configure passes"

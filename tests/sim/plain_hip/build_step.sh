#!/usr/bin/env bash
# The plain-HIP build step's refusals (sim/plain_hip/rf_sim_hipcc.py): each names the user's
# file and line and says why, and a correct source beside them compiles.
#   build_step.sh SRC CXX
#  - __shared__ compiled without the step: the compiler's error, which says how to build;
#  - __shared__ on a class member: the step's error (exit 2) naming the member's line;
#  - a __shared__ array whose kernel has an error elsewhere: the compiler's error at the
#    user's line (the step goes on to the compile, which reports it; the column is the
#    preprocessed line's, where macros are expanded);
#  - the same kernels correct: compiled, every declaration rewritten.
set -uo pipefail
SRC=$1 CXX=$2
fail() { echo "build_step: FAIL: $*"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/rf step.XXXXXX"); trap 'rm -rf "$tmp"' EXIT   # a space on purpose
flags=(-DRF_SIM=1 -I"$SRC/sim/include" -I"$SRC" -I"$SRC/include" -x c++ -std=gnu++17 -c)
step=(python3 "$SRC/sim/plain_hip/rf_sim_hipcc.py" "$CXX")
printf '#include <hip/hip_runtime.h>\n__global__ void k(float *o) {\n  __shared__ float x[4];\n  x[threadIdx.x] = 1;\n  o[0] = x[0];\n}\n' > "$tmp/ok.hip"
out=$("$CXX" "${flags[@]}" "$tmp/ok.hip" -o "$tmp/a.o" 2>&1); rc=$?
[ $rc -ne 0 ] && grep -q "ok.hip:3:3: error: __shared__ on the simulator needs its plain-HIP build step" <<<"$out" ||
  fail "without the step: exit $rc: $out"
echo "ok   without the step: $(grep -m1 error <<<"$out" | cut -c1-120)"
printf '#include <hip/hip_runtime.h>\nstruct S {\n  __shared__ float x[4];\n};\n__global__ void k(S *s) { s->x[0] = 1; }\n' > "$tmp/member.hip"
out=$("${step[@]}" "${flags[@]}" "$tmp/member.hip" -o "$tmp/b.o" 2>&1); rc=$?
[ $rc -eq 2 ] && grep -q "member.hip:3: __shared__ on a FieldDecl (allowed: a variable in a function body or at namespace scope" <<<"$out" ||
  fail "a member: exit $rc: $out"
echo "ok   a member: $out"
printf '#include <hip/hip_runtime.h>\n__global__ void k(float *o) {\n  __shared__ float x[4];\n  x[threadIdx.x] = undeclared;\n}\n' > "$tmp/typo.hip"
out=$("${step[@]}" "${flags[@]}" "$tmp/typo.hip" -o "$tmp/c.o" 2>&1); rc=$?
[ $rc -ne 0 ] && grep -q "typo.hip:4:[0-9]*: error: use of undeclared identifier 'undeclared'" <<<"$out" ||
  fail "a syntax error: exit $rc: $out"
echo "ok   an error elsewhere: $(grep -m1 error <<<"$out")"
out=$("${step[@]}" "${flags[@]}" "$tmp/ok.hip" -o "$tmp/d.o" 2>&1); rc=$?
[ $rc -eq 0 ] && [ -f "$tmp/d.o" ] && grep -q 'float (&x)\[4\] = ::rf_sim::lds_bind<decltype(x)>' "$tmp/d.o.rf.ii" ||
  fail "the correct source: exit $rc: $out"
echo "ok   the correct source compiles, rewritten (d.o.rf.ii)"
echo "build_step: ok"

#!/usr/bin/env bash
# Includes point only down the layers (docs/ARCHITECTURE.md, "Layers"; CMakeLists.txt):
#   include/redfuzz (public ABI) <- model <- oracle <- sim, kernels <- run <- cli, fuzz
# A header that climbs (a kernel including the runner, the model including a kernel) couples a
# low layer to everything above it; this check fails on the first such line, naming it.
# Usage: scripts/check-layers.sh [ROOT]   (prints "N passed, N failed"; exit 1 on a violation)
#        scripts/check-layers.sh --self-test   (a planted upward include must fail; and a planted
#                                              cycle inside a folder, scripts/check_cycles.py)
set -u
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
if [ "${1:-}" = "--self-test" ]; then
  t=$(mktemp -d) || exit 2
  mkdir -p "$t/kernels" "$t/model"
  echo '#include "model/case.h"' >"$t/kernels/ok.hip"          # down: allowed
  echo '#include "../run/runner.h"' >"$t/model/bad.c"            # up: must fail
  mkdir -p "$t/kernels/harness"
  echo '#include "harness/device.h"' >"$t/kernels/bad_variant.hip"  # variant -> harness: must fail
  echo '#include "../port.h"' >"$t/kernels/harness/ok_harness.hip"  # harness -> port: allowed
  out=$(bash "$0" "$t"); rc=$?
  rm -rf "$t"
  if [ $rc -eq 1 ] && grep -q 'model/bad.c' <<<"$out" && ! grep -q 'ok.hip' <<<"$out" &&
     grep -q 'kernels/bad_variant.hip' <<<"$out" && ! grep -q 'ok_harness.hip' <<<"$out"; then
    echo "layer check self-test: 1 passed, 0 failed"
    exec python3 "$here/check_cycles.py" --self-test
  fi
  echo "layer check self-test: 0 passed, 1 failed (planted upward include not reported)"; exit 1
fi
root=${1:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
cd "$root" || exit 2
# folder : the folders it must not include from
rules=(
  "include/redfuzz:model oracle sim kernels run cli fuzz"
  "model:oracle sim kernels run cli fuzz"
  "oracle:sim kernels run cli fuzz"
  "sim:kernels run cli fuzz model oracle"
  "kernels:run cli fuzz"
  "run:cli fuzz"
  "cli:fuzz"
  "fuzz:cli"
)
pass=0; fail=0
for rule in "${rules[@]}"; do
  dir=${rule%%:*}; banned=${rule#*:}
  [ -d "$dir" ] || continue
  pat=$(printf '%s|' $banned); pat=${pat%|}
  hits=$(grep -rnE "#include \"(\.\./)*($pat)/" "$dir" --include='*.c' --include='*.h' \
           --include='*.cpp' --include='*.hip' --include='*.cu' 2>/dev/null)
  if [ -n "$hits" ]; then
    echo "FAIL $dir includes from a layer above it ($banned):"; echo "$hits" | sed 's/^/  /'
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
done
# Inside kernels/: the variants under test (families, half/, mutants/) never include the
# harness that makes their inputs and judges their outputs (kernels/harness/), so a variant
# cannot lean on the code that checks it.
if [ -d kernels ]; then
  hits=$(grep -rnE '#include "(\.\./)*(kernels/)?harness/' kernels --include='*.c' \
           --include='*.h' --include='*.cpp' --include='*.hip' --include='*.cu' 2>/dev/null |
           grep -v '^kernels/harness/')
  if [ -n "$hits" ]; then
    echo "FAIL kernels/ variants include the harness (kernels/harness/):"
    echo "$hits" | sed 's/^/  /'
    fail=$((fail + 1))
  else
    pass=$((pass + 1))
  fi
fi
echo "layer check: $pass passed, $fail failed"
# Inside run/: no module depends on another that depends back on it (includes or calls).
if [ -d run ]; then python3 "$here/check_cycles.py" run || fail=$((fail + 1)); fi
[ "$fail" -eq 0 ]

#!/usr/bin/env bash
# Host C code must be warning-clean under gcc 12 as well as clang-19 (the main build).
set -euo pipefail
cd "$(dirname "$0")/.."
fail=0; n=0
for f in model/*.c oracle/*.c kernels/*.c kernels/harness/*.c run/*.c cli/*.c fuzz/*.c; do
  n=$((n + 1))
  if ! gcc -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L -I. -Iinclude -fsyntax-only "$f"; then
    echo "gcc: $f has warnings or errors"; fail=$((fail + 1))
  fi
done
echo "gcc check: $((n - fail)) passed, $fail failed"
[ "$fail" -eq 0 ]

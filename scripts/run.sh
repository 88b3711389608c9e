#!/usr/bin/env bash
# The main job: set-up, build, then a short look for bugs on the default backend (sim).
# Runs the seeds' boundary cases for every op and distribution through the CLI and prints
# the verdict tables. (A libFuzzer campaign, scripts/fuzz.sh, takes over once it exists.)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/bootstrap.sh
cmake --preset sim >/dev/null
cmake --build --preset sim -j "$(nproc)"
RF=build/redfuzz
status=0
for n in 0 1 31 32 33 255 256 257 1027; do
  for dist in alternating ones uniform negative wide; do
    for op in sum max argmax; do
      $RF run --op "$op" --n "$n" --dist "$dist" || status=1
    done
  done
done
for shape in 1x1 2x31 3x32 4x33 2x255 3x257; do
  for dist in uniform shifted-rows equal-max negative; do
    $RF run --op softmax --rows "${shape%x*}" --cols "${shape#*x}" --dist "$dist" || status=1
  done
done
exit $status

#!/usr/bin/env bash
# Under a small `ulimit -v` the simulator exits with a message (status 2) or finishes: never
# SIGABRT (issue 35: a failed mmap of a fiber stack or the LDS arena, or std::bad_alloc,
# aborted), never SIGSEGV (an unchecked host buffer of the runner: the softmax oracle's rows),
# and never a `launch-error` verdict blamed on every variant (the batch's buffers did not fit). The limit that makes a run fail depends on the build and the libraries, so a
# range of limits is tried: none may end by a signal, and one must give the message.
#   memory-limit.sh REDFUZZ
set -uo pipefail
RF=$(realpath "$1")
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
bad=0 refused=0
for kb in 10000 14000 18000 24000 32000 48000; do
  for args in "run --op sum --n 200000" "sweep --op sum,max --n 1,1000,100000 --quiet" \
              "run --op softmax --shape 64x4096 --dist wide"; do
    (ulimit -v "$kb"; exec "$RF" $args) > "$TMP/out" 2>&1 </dev/null
    rc=$?
    # 127: the dynamic loader itself could not map the program (before redfuzz runs at all)
    if [ "$rc" = 127 ] && grep -q "error while loading shared libraries" "$TMP/out"; then continue; fi
    if [ "$rc" -gt 2 ] || grep -q "launch-error" "$TMP/out"; then
      bad=1
      echo "FAIL: ulimit -v $kb, redfuzz $args: exit $rc (a signal, or a launch-error verdict?):"
      tail -5 "$TMP/out" | sed 's/^/    /'
    elif [ "$rc" = 2 ] && grep -q "out of memory: .*allow the process more memory" "$TMP/out"; then
      refused=$((refused + 1))
    fi
  done
done
if [ "$refused" = 0 ]; then
  bad=1
  echo "FAIL: no limit made the simulator run out of memory (the check proved nothing)"
fi
echo "memory limits: $refused runs refused with the message, none aborted: $([ $bad = 0 ] && echo ok || echo FAILED)"
[ "$bad" = 0 ]

#!/usr/bin/env bash
# scripts/lib/build_lock.sh: two builds of one folder started at once run one after the other
# (the second says it waits), where two ninjas in one folder broke a campaign's build.
#   build-lock.sh SRC
set -uo pipefail
SRC=$1
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
RF_PROG=build-lock
source "$SRC/scripts/lib/build_lock.sh"
# A stand-in build: fails (exit 9) when another is inside the folder at the same time.
mkdir -p "$TMP/build dir"
build() { mkdir "$TMP/build dir/inside" 2>/dev/null || return 9; sleep 1; rmdir "$TMP/build dir/inside"; }
rf_build_locked "$TMP/build dir" build 2>"$TMP/err1" & p1=$!
sleep 0.2
rf_build_locked "$TMP/build dir" build 2>"$TMP/err2" & p2=$!
wait $p1; r1=$?; wait $p2; r2=$?
fail=0
if [ $r1 -eq 0 ] && [ $r2 -eq 0 ]; then echo "ok   two builds at once: both exit 0, one after the other"
else echo "FAIL: two builds at once: exits $r1 and $r2 (9: they overlapped)"; fail=1; fi
if grep -q "build-lock: waiting for another build of $TMP/build dir to finish" "$TMP/err2"; then
  echo "ok   the second says it waits"
else echo "FAIL: the second did not say it waits: $(cat "$TMP/err2")"; fail=1; fi
rf_build_locked "$TMP/build dir" false; r=$?
[ $r -eq 1 ] && echo "ok   a failing build's status comes back (1)" || { echo "FAIL: status $r, expected 1"; fail=1; }
exit $fail

#!/usr/bin/env bash
# Ctrl-C (SIGINT) and SIGTERM during long sweep / study / bench / replay runs: each must stop
# within seconds, print its partial summary, end its output with a whole line, and exit 128 +
# the signal.   interrupt.sh REDFUZZ SRC
set -uo pipefail
RF=$(realpath "$1") SRC=$2
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
fail=0
# A folder of many small cases, so replay is long enough to interrupt.
mkdir -p "$TMP/many"
for i in $(seq 1 400); do printf 'op=sum\nn=%d\ndist=uniform\n' $((i * 97)) > "$TMP/many/c$i.case"; done

check() {   # NAME SIGNAL SUMMARY-REGEX ARGS...
  local name=$1 sig=$2 summary=$3; shift 3
  (cd "$TMP" && exec "$RF" "$@") > "$TMP/$name.out" 2> "$TMP/$name.err" &
  local pid=$!
  sleep 2
  kill -"$sig" "$pid"
  local waited=0
  while kill -0 "$pid" 2>/dev/null && [ $waited -lt 60 ]; do sleep 1; waited=$((waited + 1)); done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL "$pid"; echo "FAIL $name: still running 60 s after SIG$sig"; fail=1; return
  fi
  wait "$pid"; local rc=$?
  local want=$((128 + $(kill -l "$sig")))
  local all; all=$(cat "$TMP/$name.out" "$TMP/$name.err")
  if [ "$rc" != "$want" ]; then echo "FAIL $name: exit $rc, expected $want"; fail=1; fi
  if ! [[ "$all" =~ $summary ]]; then echo "FAIL $name: no partial summary matching /$summary/"; fail=1; fi
  # No half-written last line: stdout is empty or ends with a newline.
  if [ -s "$TMP/$name.out" ] && [ "$(tail -c 1 "$TMP/$name.out" | od -An -c | tr -d ' ')" != '\n' ]; then
    echo "FAIL $name: the last line of stdout is cut: $(tail -c 80 "$TMP/$name.out")"; fail=1
  fi
  [ $fail -eq 0 ] && echo "ok   $name: exit $rc after SIG$sig"
  tail -n 3 "$TMP/$name.out" | sed 's/^/     /'
}

check sweep INT 'sweep: interrupted \(signal 2\).*[0-9]+ passed, [0-9]+ failed' \
  sweep --op sum --dist all --n 1000..1063 --seed 1..64 --schedule all
check sweep-term TERM 'sweep: interrupted \(signal 15\)' \
  sweep --op sum --dist all --n 1000..1063 --seed 1..64 --schedule all
check study INT 'study: interrupted \(signal 2\) after [0-9]+ of [0-9]+ runs' \
  study --variant sum/two-pass,sum/atomic --dist uniform --n-range 2^10..2^16 --seeds 1000 --out "$TMP/study"
check bench INT 'bench: interrupted \(signal 2\)' \
  bench --op sum --n 4096,8192 --warmup 0 --repeat 20000
check replay INT 'replay: interrupted \(signal 2\).*[0-9]+ passed, [0-9]+ failed' replay "$TMP/many"
[ -s "$TMP/study/runs.csv" ] || { echo "FAIL study: no runs.csv for the runs done"; fail=1; }
exit $fail

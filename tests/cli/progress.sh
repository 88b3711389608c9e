#!/usr/bin/env bash
# Long commands write progress to stderr when it is a pipe, not only to a terminal: with a
# small REDFUZZ_PROGRESS_MS each of sweep, replay, study, tolerance and bench prints lines of
# "redfuzz CMD: DONE/TOTAL UNIT (P%), S s; on ..." while it runs (sweep also the variant whose
# launch runs then); REDFUZZ_PROGRESS_MS=0 prints none; stdout never holds one.
#   tests/cli/progress.sh REDFUZZ SRC
set -uo pipefail
RF=${1:?usage: progress.sh REDFUZZ SRC}
SRC=${2:?usage: progress.sh REDFUZZ SRC}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
bad=0
# expect NAME MS REGEX|-  -- ARGS: stderr holds REGEX (or, with -, no progress line at all);
# stdout holds no progress line; the exit status is the command's own (0 or 1 here).
expect() {
  local name=$1 ms=$2 re=$3; shift 4
  REDFUZZ_PROGRESS_MS=$ms "$RF" "$@" > "$T/out" 2> "$T/err" < /dev/null
  local rc=$?
  if [ $rc -gt 1 ]; then
    echo "FAIL $name: exit status $rc"; sed 's/^/  /' "$T/err" | tail -n 20; bad=1; return
  fi
  if grep -qE '^redfuzz [a-z]+: [0-9]+(/[0-9]+)? [a-z]+' "$T/out"; then
    echo "FAIL $name: a progress line on stdout"; bad=1; return
  fi
  if [ "$re" = - ]; then
    if grep -qE '^redfuzz [a-z]+: [0-9]+(/[0-9]+)? [a-z]+.*, [0-9]+ s' "$T/err"; then
      echo "FAIL $name: progress lines with REDFUZZ_PROGRESS_MS=0:"; head -n 3 "$T/err"; bad=1; return
    fi
  elif ! grep -qE -- "$re" "$T/err"; then
    echo "FAIL $name: stderr lacks /$re/:"; head -n 20 "$T/err" | sed 's/^/  /'; bad=1; return
  fi
  echo "ok   $name ($(grep -cE '^redfuzz [a-z]+: [0-9]' "$T/err") progress lines)"
}
# A sweep whose launches are long (one element a thread): lines name the case and, while a
# launch runs, the variant.
sweep=(sweep --op sum --variant sum/atomic --n 2^18 --dist uniform,ones --block 32)
expect sweep 2 '^redfuzz sweep: [0-9]+/2 cases \([0-9]+%\), [0-9]+ s; on case [0-9]+: sum n=262144 f32 (uniform|ones)' -- "${sweep[@]}"
expect sweep_running 2 '; running sum/atomic$' -- "${sweep[@]}"
expect sweep_off 0 - -- "${sweep[@]}"
expect replay 2 "^redfuzz replay: [0-9]+/3 files \\([0-9]+%\\), [0-9]+ s; on $SRC/regressions/" -- \
  replay "$SRC/regressions/sum-mut-drop-tail-wrong-1e3684ac.case" \
         "$SRC/regressions/max-mut-pad-zero-wrong-49308b61.case" \
         "$SRC/regressions/softmax-mut-mask-zero-wrong-bc7e0e85.case"
expect study 2 '^redfuzz study: [0-9]+/3 runs \([0-9]+%\), [0-9]+ s; on sum/atomic n=[0-9]+ uniform seed 1' -- \
  study --variant sum/atomic --dist uniform --n-range 2^15..2^16 --seeds 1 --out "$T/study"
expect tolerance 2 '^redfuzz tolerance: [0-9]+/3 runs \([0-9]+%\), [0-9]+ s; on sum/atomic n=[0-9]+ uniform seed 1' -- \
  tolerance --variant sum/atomic --dist uniform --n-range 2^15..2^16 --seeds 1
expect tolerance_rows 2 '^redfuzz tolerance: [0-9]+/[0-9]+ runs \([0-9]+%\), [0-9]+ s; on softmax/[a-z0-9-]+ on softmax [0-9]+x[0-9]+ f32 uniform seed 1' -- \
  tolerance --op softmax --variant softmax/block-lds --dist uniform --rows-range 2..3 --cols-range 2^9..2^10 --seeds 1
expect bench 2 '^redfuzz bench: 0/1 sizes \(0%\), [0-9]+ s; on sum/atomic on sum n=65536 f32 uniform, block 0' -- \
  bench --op sum --variant sum/atomic --n 65536 --warmup 1 --repeat 3
[ $bad = 0 ] && echo "progress: every command writes its lines to a pipe"
exit $bad

#!/usr/bin/env bash
# Write errors are errors (issue 35): under `ulimit -f 0` (EFBIG; SIGXFSZ ignored) shrink,
# study and encode exit 2 naming the file and the error and leave no file behind (no 0-byte
# .case or CSV); with standard output on /dev/full (ENOSPC) every command that prints exits 2
# with a message instead of a silent 0.
#   write-errors.sh REDFUZZ SRC
. "$(dirname "$0")/lib.sh" "$@"   # RF, SRC, TMP (removed at exit; the working folder)
failing_case fail.case
printf 'op=sum\nn=33\n' > ok.case
"$RF" encode ok.case ok.bin || { echo "FAIL: cannot make ok.bin"; exit 1; }

# ---- ulimit -f 0: a file cannot grow past 0 bytes -----------------------------------------------
# stdout and stderr go to a pipe (not limited); only the files the command writes are.
mkdir r
out=$( (ulimit -f 0; exec "$RF" shrink fail.case --out r) 2>&1); rc=$?
expect shrink-efbig 2 'shrink: r/max-mut-[a-z0-9-]+-[0-9a-f]{8}\.case: cannot write: File too large \(nothing written\)' $rc "$out"
check shrink-efbig-nothing-left test -z "$(ls -A r)"
out=$( (ulimit -f 0; exec "$RF" study --variant cpu/pairwise --dist uniform --n-range 16..32 --seeds 1 --out st) 2>&1); rc=$?
expect study-efbig 2 'study: st/runs.csv: cannot write: File too large' $rc "$out"
check study-efbig-no-wrote bash -c "! grep -q wrote <<< \"\$1\"" _ "$out"
check study-efbig-nothing-left test -z "$(ls -A st)"
out=$( (ulimit -f 0; exec "$RF" encode ok.case x.bin) 2>&1); rc=$?
expect encode-efbig 2 'encode: OUT.bin: cannot write x.bin: x.bin: cannot write: File too large' $rc "$out"
check encode-efbig-nothing-left test ! -e x.bin
check efbig-no-temp clean_folder .

# ---- standard output on /dev/full ----------------------------------------------------------------
full() {   # NAME ARGS...: exit 2 and the message naming the command and ENOSPC
  local name=$1; shift
  local out rc
  out=$("$RF" "$@" 2>&1 >/dev/full); rc=$?
  expect "full-$name" 2 "redfuzz [a-z]+: standard output: write error: No space left on device" $rc "$out"
}
full decode decode ok.bin
full run run --op sum --n 100
full run-json run --op sum --n 100 --json
full list list
full list-json list --json
full replay replay ok.case
full sweep-json sweep --op sum --n 100,200 --json
full study study --variant cpu/pairwise --dist uniform --n-range 16..16 --seeds 1 --out st2
full shrink shrink fail.case --out r2
check full-shrink-wrote-nothing test ! -e r2
full bench bench --op sum --n 256 --warmup 0 --repeat 1
full help run --help
full main-help --help
exit $fail

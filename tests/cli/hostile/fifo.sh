#!/usr/bin/env bash
# FIFOs (issue 35): nothing waits for a writer. replay of a folder holding a FIFO, and
# run --case, decode, shrink and encode of a FIFO, are refused at once with a message (each
# under `timeout -k 2 10`: 124 or 137 would be the old hang, which ignored the SIGTERM).
#   fifo.sh REDFUZZ SRC
. "$(dirname "$0")/lib.sh" "$@"   # RF, SRC, TMP (removed at exit; the working folder)
mkdir dir
printf 'op=sum\nn=33\n' > dir/a.case
mkfifo dir/b.case pipe
msg='is a FIFO \(named pipe\); not read, it could block'

out=$(timeout -k 2 10 "$RF" replay dir 2>&1); rc=$?
expect replay-folder-fifo 2 "ok   dir/a.case .*ERROR dir/b.case: $msg.*replay: 2 files: 1 matched, 0 mismatched, 1 unreadable" $rc "$out"
out=$(timeout -k 2 10 "$RF" replay pipe 2>&1); rc=$?
expect replay-fifo 2 "ERROR pipe: $msg" $rc "$out"
out=$(timeout -k 2 10 "$RF" run --case pipe 2>&1); rc=$?
expect run-case-fifo 2 "run: --case: pipe: $msg" $rc "$out"
out=$(timeout -k 2 10 "$RF" decode pipe 2>&1); rc=$?
expect decode-fifo 2 "decode: FILE: pipe: $msg" $rc "$out"
out=$(timeout -k 2 10 "$RF" shrink pipe --out r 2>&1); rc=$?
expect shrink-fifo 2 "shrink: FILE: pipe: $msg" $rc "$out"
out=$(timeout -k 2 10 "$RF" encode pipe x.bin 2>&1); rc=$?
expect encode-fifo 2 "encode: pipe: $msg" $rc "$out"
check fifo-nothing-written test ! -e x.bin -a ! -e r
exit $fail

#!/usr/bin/env bash
# A closed pipe ends the command (issue 35): with SIGPIPE ignored, `replay | head -1` and
# `sweep --json | head -1` stop at the next record (EPIPE), exit 2, and say how much work was
# done; they do not run to the end.
#   epipe.sh REDFUZZ SRC
. "$(dirname "$0")/lib.sh" "$@"   # RF, SRC, TMP (removed at exit; the working folder)
mkdir many
for i in $(seq 1 300); do printf 'op=sum\nn=%d\n' $((i + 100)) > "many/c$i.case"; done
trap '' PIPE

"$RF" replay many 2> err.txt | head -n 1 > head.txt; rc=${PIPESTATUS[0]}
expect replay-epipe 2 'replay: standard output: write error: Broken pipe.*replay: stopped after [0-9]+ files' $rc "$(cat err.txt)"
n=$(sed -n 's/^replay: stopped after \([0-9]*\) files.*/\1/p' err.txt)
check replay-epipe-stopped-early test "${n:-300}" -lt 100
check replay-epipe-first-line grep -q '^ok   many/c1.case' head.txt

# 64 x 64 = 4096 cases; a batch or two at most after the pipe closes.
"$RF" sweep --op sum --n 1000..1063 --seed 1..64 --json 2> err.txt | head -n 1 > head.txt
rc=${PIPESTATUS[0]}
expect sweep-json-epipe 2 'sweep: standard output: write error: Broken pipe.*sweep: stopped after [0-9]+ cases' $rc "$(cat err.txt)"
n=$(sed -n 's/^sweep: stopped after \([0-9]*\) cases.*/\1/p' err.txt)
check sweep-epipe-stopped-early test "${n:-4096}" -lt 1024
check sweep-epipe-first-line grep -q '^{' head.txt
exit $fail

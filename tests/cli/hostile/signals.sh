#!/usr/bin/env bash
# SIGTERM during replay (issue 35): the summary so far, whole lines, exit 143 (128 + 15),
# within seconds; also when the folder holds a FIFO, on which replay once blocked in open()
# (restarted after each signal by SA_RESTART, so `timeout` could not end it).
#   signals.sh REDFUZZ SRC
. "$(dirname "$0")/lib.sh" "$@"   # RF, SRC, TMP (removed at exit; the working folder)
mkdir many
for i in $(seq 1 400); do printf 'op=sum\nn=%d\ndist=uniform\n' $((i * 97)) > "many/c$i.case"; done
mkfifo many/c0.case   # first in name order

"$RF" replay many > out.txt 2> err.txt &
pid=$!
sleep 1
kill -TERM $pid
waited=0
while kill -0 $pid 2>/dev/null && [ $waited -lt 30 ]; do sleep 1; waited=$((waited + 1)); done
if kill -0 $pid 2>/dev/null; then
  kill -KILL $pid; echo "FAIL replay-sigterm: still running 30 s after SIGTERM"; exit 1
fi
wait $pid; rc=$?
expect replay-sigterm 143 'ERROR many/c0.case: is a FIFO.*replay: interrupted \(signal 15\).*replay: [0-9]+ files: [0-9]+ matched.*[0-9]+ passed, [0-9]+ failed' $rc "$(cat out.txt err.txt)"
check replay-sigterm-whole-lines test "$(tail -c 1 out.txt | od -An -c | tr -d ' ')" = '\n'
done_files=$(sed -n 's/^replay: \([0-9]*\) files:.*/\1/p' out.txt)
check replay-sigterm-stopped-early test "${done_files:-401}" -lt 401
exit $fail

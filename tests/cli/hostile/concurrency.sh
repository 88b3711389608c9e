#!/usr/bin/env bash
# Two writers and a reader on one regressions folder (issue 35): shrink writes a regression
# again and again (removed before each, so each is a new write) while replay loops on the
# folder. replay may find no file, but never a half-written one: every `ok` holds all the
# expect lines shrink writes, and no replay reports an empty, cut or expectation-less file.
#   concurrency.sh REDFUZZ SRC
. "$(dirname "$0")/lib.sh" "$@"   # RF, SRC, TMP (removed at exit; the working folder)
failing_case fail.case
"$RF" shrink fail.case --out r > first.txt 2>&1 || { echo "FAIL: first shrink"; exit 1; }
file=$(tail -n 1 first.txt)
want=$(grep -c '^expect ' "$file")

( for i in $(seq 1 15); do rm -f r/*.case; "$RF" shrink fail.case --out r > /dev/null 2>&1; done
  touch writer.done ) &
writer=$!
loops=0
while [ ! -e writer.done ] && [ $loops -lt 400 ]; do
  "$RF" replay r >> replays.txt 2>&1
  loops=$((loops + 1))
done
wait $writer
oks=$(grep -c '^ok ' replays.txt)
partial=$(grep '^ok ' replays.txt | grep -vc ", $want expectations)")
echo "     $loops replays, $oks of them ok, while 15 shrinks rewrote the file"
check concurrent-no-partial-ok test "$partial" -eq 0
check concurrent-no-cut-file bash -c '! grep -E "empty|no newline|without expect lines|^FAIL" replays.txt'
check concurrent-some-ok test "$oks" -gt 0
check concurrent-no-temp-left clean_folder r
exit $fail

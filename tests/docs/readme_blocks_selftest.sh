#!/usr/bin/env bash
# The README block runner fails when a block breaks, names the block and shows its output;
# passes when every block passes; skips tagged blocks with their reason; refuses a fence
# that is neither sh nor text; and never reports success when no block ran.
#   tests/docs/readme_blocks_selftest.sh RUNNER
set -uo pipefail
RUN=${1:?usage: readme_blocks_selftest.sh tests/docs/readme_blocks.sh}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
mkdir -p "$T/src/scripts" "$T/build/fuzz"
printf '#!/bin/sh\necho tool ran\n' > "$T/build/fuzz/tool"; chmod +x "$T/build/fuzz/tool"
printf 'hello\n' > "$T/src/data.txt"
bad=0
check() {   # check NAME WANT_RC README_TEXT REGEX... : the runner's exit status and output
  local name=$1 want=$2 text=$3; shift 3
  printf '%s' "$text" > "$T/$name.md"
  local out rc
  out=$(bash "$RUN" "$T/$name.md" "$T/src" "$T/build" 2>&1); rc=$?
  if [ "$rc" != "$want" ]; then
    echo "FAIL $name: exit status $rc, want $want"; echo "$out" | sed 's/^/  /'; bad=1; return
  fi
  for re in "$@"; do
    if ! grep -qE -- "$re" <<< "$out"; then
      echo "FAIL $name: output lacks /$re/"; echo "$out" | sed 's/^/  /'; bad=1; return
    fi
  done
  echo "ok   $name"
}
F='```'
# Blocks run in order in the copy, see the linked build, and pass; tags are skipped by name.
check passing 0 "# t
$F sh
cat data.txt > copied.txt
build/fuzz/tool
$F
$F text
output, not run: false
$F
$F sh
grep -q hello copied.txt
$F
$F sh gpu
nvidia-smi
$F
$F sh slow
sleep 600
$F
$F sh ci
exit 1
$F
" "block 1 \(line 3\) passed" "block 2 \(line 10\) passed" \
  "block 3 \(line 13\) skipped: needs a GPU: nvidia-smi" "block 4 .* skipped: takes minutes" \
  "block 5 .* skipped: CI's own command" \
  "5 command blocks: 2 passed, 0 failed, 3 skipped"
# A broken block fails the test, with the block and its output; the blocks after it still run.
check broken 1 "# t
$F sh
echo first
$F
$F sh
build/fuzz/tool
ls no-such-file-here
echo not reached
$F
$F sh
echo after
$F
" "block 2 \(line 6 of .*broken.md\) FAILED with exit status 2" "    \| ls no-such-file-here" \
  "    > .*no-such-file-here" "block 3 \(line 11\) passed" "3 command blocks: 2 passed, 1 failed"
# A failing command inside a pipe fails its block too (pipefail).
check pipe 1 "$F sh
false | cat
$F
" "block 1 .* FAILED with exit status 1"
# A fence with another language (or none) is refused: a command block cannot hide.
check unlabelled 2 "$F
rm -rf /
$F
" "must be \`\`\`sh \(commands, run by this test\) or \`\`\`text"
check badtag 2 "$F sh later
true
$F
" "unknown tag \"later\""
# Nothing ran: never a success.
check nothing 1 "$F sh gpu
true
$F
" "no block ran: nothing was tested"
check unclosed 2 "$F sh
true
" "never closed"
[ $bad = 0 ] && echo "readme_blocks self-test: every case as expected"
exit $bad

# Shared by the issue-35 hostile scripts (files.sh, write-errors.sh, fifo.sh, signals.sh,
# epipe.sh, concurrency.sh), sourced with the script's arguments REDFUZZ SRC: sets RF (the
# binary, absolute) and SRC, and works in a fresh folder TMP, removed at exit (made writable
# first: files.sh takes write permission away inside it).
set -uo pipefail
RF=$(realpath "$1") SRC=$2
TMP=$(mktemp -d); trap 'chmod -R u+w "$TMP"; rm -rf "$TMP"' EXIT
cd "$TMP" || exit 1
fail=0

# expect NAME WANT-EXIT REGEX EXIT OUTPUT: the exit status and the message.
expect() {
  local name=$1 want=$2 regex=$3 rc=$4 out=$5
  if [ "$rc" != "$want" ]; then
    echo "FAIL $name: exit $rc, expected $want"; echo "$out" | tail -n 5 | sed 's/^/     /'; fail=1
  elif ! [[ "$out" =~ $regex ]]; then
    echo "FAIL $name: output does not match /$regex/"; echo "$out" | tail -n 5 | sed 's/^/     /'
    fail=1
  else
    echo "ok   $name"
  fi
}

# check NAME CONDITION-WORDS...: a plain assertion (files kept, nothing left behind).
check() {
  local name=$1; shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name: '$*' is false"; fail=1; fi
}

# No temporary file (.rf-*.tmp) and no empty file left in the folder.
clean_folder() {
  [ -z "$(find "$1" -name '.rf-*' -print -quit)" ] && [ -z "$(find "$1" -type f -empty -print -quit)" ]
}

# A case on which max mutants fail (max/mut-wave-no-pad first): shrink has work to do.
failing_case() {
  printf 'op=max\nn=100\nseed=1\ndist=uniform\n' > "$1"
}

#!/usr/bin/env bash
# Runs every command block of the README as written, in order, in a temporary copy of the
# checkout, and fails with the block, its line and its output when one fails.
#   tests/docs/readme_blocks.sh [--all] [--keep] README SRC [BUILD]
# README: the Markdown file; SRC: the checkout it describes (copied, build folders, out/ and
# .git left out); BUILD: a built simulator tree, linked as build/ in the copy (ctest passes
# its own). Without BUILD, or with --all, nothing is linked: the blocks build what they need.
#
# Every fenced block is ```sh (commands: run) or ```text (output: not run); any other fence
# is an error, so a command block cannot hide from this test. A ```sh block may carry tags
# after the language, each saying why this test does not run it by default:
#   slow   takes minutes (a campaign, the main job): run only with --all
#   build  configures and builds a tree: run only with --all, or without BUILD
#   gpu    needs a GPU: never run here (no device on CI)
#   ci     CI's own command (the whole test suite, of which this test is a part): never run
# Each skipped block is listed with its reason. Each run block runs in a new `bash -e -o
# pipefail` in the copy's root (files a block writes are there for the next; shell variables
# are not), stdin from /dev/null, at most RF_README_BLOCK_TIMEOUT seconds (default 600).
# Exit status: 0 every run block passed (at least one ran), 1 a block failed or none ran,
# 2 bad usage or a README this test cannot read.
set -uo pipefail
ALL=0 KEEP=0
while [ $# -gt 0 ]; do
  case "$1" in
    --all) ALL=1; shift;;
    --keep) KEEP=1; shift;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$0"; exit 0;;
    -*) echo "readme_blocks: unknown option '$1' (allowed: --all, --keep)" >&2; exit 2;;
    *) break;;
  esac
done
[ $# -ge 2 ] && [ $# -le 3 ] || { echo "readme_blocks: usage: readme_blocks.sh [--all] [--keep] README SRC [BUILD]" >&2; exit 2; }
README=$1 SRC=$2 BUILD=${3:-}
[ -f "$README" ] || { echo "readme_blocks: README '$README' is not a file" >&2; exit 2; }
[ -d "$SRC" ] || { echo "readme_blocks: SRC '$SRC' is not a folder" >&2; exit 2; }
[ -z "$BUILD" ] || [ -d "$BUILD" ] || { echo "readme_blocks: BUILD '$BUILD' is not a folder" >&2; exit 2; }
[ "$ALL" = 1 ] && BUILD=""
TIMEOUT=${RF_README_BLOCK_TIMEOUT:-600}
[[ "$TIMEOUT" =~ ^[1-9][0-9]*$ ]] || { echo "readme_blocks: RF_README_BLOCK_TIMEOUT '$TIMEOUT' (allowed: a positive number of seconds)" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/readme-blocks.XXXXXX")
trap '[ "$KEEP" = 1 ] && echo "readme_blocks: kept $WORK" || rm -rf "$WORK"' EXIT
BLOCKS=$WORK/.blocks
mkdir -p "$BLOCKS" "$WORK/copy"

# The blocks, one file each (N.sh), with N.meta: "LINE TAGS...". A fence is ``` at the start
# of a line; its info string's first word is the language.
awk -v dir="$BLOCKS" '
  function fail(msg) { printf "%s:%d: %s\n", FILENAME, NR, msg > "/dev/stderr"; bad = 1; exit 2 }
  /^```/ {
    if (!open) {
      info = substr($0, 4); sub(/^[ \t]+/, "", info); sub(/[ \t]+$/, "", info)
      n_words = split(info, w, /[ \t]+/)
      lang = n_words ? w[1] : ""
      if (lang != "sh" && lang != "text")
        fail("a fenced block must be ```sh (commands, run by this test) or ```text (output), not ```" info)
      open = 1; kind = lang
      if (kind == "sh") {
        k++; tags = ""
        for (i = 2; i <= n_words; i++) {
          if (w[i] !~ /^(slow|build|gpu|ci)$/) fail("unknown tag \"" w[i] "\" (allowed: slow, build, gpu, ci)")
          tags = tags " " w[i]
        }
        printf "%d%s\n", NR + 1, tags > (dir "/" k ".meta"); close(dir "/" k ".meta")
        printf "" > (dir "/" k ".sh")
      }
      next
    }
    if ($0 != "```") fail("a closing fence must be ``` alone")
    open = 0; next
  }
  open && kind == "sh" { print >> (dir "/" k ".sh") }
  END { if (bad) exit 2; if (open) { printf "%s: a block is never closed\n", FILENAME > "/dev/stderr"; exit 2 }; printf "%d\n", k > (dir "/count") }
' "$README" || exit 2
COUNT=$(cat "$BLOCKS/count")

# The copy: the checkout without its build folders, outputs and git metadata.
tar -C "$SRC" --exclude='./build' --exclude='./build-*' --exclude='./out' --exclude='./.git' \
    --exclude='./findings' -cf - . | tar -C "$WORK/copy" -xf - ||
  { echo "readme_blocks: cannot copy $SRC" >&2; exit 2; }
[ -n "$BUILD" ] && ln -s "$(cd "$BUILD" && pwd)" "$WORK/copy/build"

ran=0 failed=0 skipped=0
for ((i = 1; i <= COUNT; i++)); do
  read -r line tags < "$BLOCKS/$i.meta"
  why=""
  for t in $tags; do
    case "$t" in
      gpu) why="needs a GPU";;
      ci) why="CI's own command (the whole test suite, of which this test is a part)";;
      slow) [ "$ALL" = 1 ] || why="takes minutes (run with --all)";;
      build) [ -z "$BUILD" ] || why="builds the tree this test already runs in (run with --all to build it)";;
    esac
    [ -n "$why" ] && break
  done
  first=$(grep -m1 -vE '^[[:space:]]*(#|$)' "$BLOCKS/$i.sh" || true)
  if [ -n "$why" ]; then
    echo "readme_blocks: block $i (line $line) skipped: $why: ${first:0:70}"
    skipped=$((skipped + 1))
    continue
  fi
  start=$(date +%s)
  (cd "$WORK/copy" && timeout "$TIMEOUT" bash -e -o pipefail "$BLOCKS/$i.sh") \
    < /dev/null > "$BLOCKS/$i.log" 2>&1
  rc=$?
  secs=$(( $(date +%s) - start ))
  if [ $rc -eq 0 ]; then
    echo "readme_blocks: block $i (line $line) passed in ${secs}s: ${first:0:70}"
    ran=$((ran + 1))
  else
    failed=$((failed + 1))
    [ $rc -eq 124 ] && rc="124 (timed out after ${TIMEOUT}s)"
    echo "readme_blocks: block $i (line $line of $README) FAILED with exit status $rc after ${secs}s:"
    sed 's/^/    | /' "$BLOCKS/$i.sh"
    echo "  its output (the last 60 lines):"
    tail -n 60 "$BLOCKS/$i.log" | sed 's/^/    > /'
  fi
done
echo "readme_blocks: $COUNT command blocks: $ran passed, $failed failed, $skipped skipped"
if [ $failed -gt 0 ]; then exit 1; fi
if [ $ran -eq 0 ]; then echo "readme_blocks: no block ran: nothing was tested" >&2; exit 1; fi
exit 0

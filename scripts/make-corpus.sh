#!/usr/bin/env bash
# Regenerates the binary seed corpus corpus/bin/*.bin from the text cases corpus/text/*.case
# with `redfuzz encode`, so the corpus always matches the codec version.
#   scripts/make-corpus.sh [--build DIR] [--check]
# --check: do not write; exit 1 when a committed .bin no longer decodes to its text case. A
#          .bin written by an older codec version still passes while it means the same case:
#          that is the codec's promise (model/case_codec.c), and this checks it on every file.
set -euo pipefail
RF_CALLER_DIR=${RF_CALLER_DIR:-$PWD}   # paths given are the caller's (lib/opts.sh)
cd "$(dirname "$0")/.."
RF_PROG="make-corpus.sh"
source scripts/lib/opts.sh
BUILD=build; CHECK=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build) rf_opt_path BUILD "$@"; shift 2;;
    --check) CHECK=1; shift;;
    -h|--help) sed -n '2,5p' "$RF_SELF"; exit 0;;
    *) rf_opt_unknown "$1";;
  esac
done
RF=$BUILD/fuzz/redfuzz
[ -x "$RF" ] || { echo "make-corpus: $RF not built (cmake --preset sim && cmake --build --preset sim)" >&2; exit 2; }
mkdir -p corpus/bin
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
stale=0; n=0
for t in corpus/text/*.case; do
  b=corpus/bin/$(basename "${t%.case}").bin
  rm -f "$tmp/x.bin"   # encode never replaces a different file (docs/CLI.md, "Files written")
  "$RF" encode --fold "$t" "$tmp/x.bin"   # seeds for larger limits than the simulator's
  n=$((n + 1))
  if [ "$CHECK" = 1 ]; then
    "$RF" decode "$tmp/x.bin" >"$tmp/want.case"
    "$RF" decode "$b" >"$tmp/got.case" 2>&1 || true
    cmp -s "$tmp/want.case" "$tmp/got.case" ||
      { echo "stale: $b decodes to another case than $t (regenerate with scripts/make-corpus.sh)"; stale=$((stale + 1)); }
  else
    cp "$tmp/x.bin" "$b"
  fi
done
echo "corpus: $n cases, $stale stale"
[ "$stale" -eq 0 ]

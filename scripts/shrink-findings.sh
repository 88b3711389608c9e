#!/usr/bin/env bash
# Shrinks fuzzer findings (inputs that made the fuzz target abort, from any engine) with
# `redfuzz shrink` and copies each new failure signature into regressions/, as fuzz.sh does
# for libFuzzer's crash-* files. A signature already in regressions/ is not copied again.
#   scripts/shrink-findings.sh --redfuzz BIN [--only LIST] [--out DIR] [--regressions DIR] FILE...
# Prints "new regression: PATH" per new file, then "N new regression(s), M findings shrunk,
# by signature:" and one "count signature" line per signature (the shrunk file's prefix).
set -euo pipefail
RF="" ONLY="" OUT=out/fuzz/shrunk REG=regressions
while [ $# -gt 0 ]; do
  case "$1" in
    --redfuzz) RF=$2; shift 2;;
    --only) ONLY=$2; shift 2;;
    --out) OUT=$2; shift 2;;
    --regressions) REG=$2; shift 2;;
    -h|--help) sed -n '2,7p' "$0"; exit 0;;
    --) shift; break;;
    -*) echo "shrink-findings.sh: unknown option '$1' (see --help)" >&2; exit 2;;
    *) break;;
  esac
done
[ -x "$RF" ] || { echo "shrink-findings.sh: --redfuzz: '$RF' is not an executable redfuzz" >&2; exit 2; }
mkdir -p "$OUT" "$REG"
new=0 shrunk=0 sigs=()
for a in "$@"; do
  [ -f "$a" ] || continue
  sig=$("$RF" shrink "$a" --only "$ONLY" --out "$OUT" 2>/dev/null | tail -n 1 || true)
  [ -f "$sig" ] || continue
  shrunk=$((shrunk + 1))
  base=$(basename "$sig"); prefix=${base%-*}
  sigs+=("$prefix")
  if ls "$REG/$prefix"-*.case >/dev/null 2>&1; then continue; fi   # signature known
  cp "$sig" "$REG/" && new=$((new + 1)) && echo "new regression: $REG/$base"
done
echo "$new new regression(s), $shrunk findings shrunk, by signature:"
if [ ${#sigs[@]} -gt 0 ]; then printf '%s\n' "${sigs[@]}" | sort | uniq -c; fi

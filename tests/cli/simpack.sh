#!/usr/bin/env bash
# scripts/simpack.sh packs the simulator build so that it runs with its own loader and
# libraries only: pack into a temp dir, run `list` through the launcher from elsewhere and see
# (LD_DEBUG=libs) that MPFR and libc came from the pack; then scripts/bench-huge.sh runs the
# pack (--redfuzz DIR/redfuzz, -j 2) at a small n and prints its rows and a summary per size.
#   simpack.sh REDFUZZ SRC
set -uo pipefail
RF=$(realpath "$1") SRC=$(realpath "$2")
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
bash "$SRC/scripts/simpack.sh" --redfuzz "$RF" "$TMP/pack" || fail "simpack.sh exited $?"
for f in redfuzz redfuzz.bin ld-linux-x86-64.so.2 libc.so.6 libmpfr.so.6; do
  [ -e "$TMP/pack/$f" ] || fail "the pack has no $f: $(ls "$TMP/pack")"
done
cd "$TMP" || exit 1
out=$(LD_DEBUG=libs "$TMP/pack/redfuzz" list 2>"$TMP/ld.txt") || fail "the pack's list exited $?"
grep -q '^sum/lds ' <<<"$out" || fail "the pack's list names no sum/lds: $out"
grep -q "calling init: $TMP/pack/libmpfr.so.6" "$TMP/ld.txt" || fail "libmpfr did not come from the pack"
grep -q "calling init: $TMP/pack/libc.so.6" "$TMP/ld.txt" || fail "libc did not come from the pack"
# sizes for the 1-D variants, a shape (a sparse row case past the dense limit) for logsumexp's
bench=$(bash "$SRC/scripts/bench-huge.sh" --redfuzz "$TMP/pack/redfuzz" -j 2 --n "4096 65541 3x70000" \
        sum/unrolled sum/atomic logsumexp/block) || fail "bench-huge.sh on the pack exited $?: $bench"
for re in '^sum/unrolled +4096 +pass ' '^sum/atomic +65541 +pass ' '^logsumexp/block +3x70000 +pass ' \
          '^summary n=4096: 2 passed, 0 failed, 0 unsupported, [0-9.]+ CPU s, max pss [0-9]+ kB$' \
          '^summary n=65541: 2 passed, 0 failed, 0 unsupported,' \
          '^summary n=3x70000: 1 passed, 0 failed, 0 unsupported,'; do
  grep -Eq "$re" <<<"$bench" || fail "bench-huge.sh output lacks /$re/: $bench"
done
! grep -Eq '^(logsumexp/block +(4096|65541)|sum/[a-z]+ +3x70000) ' <<<"$bench" ||
  fail "bench-huge.sh ran a size of the other kind: $bench"
# a launch past the simulator's cap: unsupported, counted as such in the summary
bench=$(REDFUZZ_SIM_MAX_THREADS=1024 bash "$SRC/scripts/bench-huge.sh" --redfuzz "$TMP/pack/redfuzz" \
        --n 65541 sum/atomic)
grep -Eq '^sum/atomic +65541 +unsupported .*REDFUZZ_SIM_MAX_THREADS' <<<"$bench" &&
  grep -q '^summary n=65541: 0 passed, 0 failed, 1 unsupported' <<<"$bench" ||
  fail "REDFUZZ_SIM_MAX_THREADS=1024: $bench"
echo "simpack: ok"

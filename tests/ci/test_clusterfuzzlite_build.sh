#!/usr/bin/env bash
# The ClusterFuzzLite build, run the way OSS-Fuzz's builder runs it: .clusterfuzzlite/build.sh
# with CC, CXX, CFLAGS, CXXFLAGS, LIB_FUZZING_ENGINE, SANITIZER, SRC, OUT and WORK set (the
# values of OSS-Fuzz's base-builder for libFuzzer + AddressSanitizer, with Debian's clang-19),
# into a temporary folder. Checks that $OUT holds the target, its seed corpus zip (every
# corpus/bin file) and its options file, that the target runs seed inputs cleanly, and that it
# aborts on an input that exposes a planted bug (REDFUZZ_ONLY=max/mut-pad-zero).
#   tests/ci/test_clusterfuzzlite_build.sh [--keep DIR]   (DIR: reuse/keep the work folder)
# Exits 0 when every check passed, 1 otherwise.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ "${1:-}" = --keep ]; then t=$(realpath -m "$2"); mkdir -p "$t"
else t=$(mktemp -d); trap 'rm -rf "$t"' EXIT; fi
mkdir -p "$t/src" "$t/out" "$t/work"
ln -sfn "$root" "$t/src/redfuzz"
flags="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link"
fails=0
pass() { echo "PASS $1"; }
fail() { echo "FAIL $1"; fails=$((fails + 1)); }

start=$(date +%s)
if ! env -i PATH="$PATH" HOME="${HOME:-/tmp}" CC=clang-19 CXX=clang++-19 CFLAGS="$flags" CXXFLAGS="$flags" \
     LIB_FUZZING_ENGINE=-fsanitize=fuzzer SANITIZER=address FUZZING_ENGINE=libfuzzer \
     SRC="$t/src" OUT="$t/out" WORK="$t/work" bash "$root/.clusterfuzzlite/build.sh" >"$t/build.log" 2>&1; then
  echo "FAIL build.sh exited non-zero; the end of its log:"; tail -n 30 "$t/build.log"; exit 1
fi
echo "build.sh took $(( $(date +%s) - start ))s"
T=$t/out/redfuzz_fuzz
if [ -x "$T" ]; then pass "target built: \$OUT/redfuzz_fuzz"; else fail "no \$OUT/redfuzz_fuzz"; exit 1; fi
nm "$T" >"$t/symbols" 2>/dev/null   # to a file: grep -q on a pipe would SIGPIPE nm (pipefail)
if grep -q __asan_init "$t/symbols" && grep -q LLVMFuzzerRunDriver "$t/symbols"; then
  pass "built with AddressSanitizer and libFuzzer"
else fail "no AddressSanitizer or libFuzzer symbols in the target"; fi
nseeds=$(find "$root/corpus/bin" -name '*.bin' | wc -l)
nzip=$(unzip -Z1 "$t/out/redfuzz_fuzz_seed_corpus.zip" 2>/dev/null | wc -l)
if [ "$nzip" -eq "$nseeds" ]; then pass "seed corpus zip holds all $nseeds corpus/bin inputs"
else fail "seed corpus zip holds $nzip inputs, corpus/bin has $nseeds"; fi
opt=$t/out/redfuzz_fuzz.options
if grep -qx '\[libfuzzer\]' "$opt" && grep -q '^timeout = ' "$opt" && grep -q '^rss_limit_mb = ' "$opt"; then
  pass "options file: [libfuzzer] with timeout and rss_limit_mb"
else fail "options file missing or incomplete: $opt"; fi
# Run a few seeds from the zip, every correct variant, as the fuzzer would run them.
rm -rf "$t/seeds"; mkdir -p "$t/seeds"
unzip -q -o -d "$t/seeds" "$t/out/redfuzz_fuzz_seed_corpus.zip" 'sum-n1027-*' 'max-n255-*' 'softmax-4x33-*'
mapfile -t few < <(find "$t/seeds" -type f | sort)
if [ "${#few[@]}" -gt 0 ] && timeout 300 "$T" -timeout=60 -rss_limit_mb=8192 "${few[@]}" >"$t/run.log" 2>&1; then
  pass "the target runs ${#few[@]} seed inputs from the zip cleanly"
else fail "the target failed on the seed inputs (${#few[@]}):"; tail -n 20 "$t/run.log"; fi
# A planted bug: max/mut-pad-zero is wrong on all-negative input with n % block != 0.
if ! (REDFUZZ_ONLY=max/mut-pad-zero timeout 120 "$T" "$root/corpus/bin/max-n1027-negative.bin" >"$t/bug.log" 2>&1) &&
   grep -q "ERROR: redfuzz: max/mut-pad-zero wrong" "$t/bug.log"; then
  pass "the target aborts on a planted bug (max/mut-pad-zero on max-n1027-negative)"
else fail "the target did not report max/mut-pad-zero on max-n1027-negative"; fi
if [ "$fails" -eq 0 ]; then echo "clusterfuzzlite build: all checks passed"; exit 0; fi
echo "clusterfuzzlite build: $fails failed"; exit 1

#!/usr/bin/env bash
# Campaigns that ran nothing are errors, exit statuses follow the README's table in every path,
# paths are the caller's, numbers are read and printed the C way (issue 47, causes 2, 6, 8),
# with stand-in builds whose fuzz target starts as the real one does:
#   1. each zero-execution path of each campaign script (fuzz.sh, fuzz.sh --hybrid,
#      fuzz.sh --engine afl, gpu-campaign.sh, mutation-score.sh, coverage.sh, run.sh): an
#      unknown --op, an --only naming no variant, a misspelt and a bad REDFUZZ_* setting, a
#      missing plugin, --time 0, a target that ran no input: exit 2 with the target's own
#      first error line on stderr (they said "no failure found", exit 0);
#   2. an --out that cannot be created: exit 2 (it was 1, "a failure found"); --out naming a
#      folder of the user's files (coverage.sh and fuzz-hybrid.sh removed it whole): refused,
#      the files kept;
#   3. relative --build / --out / --plugin / --pack from another folder: the caller's (fuzz.sh
#      configured a whole build tree in the checkout; study.sh said a folder had no redfuzz);
#   4. a comma-decimal locale (de_DE.UTF-8, made here with localedef when the system has none):
#      fuzz.sh's per-class seconds as the target printed them (they came out as 12,0 for 12.5);
#   5. the exit status of a campaign that found something (1) and of one that found nothing (0)
#      in the paths changed here (fuzz-afl.sh exited 0 with crashes; gpu-campaign.sh at --limit).
#   scripts-exit.sh REDFUZZ SRC
set -uo pipefail
RF=$(realpath "$1") SRC=$(realpath "$2")
TMP=$(mktemp -d "${TMPDIR:-/tmp}/rf exit.XXXXXX")
trap 'chmod -R u+w "$TMP" 2>/dev/null; rm -rf "$TMP"' EXIT
export RF SRC TMP   # for the helpers run under `env VAR=... bash -c`
fail=0 checks=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL: $*"; fail=1; }

# expect NAME WANT REGEX CMD...: runs CMD (in the current folder, stdin closed); the exit status
# must be WANT and stderr must match REGEX (extended; empty: not checked).
expect() {
  local name=$1 want=$2 re=$3 rc
  shift 3
  checks=$((checks + 1))
  "$@" > "$TMP/out" 2> "$TMP/err" < /dev/null; rc=$?
  if [ "$rc" != "$want" ]; then
    bad "$name: exit $rc, expected $want"; sed 's/^/     /' "$TMP/err" | tail -n 5
    tail -n 3 "$TMP/out" | sed 's/^/     out: /'
  elif [ -n "$re" ] && ! grep -qE -- "$re" "$TMP/err"; then
    bad "$name: stderr does not match /$re/"; sed 's/^/     /' "$TMP/err" | tail -n 5
  else
    ok "$name: exit $rc${re:+ ($(grep -m1 -E -- "$re" "$TMP/err" | cut -c1-150))}"
  fi
}

# ---- stand-ins --------------------------------------------------------------------------------
# stub_build DIR: a libFuzzer build whose fuzz target starts as the real one does: it reads
# its settings, loads REDFUZZ_PLUGINS and checks REDFUZZ_ONLY (fuzz/fuzz_target.c) through the
# code every command uses, so it asks this build's `redfuzz list`, and when that refuses it
# prints the reason as the target does ("redfuzz fuzz: ...") and exits 2. Then it "runs":
# libFuzzer's first lines, a status line, one size class's spending with decimal seconds (the
# target's C locale), the final count. STUB_SILENT=1: exits 0 having printed nothing.
# STUB_SLEEP=S: sleeps first. redfuzz is this build's.
stub_build() {
  mkdir -p "$1/fuzz"
  ln -sf "$RF" "$1/fuzz/redfuzz"
  cat > "$1/fuzz/redfuzz_fuzz" <<STUB
#!/usr/bin/env bash
[ "\${STUB_SILENT:-0}" = 1 ] && exit 0
if ! err=\$("$RF" list 2>&1 >/dev/null); then echo "redfuzz fuzz: \${err#redfuzz: }"; exit 2; fi
sleep "\${STUB_SLEEP:-0}"
echo "INFO: Seed: 1"
printf '#2\tINITED cov: 1 ft: 1 corp: 1/1b exec/s: 0 rss: 30Mb\n'
echo "redfuzz fuzz: size class 0 spent: 7 executions, 12.5 s, largest n 33, largest rows 0, largest case 33 elements, 0 past 2^16 elements, 0 past 65535 rows"
echo "stat::number_of_executed_units: 7"
exit 0
STUB
  chmod +x "$1/fuzz/redfuzz_fuzz"
}
stub_build "$TMP/build"
# Stand-in AFL++ tools (fuzz-afl.sh): afl-fuzz writes what STUB_AFL says.
mkdir -p "$TMP/afl bin"
for t in afl-clang-fast afl-clang-fast++; do printf '#!/bin/sh\nexit 0\n' > "$TMP/afl bin/$t"; done
cat > "$TMP/afl bin/afl-fuzz" <<'STUB'
#!/usr/bin/env bash
# -o OUT ...: STUB_AFL=abort (ran nothing), crash (one crash), none (ran, nothing found)
while [ $# -gt 0 ]; do case "$1" in -o) out=$2; shift 2;; -M|-S) name=$2; shift 2;; --) break;; *) shift;; esac; done
case "${STUB_AFL:-none}" in
  abort) echo "[-] PROGRAM ABORT : Fork server handshake failed"; exit 1;;
esac
mkdir -p "$out/$name/crashes"; printf 'execs_done        : 5\nexecs_per_sec     : 5\n' > "$out/$name/fuzzer_stats"
[ "$STUB_AFL" = crash ] && echo x > "$out/$name/crashes/id:000000,sig:06"
exit 0
STUB
chmod +x "$TMP/afl bin/"*
: > "$TMP/afl-driver.a"
mkdir -p "$TMP/caller"
cd "$TMP/caller" || exit 1
# fuzz.sh with the stand-in, quick and quiet: one worker, one second, no shrink, no coverage.
fz0() { bash "$SRC/scripts/fuzz.sh" --build "$TMP/build" --jobs 1 --no-shrink --no-coverage "$@"; }
fz() { fz0 --time 1 "$@"; }

# ---- 1. fuzz.sh: every zero-execution path is exit 2 with the target's own line ----------
expect "fuzz.sh --op frob" 2 "^fuzz.sh: the fuzz target refused to start \(exit 2\), nothing ran: redfuzz fuzz: REDFUZZ_ONLY: 'frob' selects no variant" \
  fz --op frob --out "$TMP/o1"
expect "fuzz.sh --only naming no variant" 2 "nothing ran: redfuzz fuzz: REDFUZZ_ONLY: 'sum/nosuch' selects no variant" \
  fz --only sum/nosuch --out "$TMP/o1"
expect "fuzz.sh under a misspelt setting" 2 "nothing ran: redfuzz fuzz: REDFUZZ_SERAIL: not a redfuzz setting" \
  env REDFUZZ_SERAIL=1 bash -c "$(declare -f fz0 fz); fz --out '$TMP/o1'"
expect "fuzz.sh under a bad setting" 2 "nothing ran: redfuzz fuzz: REDFUZZ_MAX_ELEMS: '0' is out of range" \
  env REDFUZZ_MAX_ELEMS=0 bash -c "$(declare -f fz0 fz); fz --out '$TMP/o1'"
expect "fuzz.sh --plugin missing" 2 "nothing ran: redfuzz fuzz: REDFUZZ_PLUGINS: plugin /nonexistent/p.so: cannot load" \
  fz --plugin /nonexistent/p.so --out "$TMP/o1"
expect "fuzz.sh --time 0" 2 "^fuzz.sh: --time: '0' is not a positive number of seconds" fz0 --time 0 --out "$TMP/o1"
expect "fuzz.sh, a target that ran no input" 2 "^fuzz.sh: the campaign ran no input \(executions: 0\)" \
  env STUB_SILENT=1 bash -c "$(declare -f fz0 fz); fz --out '$TMP/o1'"
# a time past what bash's arithmetic and libFuzzer hold (it wrapped: a campaign of no time),
# a flag given twice or with the flag that sets the same thing (the last one won, silently)
expect "fuzz.sh --time 2^64" 2 "^fuzz.sh: --time: '99999999999999999999' is not a positive number of seconds \(allowed: 1..2147483647\)" \
  fz0 --time 99999999999999999999 --out "$TMP/o1"
expect "run.sh --time 2^64, before it builds anything" 2 "^run.sh: --time: '99999999999999999999' is not a positive number" \
  bash "$SRC/scripts/run.sh" --time 99999999999999999999
# a bad --jobs is refused before a build of minutes (it was checked after configuring and
# building the fuzz tree)
expect "fuzz.sh --jobs 0, before it builds anything" 2 "^fuzz.sh: --jobs: '0' is not a positive number \\(allowed: 1..4096\\)" \
  bash "$SRC/scripts/fuzz.sh" --build "$TMP/no fuzz build" --jobs 0 --time 1 --out "$TMP/o1"
[ ! -e "$TMP/no fuzz build" ] && ok "fuzz.sh --jobs 0 configured no build" || bad "fuzz.sh --jobs 0 started a build"
expect "fuzz.sh --out twice" 2 "^fuzz.sh: --out: given twice \(allowed: once\)" fz --out "$TMP/o1" --out "$TMP/o2"
expect "fuzz.sh --op with --only" 2 "^fuzz.sh: --only: given with --op, which sets the same thing" \
  fz --op sum --only max --out "$TMP/o1"
# and a campaign that ran is 0, its executions counted
expect "fuzz.sh that ran" 0 "" fz --out "$TMP/o1"
grep -q "executions: 7 " "$TMP/out" && ok "fuzz.sh counted the stand-in's executions" ||
  bad "fuzz.sh's executions: $(grep executions "$TMP/out")"

# ---- 2. outputs it cannot make, and folders it must not empty ------------------------------
echo "a file, not a folder" > "$TMP/file"   # no folder can be made under it, root or not
expect "fuzz.sh --out it cannot create" 2 "^fuzz.sh: --out: cannot create the folder '$TMP/file/out/corpus': Not a directory" \
  fz --out "$TMP/file/out"
expect "fuzz.sh --regressions it cannot create" 2 "^fuzz.sh: --regressions: cannot create the folder '$TMP/file/reg'" \
  fz --out "$TMP/o2" --regressions "$TMP/file/reg"
expect "fuzz-afl.sh --out it cannot create" 2 "^fuzz-afl.sh: --out: cannot create the folder" \
  env PATH="$TMP/afl bin:$PATH" AFL_DRIVER="$TMP/afl-driver.a" bash "$SRC/scripts/fuzz-afl.sh" --build "$TMP/build" \
    --jobs 1 --time 1 --out "$TMP/file/afl"
mkdir -p "$TMP/mine"; echo keep > "$TMP/mine/notes.txt"
expect "fuzz-hybrid.sh --out holding the user's files" 2 "^fuzz-hybrid.sh: --out: '$TMP/mine' is not empty and has no .redfuzz-fuzz-hybrid.sh" \
  bash "$SRC/scripts/fuzz.sh" --hybrid --backend sim --build "$TMP/build" --sim-build "$TMP/build" --time 1 \
    --gpu-jobs 1 --sim-jobs 1 --out "$TMP/mine"
[ -f "$TMP/mine/notes.txt" ] && ok "the user's file is still there" || bad "fuzz-hybrid.sh removed the user's --out"

# ---- 3. relative paths are the caller's -------------------------------------------------------
stub_build "$TMP/caller/rel build"
before=$(cd "$SRC" && git status --porcelain --ignored 2>/dev/null | md5sum)
expect "fuzz.sh with a relative --build and --out from another folder" 0 "" \
  bash "$SRC/scripts/fuzz.sh" --build "rel build" --out "rel out" --jobs 1 --time 1 --no-shrink --no-coverage \
    --regressions "rel reg"
[ -d "$TMP/caller/rel out/corpus" ] && [ -d "$TMP/caller/rel reg" ] && [ ! -e "$SRC/rel build" ] &&
  [ ! -e "$SRC/rel out" ] && [ "$(cd "$SRC" && git status --porcelain --ignored 2>/dev/null | md5sum)" = "$before" ] &&
  ok "fuzz.sh: --out and --regressions made in the caller's folder, nothing in the checkout" ||
  bad "fuzz.sh relative paths: $(ls "$TMP/caller"; ls -d "$SRC/rel"* 2>&1)"
expect "fuzz.sh with a relative --plugin" 2 "REDFUZZ_PLUGINS: plugin $TMP/caller/nosuch.so: cannot load" \
  fz --plugin nosuch.so --out "$TMP/o3"
mkdir -p "study build"; ln -sf "$RF" "study build/redfuzz"
expect "study.sh with a relative --build and --out" 0 "" \
  bash "$SRC/scripts/study.sh" --build "study build" --out "study out" --variant cpu/pairwise --dist uniform \
    --n-range 16..32 --seeds 1
[ -f "$TMP/caller/study out/fit.csv" ] && ok "study.sh wrote its tables in the caller's folder" ||
  bad "study.sh: no fit.csv in the caller's 'study out': $(cat "$TMP/err")"

# ---- 4. a comma-decimal locale ----------------------------------------------------------------
# One with ',' before the decimals: the system's, or de_DE.UTF-8 made here (LOCPATH).
loc="" locpath=""
for l in $(locale -a 2>/dev/null); do
  [ "$(LC_ALL=$l awk 'BEGIN { printf "%.1f", 1.5 }' 2>/dev/null)" = "1,5" ] && { loc=$l; break; }
done
if [ -z "$loc" ] && command -v localedef >/dev/null && [ -f /usr/share/i18n/locales/de_DE ]; then
  mkdir -p "$TMP/locale"
  if localedef -i de_DE -f UTF-8 "$TMP/locale/de_DE.UTF-8" >/dev/null 2>&1 &&
     [ "$(LOCPATH=$TMP/locale LC_ALL=de_DE.UTF-8 awk 'BEGIN { printf "%.1f", 1.5 }')" = "1,5" ]; then
    loc=de_DE.UTF-8 locpath=$TMP/locale
  fi
fi
if [ -n "$loc" ]; then
  locenv=(LC_ALL="$loc"); [ -z "$locpath" ] || locenv+=(LOCPATH="$locpath")
  expect "fuzz.sh under $loc" 0 "" env "${locenv[@]}" \
    bash "$SRC/scripts/fuzz.sh" --build "$TMP/build" --jobs 1 --time 1 --no-shrink --no-coverage --out "$TMP/o4"
  grep -q "size class 0 spent: 7 executions (100.0%), 12.5 s (100.0% of the execution time)" "$TMP/out" &&
    ok "fuzz.sh under $loc: 12.5 s as the target said" ||
    bad "fuzz.sh under $loc: $(grep 'size class 0 spent' "$TMP/out")"
else
  echo "SKIP the comma-decimal locale: none on this system and none could be made (localedef, /usr/share/i18n/locales/de_DE)"
fi

# ---- 1 (more). the other campaign scripts --------------------------------------------------
# fuzz.sh --hybrid: a side whose target refuses stops the campaign at once.
stub_build "$TMP/tsan"; printf 'REDFUZZ_SANITIZE:STRING=thread\n' > "$TMP/tsan/CMakeCache.txt"
hy() { bash "$SRC/scripts/fuzz.sh" --hybrid --backend sim --build "$TMP/build" --sim-build "$TMP/tsan" \
         --gpu-jobs 1 --sim-jobs 1 --no-shrink "$@"; }
start=$(date +%s)
expect "fuzz.sh --hybrid --only naming no variant" 2 "the campaign stopped: redfuzz fuzz: REDFUZZ_ONLY: 'sum/nosuch' selects no variant" \
  hy --time 90 --only sum/nosuch --out "$TMP/h1"
[ $(( $(date +%s) - start )) -lt 60 ] && ok "the hybrid campaign stopped at the refusal, not after --time 90" ||
  bad "the hybrid campaign ran $(( $(date +%s) - start ))s after its target refused"
expect "fuzz.sh --hybrid under a misspelt setting" 2 "list refused to run: redfuzz: REDFUZZ_SERAIL: not a redfuzz setting" \
  env REDFUZZ_SERAIL=1 bash -c "$(declare -f hy); hy --time 1 --out '$TMP/h2'"
expect "fuzz.sh --hybrid, targets that ran no input" 2 "^fuzz-hybrid.sh: the campaign ran no input \(executions: 0\)" \
  env STUB_SILENT=1 bash -c "$(declare -f hy); hy --time 1 --out '$TMP/h3'"
expect "fuzz.sh --hybrid that ran" 0 "" hy --time 1 --out "$TMP/h3"
# both sides ran inputs (without --only the processes were given every correct variant's name,
# 2154 characters, which the target refuses: the campaign ran nothing and said so with exit 0)
grep -qE '^sim-plain: [1-9][0-9]* executions' "$TMP/out" && grep -qE '^sim-tsan: [1-9][0-9]* executions' "$TMP/out" &&
  ok "fuzz.sh --hybrid: both sides ran inputs" || bad "fuzz.sh --hybrid: $(grep executions "$TMP/out")"

# fuzz.sh --engine afl (stand-in afl tools): a refusal in the target's words, afl-fuzz's own
# reason when it ran nothing, 1 for a crash found, 0 for none.
af() { env PATH="$TMP/afl bin:$PATH" AFL_DRIVER="$TMP/afl-driver.a" bash "$SRC/scripts/fuzz.sh" --engine afl \
         --build "$TMP/build" --jobs 1 --time 1 --no-shrink "$@"; }
expect "fuzz.sh --engine afl --only naming no variant" 2 "^fuzz-afl.sh: the fuzz target refused to start \(exit 2\), nothing ran: redfuzz fuzz: REDFUZZ_ONLY: 'sum/nosuch' selects no variant" \
  af --only sum/nosuch --out "$TMP/a1"
expect "fuzz.sh --engine afl, afl-fuzz ran nothing" 2 "^fuzz-afl.sh: afl-fuzz ran no input \(executions: 0\): \[-\] PROGRAM ABORT : Fork server handshake failed" \
  env STUB_AFL=abort bash -c "$(declare -f af); af --out '$TMP/a2'"
expect "fuzz.sh --engine afl, a crash found" 1 "" env STUB_AFL=crash bash -c "$(declare -f af); af --out '$TMP/a3'"
expect "fuzz.sh --engine afl, the crash of the campaign before is not this one's" 0 "" \
  env STUB_AFL=none bash -c "$(declare -f af); af --out '$TMP/a3'"
expect "fuzz.sh --engine afl, relative --out" 0 "" env STUB_AFL=none bash -c "$(declare -f af); af --out 'afl rel'"
[ -d "$TMP/caller/afl rel/afl" ] && ok "fuzz-afl.sh: --out in the caller's folder" || bad "fuzz-afl.sh: no 'afl rel' in the caller's folder"

# gpu-campaign.sh (fuzz.sh --backend cuda on the stand-in): fuzz.sh's reason on stderr.
gc0() { bash "$SRC/scripts/gpu-campaign.sh" --build "$TMP/build" "$@"; }
gc() { gc0 --jobs 1 "$@"; }
expect "gpu-campaign.sh under a misspelt setting" 2 "^gpu-campaign.sh: fuzz.sh: the fuzz target refused to start \(exit 2\), nothing ran: redfuzz fuzz: REDFUZZ_SERAIL: not a redfuzz setting" \
  env REDFUZZ_SERAIL=1 bash -c "$(declare -f gc0 gc); gc --time 1 --pack '$TMP/g1.tgz'"
expect "gpu-campaign.sh --time 0" 2 "^gpu-campaign.sh: --time: '0' is not a positive number" gc --time 0
expect "gpu-campaign.sh --jobs x" 2 "^gpu-campaign.sh: --jobs: 'x' is not a positive number" gc0 --time 1 --jobs x
expect "gpu-campaign.sh stopped at --limit, nothing found" 2 "^gpu-campaign.sh: fuzz.sh stopped at --limit 2s before its summary; 0 failure artifact" \
  env STUB_SLEEP=5 bash -c "$(declare -f gc0 gc); gc --time 1 --limit 2 --pack '$TMP/g2.tgz'"
stub_build "rel gpu"
expect "gpu-campaign.sh with a relative --build and --pack" 0 "" \
  bash "$SRC/scripts/gpu-campaign.sh" --build "rel gpu" --jobs 1 --time 1 --pack "packs/c.tgz"
[ -f "$TMP/caller/packs/c.tgz" ] && [ ! -e "$TMP/caller/packs/c.tgz.tmp" ] && ok "gpu-campaign.sh: the pack in the caller's folder, whole" ||
  bad "gpu-campaign.sh: no packs/c.tgz in the caller's folder"

# mutation-score.sh: a target that cannot start is no score.
expect "mutation-score.sh under a misspelt setting" 2 "list refused to run \(exit 2\): redfuzz: REDFUZZ_SERAIL: not a redfuzz setting" \
  env REDFUZZ_SERAIL=1 bash "$SRC/scripts/mutation-score.sh" --build "$TMP/build" --budget 1

# coverage.sh (a stand-in replay that starts as the real one does, and LLVM tools): a replay that
# refuses, an empty corpus, and an --out that holds the user's files (the caller's folder).
mkdir -p "$TMP/cov/bin" "$TMP/empty corpus" "$TMP/corpus"; echo x > "$TMP/corpus/a"
cat > "$TMP/cov/redfuzz_cov_replay" <<STUB
#!/usr/bin/env bash
if ! err=\$("$RF" list 2>&1 >/dev/null); then echo "redfuzz_cov_replay: \${err#redfuzz: }" >&2; exit 2; fi
[ "\$1" = --list ] && { echo sum/lds; exit 0; }
v=\$1; shift; n=0; for p in "\$@"; do n=\$((n + \$(find "\$p" -type f | wc -l))); done
echo "\$v: \$n inputs, launched on \$n, 0 failures"
STUB
chmod +x "$TMP/cov/redfuzz_cov_replay"
for t in llvm-profdata-19 llvm-cov-19; do printf '#!/bin/sh\necho "{\\"data\\": [{\\"functions\\": []}]}"\n' > "$TMP/cov/bin/$t"; done
chmod +x "$TMP/cov/bin/"*
cv() { env PATH="$TMP/cov/bin:$PATH" bash "$SRC/scripts/coverage.sh" --build "$TMP/cov" "$@"; }
expect "coverage.sh under a misspelt setting" 2 "^coverage.sh: the replay refused to start \(exit 2\): redfuzz_cov_replay: REDFUZZ_SERAIL: not a redfuzz setting" \
  env REDFUZZ_SERAIL=1 bash -c "$(declare -f cv); cv --out '$TMP/c1' '$TMP/corpus'"
expect "coverage.sh on an empty corpus" 2 "^coverage.sh: PATH: no fuzz input in" cv --out "$TMP/c2" "$TMP/empty corpus"
echo keep > "$TMP/caller/mine.txt"
expect "coverage.sh --out . (the caller's folder, the user's files)" 2 "^coverage.sh: --out: '$TMP/caller/.' is not empty and has no .redfuzz-coverage.sh" \
  cv --out . "$TMP/corpus"
[ -f "$TMP/caller/mine.txt" ] && ok "coverage.sh kept the caller's folder" || bad "coverage.sh --out . removed the caller's files"
# an --out it may not empty is refused before a build of minutes (the build came first)
expect "coverage.sh --out a file, no build started" 2 "^coverage.sh: --out: '$TMP/file' is not a folder" \
  env PATH="$TMP/cov/bin:$PATH" bash "$SRC/scripts/coverage.sh" --build "$TMP/no cov build" --out "$TMP/file" "$TMP/corpus"
[ ! -e "$TMP/no cov build" ] && ok "coverage.sh configured no build" || bad "coverage.sh started a build before refusing --out"
expect "coverage.sh, a relative corpus and --out" 0 "" cv --out "cov out" ../corpus
expect "coverage.sh again into its own --out" 0 "" cv --out "cov out" ../corpus

# redfuzz-plugin: a library name taken from the source's file name is said as that (the
# message blamed a --name that was not given).
cp "$SRC/examples/plugin/my_sum.hip" "my sum.hip"
expect "redfuzz-plugin, a source name that is no library name" 2 "^redfuzz-plugin: the library name 'my sum', from the source's file name .*/my sum.hip, is not one \(allowed: letters, digits, _ and -; give --name NAME\)" \
  bash "$SRC/scripts/redfuzz-plugin" build "my sum.hip" --backends sim
expect "redfuzz-plugin --name bad" 2 "^redfuzz-plugin: --name: 'a b' is not a library name" \
  bash "$SRC/scripts/redfuzz-plugin" build "my sum.hip" --name "a b" --backends sim
# --help from another folder, the script named by a relative path: its header (it printed
# nothing, exit 0, or failed: "$0" no longer named it after the cd).
rel=$(realpath --relative-to=. "$SRC/scripts")
for s in fuzz.sh fuzz-hybrid.sh fuzz-afl.sh gpu-campaign.sh coverage.sh mutation-score.sh run.sh study.sh; do
  expect "$s --help by a relative path" 0 "" bash "$rel/$s" --help
  grep -q '^# ' "$TMP/out" || bad "$s --help printed no header: $(head -c 200 "$TMP/out")"
done

# shrink-findings.sh: nothing to shrink is no result (it said "0 new regression(s)", exit 0).
expect "shrink-findings.sh without a FILE" 2 "^shrink-findings.sh: FILE: none given" \
  bash "$SRC/scripts/shrink-findings.sh" --redfuzz "$RF"
expect "shrink-findings.sh, a FILE that is not there" 2 "^shrink-findings.sh: FILE: 'nosuch/crash-1' is not a file" \
  bash "$SRC/scripts/shrink-findings.sh" --redfuzz "$RF" nosuch/crash-1

# run.sh: --time 0 is a campaign of nothing.
expect "run.sh --time 0" 2 "^run.sh: --time: '0' is not a positive number of seconds" bash "$SRC/scripts/run.sh" --time 0

echo "scripts-exit: $checks checks, $([ $fail = 0 ] && echo "all held" || echo "some failed")"
exit $fail

#!/usr/bin/env bash
# scripts/fuzz.sh and scripts/run.sh's exit statuses, with a stand-in fuzz target (no libFuzzer
# build needed): a campaign whose fuzzer leaves a crash artifact exits 1, one that leaves none
# exits 0, and artifacts of an earlier campaign in the same folder do not count. No coverage
# report: the stand-in reaches no kernel, and the report would build its replay target first.
#   fuzz-sh-exit.sh SRC
set -uo pipefail
SRC=$1
TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/build/fuzz"
# The stand-in: finds the -artifact_prefix and, when STUB_FIND=1, writes a crash artifact and
# the line the real target prints for a failing verdict.
cat > "$TMP/build/fuzz/redfuzz_fuzz" <<'STUB'
#!/usr/bin/env bash
for a in "$@"; do case "$a" in -artifact_prefix=*) prefix=${a#-artifact_prefix=};; esac; done
echo "#1 INITED"
if [ "${STUB_FIND:-0}" = 1 ]; then
  echo "ERROR: redfuzz: sum/mut-drop-tail wrong"
  printf 'x' > "${prefix}crash-$$"
fi
[ "${STUB_SLOW:-0}" = 1 ] && printf 'y' > "${prefix}slow-unit-$$"
exit 0
STUB
printf '#!/bin/sh\nexit 0\n' > "$TMP/build/fuzz/redfuzz"
chmod +x "$TMP/build/fuzz/redfuzz_fuzz" "$TMP/build/fuzz/redfuzz"
fail=0
run() {   # WANT ENV...
  local want=$1; shift
  (cd "$SRC" && env "$@" bash scripts/fuzz.sh --build "$TMP/build" --jobs 1 --time 1 --no-shrink --no-coverage \
     --out "$TMP/out") > "$TMP/log" 2>&1
  local rc=$?
  if [ $rc -ne "$want" ]; then echo "FAIL: fuzz.sh with ${*%%:*} exited $rc, expected $want"; cat "$TMP/log"; fail=1
  else echo "ok   fuzz.sh with ${*%%:*}: exit $rc ($(tail -n 1 "$TMP/log"))"; fi
}
run 1 STUB_FIND=1   # a failure found
run 0 STUB_FIND=0   # none found, though the folder still holds the first campaign's artifact
# A slow unit is no failure (exit 0), and the summary says so.
run 0 STUB_SLOW=1
if grep -q "slow-unit: an input that ran longer than 10 s, not a failure" "$TMP/log"; then
  echo "ok   a slow unit is said to be no failure"
else echo "FAIL: no slow-unit line: $(cat "$TMP/log")"; fail=1; fi
# A clock that runs 5 s a reading: the worker starts after start + --time, as on a loaded CI
# machine. The campaign still runs its fuzzer once (it once ran nothing and said "no failure
# found").
mkdir -p "$TMP/slowclock"
cat > "$TMP/slowclock/date" <<STUB
#!/usr/bin/env bash
[ "\$1" = +%s ] || exec $(command -v date) "\$@"
n=\$(cat "$TMP/slowclock/n" 2>/dev/null || $(command -v date) +%s)
echo \$((n + 5)) > "$TMP/slowclock/n"; echo "\$n"
STUB
chmod +x "$TMP/slowclock/date"
rm -rf "$TMP/out"
run 1 STUB_FIND=1 PATH="$TMP/slowclock:$PATH"
# --time without a value: a usage error (exit 2), not "unbound variable".
for s in fuzz.sh run.sh; do
  out=$(cd "$SRC" && bash scripts/$s --time 2>&1); rc=$?
  if [ $rc -ne 2 ] || ! [[ "$out" =~ "--time needs a value" ]]; then
    echo "FAIL: $s --time: exit $rc: $out"; fail=1
  else echo "ok   $s --time: exit 2 ($out)"; fi
done
exit $fail

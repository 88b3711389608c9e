#!/usr/bin/env bash
# scripts/run.sh's exit statuses, with stand-ins for cmake and the build's programs (no build
# needed): 0 when the sweeps and the campaign find nothing, 1 when a sweep or the campaign
# finds a failure, 2 when a step could not run (the build, a sweep's bad usage) or run.sh's
# own usage is bad: never 0 after running nothing.
#   run-sh-exit.sh SRC
set -uo pipefail
SRC=$1
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
mkdir -p "$T/repo" "$T/bin"
cp -r "$SRC/scripts" "$T/repo/"
printf '#!/usr/bin/env bash\necho "bootstrap: stand-in"\n' > "$T/repo/scripts/bootstrap.sh"
# cmake: configuring always works; building fails with STUB_CMAKE_RC.
cat > "$T/bin/cmake" <<'STUB'
#!/usr/bin/env bash
case " $* " in *" --build "*) exit "${STUB_CMAKE_RC:-0}";; esac
exit 0
STUB
mkdir -p "$T/repo/build/fuzz"
# redfuzz: a sweep exits STUB_SWEEP_RC; anything else (decode, shrink) 0.
cat > "$T/repo/build/fuzz/redfuzz" <<'STUB'
#!/usr/bin/env bash
if [ "$1" = sweep ]; then echo "stand-in sweep"; exit "${STUB_SWEEP_RC:-0}"; fi
exit 0
STUB
# The fuzz target: a failing verdict and its artifact with STUB_FIND=1.
cat > "$T/repo/build/fuzz/redfuzz_fuzz" <<'STUB'
#!/usr/bin/env bash
for a in "$@"; do case "$a" in -artifact_prefix=*) prefix=${a#-artifact_prefix=};; esac; done
echo "#1 INITED"
if [ "${STUB_FIND:-0}" = 1 ]; then
  echo "ERROR: redfuzz: sum/mut-drop-tail wrong"
  printf 'x' > "${prefix}crash-$$"
fi
exit 0
STUB
# The coverage replay: no variant (the report then says it failed; not a failure of the run).
printf '#!/usr/bin/env bash\nexit 0\n' > "$T/repo/build/redfuzz_cov_replay"
chmod +x "$T/bin/cmake" "$T/repo/build/fuzz/"* "$T/repo/build/redfuzz_cov_replay"
mkdir -p "$T/repo/corpus/bin"
fail=0
run() {   # WANT REGEX ENV... -- ARGS
  local want=$1 re=$2; shift 2
  local envs=()
  while [ "$1" != -- ]; do envs+=("$1"); shift; done
  shift
  rm -rf "$T/repo/out"
  (cd "$T/repo" && env PATH="$T/bin:$PATH" "${envs[@]}" bash scripts/run.sh "$@") > "$T/log" 2>&1
  local rc=$?
  if [ $rc -ne "$want" ] || ! grep -qE -- "$re" "$T/log"; then
    echo "FAIL: run.sh ${envs[*]} $*: exit $rc (want $want), /$re/"; tail -n 30 "$T/log" | sed 's/^/  /'; fail=1
  else echo "ok   run.sh ${envs[*]} $*: exit $rc"; fi
}
run 0 'run.sh: campaign and coverage took [0-9]+ s, [0-9]+ s of CPU \(total [0-9]+ s, [0-9]+ s of CPU\)' -- --time 1
grep -q 'run.sh: no failure found' "$T/log" || { echo "FAIL: no 'no failure found' line"; fail=1; }
run 1 'run.sh: FAILURES FOUND' STUB_SWEEP_RC=1 -- --time 1
run 1 'run.sh: FAILURES FOUND' STUB_FIND=1 -- --time 1
run 2 'run.sh: a step had no result' STUB_SWEEP_RC=2 -- --time 1
run 2 'run.sh: the build failed' STUB_CMAKE_RC=1 -- --time 1
run 2 "run.sh: --time: 'soon' is not a positive number of seconds" -- --time soon
run 2 'unknown' -- --fast
exit $fail

#!/usr/bin/env bash
# A fuzz campaign: build the libFuzzer target if needed, fuzz from corpus/bin, shrink every
# new failure into the findings folder (one per signature), print a summary. Exit status: 0 no
# failure found, 1 a failure found (crash, timeout or oom artifacts of this campaign), 2 bad usage.
#   scripts/fuzz.sh [--backend sim|cuda|hip] [--time S] [--jobs N] [--op OP] [--only LIST]
#                   [--build DIR] [--out DIR] [--no-shrink] [--known FILE]
#                   [--findings DIR] [--plugin LIB]... | [--plugin-src SRC.hip]
# Findings (docs/FINDINGS.md): a plugin campaign's (your kernel's) go to --findings DIR, by
# default findings/<plugin name>/ under the folder you run the script from, never into the
# project's regressions/ (refused); a campaign of the built-in kernels' into regressions/.
# Each artifact gets the case it decoded to beside it (OUT/artifacts/crash-<sha1>.case, with
# the plugins and selection it needs: `redfuzz --plugin LIB run --case` or `shrink` it).
# --op/--only: restrict to one op's correct variants, or a REDFUZZ_ONLY list (variant or op
# names; mutants only by name). Default: every correct variant of every op.
# --build: the build folder with fuzz/redfuzz_fuzz and fuzz/redfuzz (default: build, the main
# simulator build, whose redfuzz_fuzz target carries the fuzzer's kernel instrumentation,
# cmake/coverage.cmake; build-fuzz-cuda or build-fuzz-hip, configured with -DREDFUZZ_FUZZER=ON,
# on a GPU backend). Configured when missing, brought up to date every time.
# --jobs: libFuzzer worker processes on one shared corpus (default one per visible GPU (cuda),
# else one per core); a worker that stops on a failure starts again for the time left. With
# several GPUs the workers are spread over them (REDFUZZ_FUZZ_DEVICES="0 1" picks).
# Logs: OUT/fuzz-w<worker>-<run>.log.
# --engine libfuzzer (default) | afl: AFL++ on the same target and corpus (scripts/fuzz-afl.sh).
# Ends with each variant's kernel coverage (scripts/coverage.sh; default on the sim backend,
# --coverage / --no-coverage). --hybrid: a GPU fuzzer and a ThreadSanitizer simulator fuzzer
# on one corpus (scripts/fuzz-hybrid.sh --help).
# Size caps: variants slow beyond some size (rf_variant.fuzz_max_n; sum/atomic: 2^16) are
# fuzzed only up to it (listed in the summary); `redfuzz sweep` runs them at every size.
# --plugin LIB (repeatable): load the plugin in the fuzzer and in the shrink; --plugin-src
# SRC: build it first for this build (scripts/redfuzz-plugin, into OUT/plugin).
# Signatures: a failure's signature is "variant verdict dist [rule=R]" (R the contract rule
# that decided it, run/rules.def); a worker stopped by one
# restarts with it known (OUT/known-signatures), so the campaign goes on for other
# signatures of the same variant; each is shrunk once. --known FILE: signatures to leave out
# from the start (lines "variant verdict [dist] [rule=NAME]", # comments). --regressions DIR is
# --findings DIR (its older name).
# Paths given (--build, --out, --plugin, --known, ...) are taken from the caller's folder; the
# defaults are in the checkout. A campaign that ran nothing (the target refused to start: a
# bad REDFUZZ_* setting, an --only naming no variant, a plugin that does not load) exits 2
# with the target's own first error line.
set -euo pipefail
RF_CALLER_DIR=${RF_CALLER_DIR:-$PWD}   # the default findings folder of a plugin campaign is under it
cd "$(dirname "$0")/.."
RF_PROG="fuzz.sh"
source scripts/lib/opts.sh
source scripts/lib/findings.sh
source scripts/lib/plugin.sh
source scripts/lib/budget.sh
source scripts/lib/build_lock.sh
source scripts/lib/refused.sh
rf_errexit_2
RF_OPT_ALLOWED=([--engine]="libfuzzer, afl" [--backend]="sim, cuda, hip"
  [--time]="a positive number of seconds" [--jobs]="a positive number" [--op]="an op name"
  [--only]="variant or op names, comma-separated" [--build]="a build folder" [--out]="a folder"
  [--plugin]="a plugin library (.so)" [--plugin-src]="a plugin source (.hip)"
  [--known]="a file of known signatures" [--regressions]="a folder" [--findings]="a folder")
for a in "$@"; do [ "$a" = --hybrid ] && RF_CALLER_DIR=$RF_CALLER_DIR exec bash scripts/fuzz-hybrid.sh "$@"; done
ENGINE=libfuzzer; rest=()
while [ $# -gt 0 ]; do
  if [ "$1" = --engine ]; then rf_opt_value ENGINE "$@"; shift 2; else rest+=("$1"); shift; fi
done
set -- "${rest[@]}"
case "$ENGINE" in
  libfuzzer) ;;
  afl) RF_CALLER_DIR=$RF_CALLER_DIR exec bash scripts/fuzz-afl.sh "$@";;
  *) rf_opt_fail "--engine: '$ENGINE' (allowed: libfuzzer, afl)";;
esac
BACKEND=sim; TIME=60; JOBS=""; ONLY=""; BUILD=""; OUT=out/fuzz; SHRINK=1; COVERAGE=""
PLUGINS=""; PLUGIN_SRC=""; KNOWN=""; v=""; REG=; REG_FLAG=
while [ $# -gt 0 ]; do
  case "$1" in
    --backend) rf_opt_value BACKEND "$@"; shift 2;;
    --time) rf_opt_value TIME "$@"; shift 2;;
    --jobs) rf_opt_value JOBS "$@"; shift 2;;
    --op) rf_opt_value ONLY "$@"; shift 2;;
    --only) rf_opt_value ONLY "$@"; shift 2;;
    --build) rf_opt_path BUILD "$@"; shift 2;;
    --out) rf_opt_path OUT "$@"; shift 2;;
    --plugin) rf_opt_path v "$@"; PLUGINS=${PLUGINS:+$PLUGINS:}$v; shift 2;;
    --plugin-src) rf_opt_path PLUGIN_SRC "$@"; shift 2;;
    --known) rf_opt_path KNOWN "$@"; shift 2;;
    --regressions) rf_opt_path REG "$@"; REG_FLAG=--regressions; shift 2;;
    --findings) rf_opt_path REG "$@"; REG_FLAG=--findings; shift 2;;
    --no-shrink) SHRINK=0; shift;;
    --coverage) COVERAGE=1; shift;;
    --no-coverage) COVERAGE=0; shift;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$RF_SELF"; exit 0;;
    *) rf_opt_unknown "$1";;
  esac
done
case "$BACKEND" in sim|cuda|hip) ;; *) rf_opt_fail "--backend: '$BACKEND' (allowed: sim, cuda, hip)";; esac
# --time 0 would run nothing (and once said "no failure found").
rf_opt_int --time "$TIME" 1 "$RF_MAX_SECONDS" "a positive number of seconds"
# a --jobs given is checked here, before a build of minutes (the default comes from the GPUs)
[ -z "$JOBS" ] || rf_opt_int --jobs "$JOBS" 1 "$RF_MAX_JOBS" "a positive number"
[ -z "$KNOWN" ] || [ -f "$KNOWN" ] || rf_opt_fail "--known: '$KNOWN' is not a file"
[ -z "$PLUGINS" ] || [ -z "$PLUGIN_SRC" ] || rf_opt_fail "--plugin and --plugin-src: give one of them"
[ -n "$PLUGINS$PLUGIN_SRC" ] || { PLUGINS=${REDFUZZ_PLUGINS:-}; rf_abs_list PLUGINS; }   # as before the flags
if [ "$BACKEND" = sim ]; then : "${BUILD:=build}"; else : "${BUILD:=build-fuzz-$BACKEND}"; fi
FUZZ=$BUILD/fuzz/redfuzz_fuzz RF=$BUILD/fuzz/redfuzz
# A CMake build (ours, or one made before) is brought up to date every time: an old fuzz
# binary beside newer sources fuzzed yesterday's code and printed none of today's start-up
# lines, silently (a 10-minute campaign of 2026-12-05 ran a build of the morning). A folder
# of binaries that CMake did not generate (no CMakeFiles/: copied, or a test's stand-in) is
# used as it is.
build_fuzz() {
  if [ ! -d "$BUILD/CMakeFiles" ]; then
    command -v clang-19 >/dev/null || bash scripts/bootstrap.sh
    echo "fuzz.sh: configuring $BUILD ($BACKEND backend, libFuzzer target)"
    # The simulator's plain build holds the fuzz target (cmake/coverage.cmake); a GPU
    # backend's is a build of its own.
    if [ "$BACKEND" = sim ]; then cmake --preset sim -B "$BUILD" >/dev/null
    else cmake --preset "$BACKEND" -B "$BUILD" -DREDFUZZ_FUZZER=ON >/dev/null; fi
  fi
  echo "fuzz.sh: building $BUILD (up to date in seconds when nothing changed)"
  cmake --build "$BUILD" -j "$(nproc)" --target redfuzz_fuzz redfuzz >"$BUILD/fuzz-sh-build.log" 2>&1 ||
    { cat "$BUILD/fuzz-sh-build.log" >&2; echo "fuzz.sh: building $BUILD failed" >&2; return 2; }
}
if [ ! -x "$FUZZ" ] || [ ! -x "$RF" ] || [ -d "$BUILD/CMakeFiles" ]; then
  rf_build_locked "$BUILD" build_fuzz || exit 2
fi
# A plugin source is built for this build's flavour (scripts/redfuzz-plugin), into OUT/plugin.
if [ -n "$PLUGIN_SRC" ]; then
  PLUGINS=$(rf_plugin_build "$PLUGIN_SRC" "$(rf_build_flavour "$BUILD")" "$OUT/plugin") || exit 2
  echo "fuzz.sh: plugin $PLUGINS (from $PLUGIN_SRC)"
fi
export REDFUZZ_PLUGINS="$PLUGINS"
# Where findings go: a plugin campaign's never into the project's regressions/.
: "${REG:=$(rf_findings_dir "$PLUGINS" "$RF_CALLER_DIR")}"
rf_findings_check "$REG" "$PLUGINS" .
# Devices: on a cuda machine with several GPUs, one libFuzzer per GPU (CUDA_VISIBLE_DEVICES),
# the jobs spread over them; REDFUZZ_FUZZ_DEVICES="0 2" picks them, and a CUDA_VISIBLE_DEVICES
# already set keeps one libFuzzer on what it names. Elsewhere one libFuzzer.
GPUS=0
if [ "$BACKEND" = cuda ] && command -v nvidia-smi >/dev/null; then GPUS=$(nvidia-smi -L | wc -l); fi
[[ "${REDFUZZ_FUZZ_DEVICES:-0}" =~ ^[[:space:]]*[0-9]+([[:space:]]+[0-9]+)*[[:space:]]*$ ]] ||
  rf_opt_fail "REDFUZZ_FUZZ_DEVICES: '$REDFUZZ_FUZZ_DEVICES' is not a list of GPU numbers (allowed: numbers 0..1023 separated by spaces, e.g. \"0 1\")"
if [ -n "${REDFUZZ_FUZZ_DEVICES:-}" ]; then read -r -a DEVICES <<< "$REDFUZZ_FUZZ_DEVICES"
elif [ "$GPUS" -gt 1 ] && [ -z "${CUDA_VISIBLE_DEVICES:-}" ]; then mapfile -t DEVICES < <(seq 0 $((GPUS - 1)))
else DEVICES=(""); fi
if [ -z "$JOBS" ]; then
  if [ "$GPUS" -gt 0 ]; then JOBS=${#DEVICES[@]}; else JOBS=$(nproc); fi
fi
rf_opt_int --jobs "$JOBS" 1 "$RF_MAX_JOBS" "a positive number"
[ "$JOBS" -lt ${#DEVICES[@]} ] && DEVICES=("${DEVICES[@]:0:$JOBS}")
rf_mkdir --out "$OUT/corpus" "$OUT/artifacts"
# A findings folder given is made now (one that cannot be is exit 2 before any fuzzing); the
# default one (findings/<plugin name>) when a finding is filed.
[ -z "$REG_FLAG" ] || rf_mkdir "$REG_FLAG" "$REG"
export REDFUZZ_ONLY="$ONLY"
# Known signatures (variant verdict [dist] [rule=NAME]; docs/CAMPAIGNS.md, "The fuzzer"): the target does not
# stop at a failure whose signature is listed; each worker adds what it finds, so after a
# restart it fuzzes on for other signatures, the same variant included. --known seeds it.
KNOWN_ALL="$OUT/known-signatures"
if [ -n "$KNOWN" ]; then grep -avE '^[[:space:]]*(#|$)' "$KNOWN" > "$KNOWN_ALL" || true; else : > "$KNOWN_ALL"; fi
cp "$KNOWN_ALL" "$OUT/.known-given"
export REDFUZZ_KNOWN="$KNOWN_ALL"
# Each job judges big softmax cases with several threads: share the cores among the jobs.
: "${REDFUZZ_JUDGE_THREADS:=$(( $(nproc) / JOBS > 0 ? $(nproc) / JOBS : 1 ))}"
export REDFUZZ_JUDGE_THREADS
ND=${#DEVICES[@]}
echo "fuzz.sh: $BACKEND backend, ${TIME}s, $JOBS jobs$([ -n "${DEVICES[0]}" ] && echo " on GPUs ${DEVICES[*]}"), variants: ${ONLY:-every correct variant}"
start=$(date +%s)
# Artifacts newer than this marker are this campaign's (the folder keeps earlier ones).
marker=$(mktemp); trap 'rm -f "$marker"' EXIT
set +e
# Workers, not libFuzzer's fork mode: fork mode runs its k-th job for min(k, 300) s in a new
# process that first re-runs a share of the corpus, so a campaign of a minute spent most of its
# time starting jobs (on the simulator 133 executions/s with -fork=2 against 250 for two plain
# processes, docs/SIMULATOR.md, sixth session; on a GPU each job also starts a CUDA context).
# Each worker is one libFuzzer process on the shared corpus folder (libFuzzer reloads it, so
# the workers see each other's finds); one that stops early on a failure (its artifact
# written: crash, timeout, oom) is started again for the time left, as fork mode's
# -ignore_crashes went on.
rm -f "$OUT"/fuzz-w*.log "$OUT/.refused"
worker() {   # worker <device> <id>
  local dev=$1 id=$2 run=0 left rc
  [ -n "$dev" ] && export CUDA_VISIBLE_DEVICES="$dev"
  while [ ! -e "$OUT/.refused" ] && rf_budget_left $((start + TIME)) "$run" "$TIME"; do
    left=$RF_LEFT
    run=$((run + 1))
    "$FUZZ" -rss_limit_mb=8192 -timeout=60 -max_total_time="$left" -artifact_prefix="$OUT/artifacts/" \
      -print_final_stats=1 "$OUT/corpus" corpus/bin > "$OUT/fuzz-w$id-$run.log" 2>&1 &
    echo $! > "$OUT/.fuzz-w$id.pid"
    wait $!
    rc=$?
    [ $rc -eq 0 ] && break   # its time is up
    # A target that refused to start refuses again on every restart: the campaign stops
    # (every worker runs the same target and settings) and ends with its line, exit 2.
    if rf_run_refused "$OUT/fuzz-w$id-$run.log" "$rc"; then
      [ -e "$OUT/.refused" ] || printf '%s\t%s\n' "$rc" "$OUT/fuzz-w$id-$run.log" > "$OUT/.refused"
      break
    fi
    # Its new signatures join the known list: the restart fuzzes on past them.
    grep -aoE '^ERROR: redfuzz: [^ ]+ [a-z-]+ dist=[a-z0-9-]+( rule=[a-z-]+)?' "$OUT/fuzz-w$id-$run.log" |
      cut -d' ' -f3- | sed 's/ dist=/ /' >> "$KNOWN_ALL" || true
  done
}
pids=()
for k in "${!DEVICES[@]}"; do
  jobs=$(( JOBS / ND + (k < JOBS % ND ? 1 : 0) ))
  for j in $(seq 1 "$jobs"); do
    worker "${DEVICES[$k]}" "$k.$j" &
    pids+=($!)
  done
done
# Logs as an array (OUT may hold spaces): LOGS.
logs_now() { shopt -s nullglob; LOGS=("$OUT"/fuzz-w*.log); shopt -u nullglob; }
# The executions so far: each run's final count (or its latest status line), summed.
executions() {
  local total=0 n l
  logs_now
  for l in "${LOGS[@]}"; do
    n=$(grep -aoE 'stat::number_of_executed_units: *[0-9]+' "$l" 2>/dev/null | grep -oE '[0-9]+$')
    [ -n "$n" ] || n=$(grep -aoE '^#[0-9]+' "$l" 2>/dev/null | tail -n 1 | tr -d '#')
    total=$(( total + ${n:-0} ))
  done
  echo $total
}
# Progress every 10 s; a run still going 30 s after the budget is stopped.
running() { for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && return 0; done; return 1; }
tick=0
while running; do
  sleep 1
  if [ -e "$OUT/.refused" ]; then   # the other workers' runs are stopped at once
    for f in "$OUT"/.fuzz-w*.pid; do kill -INT "$(cat "$f")" 2>/dev/null || true; done
  fi
  tick=$((tick + 1)); [ $((tick % 10)) -eq 0 ] || continue
  if [ $(( $(date +%s) - start )) -gt $(( TIME + 30 )) ]; then
    for f in "$OUT"/.fuzz-w*.pid; do kill -INT "$(cat "$f")" 2>/dev/null || true; done
  fi
  last=$(ls -t "$OUT"/fuzz-w*.log 2>/dev/null | head -n 1)
  line=$([ -n "$last" ] && grep -aE '^#[0-9]+' "$last" | tail -n 1 | sed -E 's/ +/ /g')
  echo "fuzz.sh: $(( $(date +%s) - start ))s $(executions) executions in $JOBS workers$([ "$ND" -gt 1 ] && echo " on $ND GPUs"); $(basename "$last" .log): ${line:0:80}"
done
for p in "${pids[@]}"; do wait "$p"; done
rm -f "$OUT"/.fuzz-w*.pid
set -e
logs_now; logs=("${LOGS[@]}")
elapsed=$(( $(date +%s) - start ))
execs=$(executions)
echo "fuzz.sh: libFuzzer done after ${elapsed}s; executions: ${execs:-0} ($(( ${execs:-0} / (elapsed > 0 ? elapsed : 1) ))/s)"
# A campaign that ran nothing has no result: exit 2 with the target's own reason (a seed that
# failed as the corpus loaded left an artifact: that is a finding, summarised below).
if [ -e "$OUT/.refused" ]; then
  IFS=$'\t' read -r rc log < "$OUT/.refused"
  echo "fuzz.sh: the fuzz target refused to start (exit $rc), nothing ran: $(rf_first_error "$log" "$rc")" >&2
  echo "fuzz.sh: its whole output: $log" >&2
  exit 2
fi
if [ "${execs:-0}" -eq 0 ] && [ -z "$(find "$OUT/artifacts" -newer "$marker" -name '*-*' ! -name 'slow-unit-*' -print -quit)" ]; then
  echo "fuzz.sh: the campaign ran no input (executions: 0): $( [ ${#logs[@]} -gt 0 ] && rf_first_error "${logs[0]}" || echo "no fuzzer run started")" >&2
  exit 2
fi
# Each artifact of this campaign beside the case it decoded to (`redfuzz decode`, under this
# campaign's REDFUZZ_ONLY, REDFUZZ_PLUGINS and limits: plugins= and only= in the case), so it
# reads as it ran wherever it goes; decode and shrink check an artifact against it.
while IFS= read -r art; do
  if [ -e "$art.case" ]; then
    "$RF" decode "$art" > /dev/null 2>"$OUT/.decode-err" ||
      echo "fuzz.sh: $art.case: $(head -c 400 "$OUT/.decode-err")"
  elif "$RF" decode "$art" > "$art.case.tmp" 2>"$OUT/.decode-err" && [ -s "$art.case.tmp" ]; then
    mv "$art.case.tmp" "$art.case"
  else
    rm -f "$art.case.tmp"; echo "fuzz.sh: $art: not decoded: $(head -c 400 "$OUT/.decode-err")"
  fi
done < <(find "$OUT/artifacts" -newer "$marker" -type f \( -name 'crash-*' -o -name 'timeout-*' \
           -o -name 'oom-*' -o -name 'slow-unit-*' \) ! -name '*.case' ! -name '*.tmp')
rm -f "$OUT/.decode-err"

grep -ahoE 'size cap: [^ ]+ runs only on cases of at most [0-9]+ elements' "${logs[@]}" 2>/dev/null |
  sort -u | sed 's/^/fuzz.sh: /' || true
# The size budget (run/fuzz_select.h): each size class's caps, then how it was spent, summed
# over the workers' runs (a run ended by libFuzzer's timeout or an interrupt prints none).
grep -ahoE 'size class [0-9]+: at most .*' "${logs[@]}" 2>/dev/null | sort -u |
  sed 's/^/fuzz.sh: /' || true
cat "${logs[@]}" /dev/null 2>/dev/null | grep -aoE 'size class [0-9]+ spent: .*' |
  awk '{ k = $3 + 0; e[k] += $5; t[k] += $7; if ($11 + 0 > n[k]) n[k] = $11 + 0
         if ($14 + 0 > r[k]) r[k] = $14 + 0; p[k] += $19; g[k] += $23; cap = $25 + 0
         E += $5; T += $7; P += $19; G += $23; seen[k] = 1 }
       END { fmt = "fuzz.sh: size class %d spent: %d executions (%.1f%%), %.1f s (%.1f%% of the"
             fmt = fmt " execution time), largest n %d, largest rows %d; %d past 2^16 elements,"
             fmt = fmt " %d past %d rows\n"
             for (k = 0; k < 8; k++) if (seen[k])
               printf fmt, k, e[k], E ? 100 * e[k] / E : 0, t[k], T ? 100 * t[k] / T : 0, n[k],
                      r[k], p[k], g[k], cap
             if (E) printf "fuzz.sh: cases past 2^16 elements: %d; past every row variant grid cap (%d rows): %d\n", P, cap, G }' || true

# The derived boundaries (class 4, docs/BOUNDARIES.md) the campaign ran, by kind, summed over
# the workers' runs: a kind at 0 was never drawn (the selected variants have none of it, or
# none within the class's caps).
cat "${logs[@]}" /dev/null 2>/dev/null | grep -aoE 'boundary kinds reached:.*' |
  awk '{ for (i = 4; i <= NF; i++) { split($i, kv, "="); if (!(kv[1] in s)) name[++n] = kv[1]
                                     s[kv[1]] += kv[2] } }
       END { if (n) { printf "fuzz.sh: derived boundaries run, by kind:"
                      for (i = 1; i <= n; i++) printf " %s %d", name[i], s[name[i]]
                      printf "\n" } }' || true

# Failures by signature (variant verdict dist [rule=R]): the target prints "ERROR: redfuzz:
# VARIANT VERDICT dist=DIST[ rule=R]" for each failing variant before aborting, into its
# worker's log.
echo "== failures by signature"
cat "${logs[@]}" /dev/null 2>/dev/null | grep -aoE 'ERROR: redfuzz: [^ ]+ [a-z-]+( dist=[a-z0-9-]+)?( rule=[a-z-]+)?' |
  cut -d' ' -f3- | sed 's/ dist=/ /' | sort | uniq -c || true
echo "== signatures left out (--known): $(grep -c . "$OUT/.known-given" || true)"
# Artifacts by kind. A timeout or slow unit has no verdict: it is listed, not shrunk
# (`redfuzz decode FILE > case.txt; redfuzz run --case case.txt` runs it again).
echo "== artifacts: $(for k in crash timeout oom slow-unit; do
  printf '%s %s  ' "$(find "$OUT/artifacts" -name "$k-*" ! -name '*.case' | wc -l)" "$k"; done)"
# A slow unit is no failure (an input slower than libFuzzer's -report_slow_units, 10 s): a
# campaign that found none still lists them, so say so, and how to see one as the target ran it.
if [ -n "$(find "$OUT/artifacts" -name 'slow-unit-*' -print -quit)" ]; then
  echo "   slow-unit: an input that ran longer than 10 s, not a failure; the case it ran is" \
       "FILE.case beside it (${PLUGINS:+REDFUZZ_PLUGINS='$PLUGINS' }$RF run --case FILE.case)"
fi

new=0
if [ "$SHRINK" = 1 ]; then
  # One shrink per signature: the first artifact of each (a run's log names its artifact and
  # the signature that stopped it), with the campaign's plugins loaded.
  seen=" "
  for l in "${logs[@]}"; do
    art=$(grep -aoE 'Test unit written to .*crash-[0-9a-f]+' "$l" | head -n 1 | sed 's/^Test unit written to //' || true)
    [ -n "$art" ] && [ -f "$art" ] || continue
    first=$(grep -aoE 'ERROR: redfuzz: [^ ]+ [a-z-]+( dist=[a-z0-9-]+)?( rule=[a-z-]+)?' "$l" | head -n 1 | cut -d' ' -f3- || true)
    sig=${first// /_} var=${first%% *}; [[ "$var" == */* ]] || var=""
    case "$seen" in *" ${sig:-$art} "*) continue;; esac
    seen="$seen${sig:-$art} "
    # Shrunk for the signature's variant (an input may fail several), decoded as it ran.
    rc=0; rf_file_finding "$RF" "$art" "$ONLY" "$OUT/shrunk" "$REG" "$PLUGINS" "" "$var" || rc=$?
    [ $rc -eq 0 ] && new=$((new + 1))
  done
fi
echo "fuzz.sh: $new new finding(s) in $REG/$([ -n "$PLUGINS" ] && echo " (after a fix: redfuzz guard, docs/FINDINGS.md)")"
# What the corpus reaches in each variant's kernels, replayed on the simulator.
[ -n "$COVERAGE" ] || { [ "$BACKEND" = sim ] && COVERAGE=1 || COVERAGE=0; }
if [ "$COVERAGE" = 1 ]; then
  # The coverage build is a simulator with the coverage flags: a plugin source is built for it
  # (sim-cov: its regions count); a plain simulator library loads there too (without regions);
  # a library of another flavour cannot, and without its variants the selection is empty.
  cov_plugin=() cov_skip=""
  if [ -n "$PLUGIN_SRC" ]; then cov_plugin=(--plugin-src "$PLUGIN_SRC")
  elif [ -n "$PLUGINS" ]; then
    case "$(rf_build_flavour "$BUILD")" in
      sim|sim-cov) rf_plugin_args "$PLUGINS"; cov_plugin=("${RF_PLUGIN_ARGS[@]}");;
      *) cov_skip="the plugin is built for $(rf_build_flavour "$BUILD"); the coverage build loads a sim-cov or sim one (--plugin-src SRC builds it)";;
    esac
  fi
  if [ -n "$cov_skip" ]; then echo "fuzz.sh: kernel coverage skipped: $cov_skip"
  else
    bash scripts/coverage.sh --only "$ONLY" --out "$OUT/coverage" "${cov_plugin[@]}" "$OUT/corpus" corpus/bin ||
      echo "fuzz.sh: the coverage report failed (scripts/coverage.sh)"
  fi
fi
# Exit status: 1 when this campaign found a failure (a failing verdict, or a case that hung or
# ran out of memory), so run.sh and CI see it; 0 when it found none.
found=$(find "$OUT/artifacts" -newer "$marker" \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) ! -name '*.case' | wc -l)
sigs=$(cat "${logs[@]}" 2>/dev/null | grep -acE 'ERROR: redfuzz: [^ ]+ [a-z-]+' || true)
if [ "$found" -gt 0 ] || [ "${sigs:-0}" -gt 0 ]; then
  echo "fuzz.sh: FAILURES FOUND: $found new artifact(s) in $OUT/artifacts, $sigs failing verdict line(s) in the logs"
  exit 1
fi
echo "fuzz.sh: no failure found"
exit 0

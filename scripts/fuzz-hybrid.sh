#!/usr/bin/env bash
# A hybrid campaign: the GPU fuzzer and a ThreadSanitizer simulator fuzzer (same variant
# selection) on one shared corpus folder. Every input one side keeps lands in that folder and
# the other side's libFuzzer processes load and run it within a second (-reload=1). Failures
# from either side are shrunk into regressions/ with the side that found them named.
#   scripts/fuzz-hybrid.sh --sim-build DIR [--backend cuda|hip|sim] [--build DIR] [--time S]
#                          [--op OP | --only LIST] [--out DIR] [--gpu-jobs N] [--sim-jobs N]
#                          [--no-shrink] [--findings DIR] [--known FILE]
#                          [--plugin-gpu LIB] [--plugin-sim LIB] | [--plugin-src SRC.hip]
# (also reached as `scripts/fuzz.sh --hybrid ...`)
# --sim-build: a ThreadSanitizer simulator fuzz build folder made elsewhere (a GPU runner may
#   have no compilers): cmake --preset sim -B DIR -DREDFUZZ_FUZZER=ON -DREDFUZZ_SANITIZE=thread
#   && cmake --build DIR --target redfuzz_fuzz redfuzz. Its binaries need only the C/C++
#   runtime (docs/CAMPAIGNS.md, "Hybrid campaigns").
# --build: the GPU side's build folder (default build-fuzz-BACKEND; redfuzz_fuzz and redfuzz).
#   --backend sim runs a plain simulator build in the GPU's place (tests, no GPU).
# Cores: the GPU side runs one libFuzzer per GPU and judges on the CPU (its oracle), so it gets
#   half the cores for judging threads; the simulator side runs one single-threaded
#   libFuzzer per remaining core. --gpu-jobs / --sim-jobs override the process counts.
# Findings: libFuzzer stops at a failure of a new signature ("variant verdict dist"); the
#   process is restarted (reloading the shared corpus) with that signature known (one list,
#   OUT/known-signatures, for both sides), so it fuzzes on, the same variant included, for
#   other signatures until the time is up. Each side's first failure of each signature is
#   shrunk with that side's redfuzz (and plugin): GPU side into regressions/, TSan side into
#   regressions/tsan/ (its verdicts, `race` included, hold in a ThreadSanitizer build).
#   --findings DIR (or --regressions DIR) instead of regressions/; a campaign with plugins (your
#   kernel) files into findings/<plugin name>/ under the folder you run from by default, never
#   into the project's regressions/ (docs/FINDINGS.md). Each artifact gets the case it decoded
#   to beside it (ARTIFACT.case). --known FILE: signatures to leave out from the start (lines
#   "variant verdict [dist] [rule=NAME]").
# Plugins: --plugin-gpu LIB for the GPU side (built for --build's backend), --plugin-sim LIB
#   for the simulator side (built like --sim-build: -fsanitize=thread), each a colon list; or
#   --plugin-src SRC: each side's library is built from it (scripts/redfuzz-plugin, into
#   OUT/plugin). They are loaded by the fuzzers, `list` and the shrink of that side.
# Paths given are taken from the caller's folder. --out is emptied first: a folder holding
# files this script did not write is refused. A side whose target refuses to start (a bad
# REDFUZZ_* setting, a name that selects no variant, a plugin that does not load) stops the
# campaign: exit 2 with the target's own first error line, as for a campaign that ran nothing.
set -euo pipefail
RF_CALLER_DIR=${RF_CALLER_DIR:-$PWD}   # the default findings folder of a plugin campaign is under it
cd "$(dirname "$0")/.."
RF_PROG="fuzz-hybrid.sh"
source scripts/lib/opts.sh
source scripts/lib/findings.sh
source scripts/lib/plugin.sh
source scripts/lib/budget.sh
source scripts/lib/refused.sh
rf_errexit_2
RF_OPT_ALLOWED=([--backend]="cuda, hip, sim" [--build]="a build folder" [--sim-build]="a build folder"
  [--time]="a positive number of seconds" [--op]="an op name" [--only]="variant or op names, comma-separated"
  [--out]="a folder" [--gpu-jobs]="a positive number" [--sim-jobs]="a positive number"
  [--regressions]="a folder" [--findings]="a folder" [--known]="a file of known signatures"
  [--plugin-gpu]="a plugin library (.so)" [--plugin-sim]="a plugin library (.so)"
  [--plugin-src]="a plugin source (.hip)")
BACKEND=cuda; BUILD=""; SIM_BUILD=""; TIME=600; ONLY=""; OUT=out/hybrid; SHRINK=1; REG=""
GPU_JOBS=""; SIM_JOBS=""; KNOWN=""; PLUGIN_GPU=""; PLUGIN_SIM=""; PLUGIN_SRC=""
usage() { rf_opt_fail "$1"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --hybrid) shift;;
    --backend) rf_opt_value BACKEND "$@"; shift 2;;
    --build) rf_opt_path BUILD "$@"; shift 2;;
    --sim-build) rf_opt_path SIM_BUILD "$@"; shift 2;;
    --time) rf_opt_value TIME "$@"; shift 2;;
    --op|--only) rf_opt_value ONLY "$@"; shift 2;;
    --out) rf_opt_path OUT "$@"; shift 2;;
    --gpu-jobs) rf_opt_value GPU_JOBS "$@"; shift 2;;
    --sim-jobs) rf_opt_value SIM_JOBS "$@"; shift 2;;
    --no-shrink) SHRINK=0; shift;;
    --regressions) rf_opt_path REG "$@"; shift 2;;
    --findings) rf_opt_path REG "$@"; shift 2;;
    --known) rf_opt_path KNOWN "$@"; shift 2;;
    --plugin-gpu) rf_opt_value PLUGIN_GPU "$@"; rf_abs_list PLUGIN_GPU; shift 2;;
    --plugin-sim) rf_opt_value PLUGIN_SIM "$@"; rf_abs_list PLUGIN_SIM; shift 2;;
    --plugin-src) rf_opt_path PLUGIN_SRC "$@"; shift 2;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$RF_SELF"; exit 0;;
    *) rf_opt_unknown "$1";;
  esac
done
[ -z "$KNOWN" ] || [ -f "$KNOWN" ] || usage "--known: '$KNOWN' is not a file"
[ -z "$PLUGIN_SRC" ] || [ -z "$PLUGIN_GPU$PLUGIN_SIM" ] ||
  usage "--plugin-src and --plugin-gpu/--plugin-sim: give the source or the libraries"
# Neither: both sides load REDFUZZ_PLUGINS, as before the flags.
if [ -z "$PLUGIN_GPU$PLUGIN_SIM$PLUGIN_SRC" ]; then
  PLUGIN_GPU=${REDFUZZ_PLUGINS:-}; rf_abs_list PLUGIN_GPU; PLUGIN_SIM=$PLUGIN_GPU
fi
case "$BACKEND" in sim|cuda|hip) ;; *) usage "--backend: '$BACKEND' (allowed: cuda, hip, sim)";; esac
rf_opt_int --time "$TIME" 1 "$RF_MAX_SECONDS" "a positive number of seconds"
[ -z "$GPU_JOBS" ] || rf_opt_int --gpu-jobs "$GPU_JOBS" 1 "$RF_MAX_JOBS" "a positive number"
[ -z "$SIM_JOBS" ] || rf_opt_int --sim-jobs "$SIM_JOBS" 1 "$RF_MAX_JOBS" "a positive number"
: "${BUILD:=build-fuzz-$BACKEND}"
[ -n "$SIM_BUILD" ] || usage "--sim-build DIR is required: a ThreadSanitizer simulator fuzz build (see --help)"
for f in "$BUILD/fuzz/redfuzz_fuzz" "$BUILD/fuzz/redfuzz" "$SIM_BUILD/fuzz/redfuzz_fuzz" "$SIM_BUILD/fuzz/redfuzz"; do
  [ -x "$f" ] || usage "'$f' is missing: build it first (see --help)"
done
grep -q '^REDFUZZ_SANITIZE:STRING=thread$' "$SIM_BUILD/CMakeCache.txt" 2>/dev/null ||
  echo "fuzz-hybrid.sh: warning: $SIM_BUILD does not look like a ThreadSanitizer build (REDFUZZ_SANITIZE=thread): races will show only as wrong results" >&2

CORES=$(nproc)
GPUS=1
if [ "$BACKEND" = cuda ] && command -v nvidia-smi >/dev/null; then GPUS=$(nvidia-smi -L | wc -l); fi
[ "$GPUS" -ge 1 ] || GPUS=1
: "${GPU_JOBS:=$GPUS}"
# Half the cores judge for the GPU side; the rest run simulator processes (at least one).
JUDGE=$(( CORES / 2 / GPU_JOBS )); [ "$JUDGE" -ge 1 ] || JUDGE=1
: "${SIM_JOBS:=$(( CORES - CORES / 2 > 0 ? CORES - CORES / 2 : 1 ))}"
SIDE_GPU=$BACKEND; SIDE_SIM=sim-tsan
[ "$BACKEND" = sim ] && SIDE_GPU=sim-plain

rf_fresh_dir --out "$OUT"
if [ -n "$PLUGIN_SRC" ]; then
  PLUGIN_GPU=$(rf_plugin_build "$PLUGIN_SRC" "$(rf_build_flavour "$BUILD")" "$OUT/plugin") || exit 2
  PLUGIN_SIM=$(rf_plugin_build "$PLUGIN_SRC" "$(rf_build_flavour "$SIM_BUILD")" "$OUT/plugin") || exit 2
fi
IFS=: read -r -a libs <<< "$PLUGIN_GPU:$PLUGIN_SIM"
for p in "${libs[@]}"; do [ -z "$p" ] || [ -f "$p" ] || usage "plugin '$p' is not a file"; done
# Findings of a plugin (named after the GPU side's, the same plugin built for the other side)
# never go into the project's regressions/.
: "${REG:=$(rf_findings_dir "${PLUGIN_GPU:-$PLUGIN_SIM}" "$RF_CALLER_DIR")}"
rf_findings_check "$REG" "$PLUGIN_GPU$PLUGIN_SIM" .
# Known signatures, shared by every process of both sides (read by each at its start).
KNOWN_ALL="$OUT/known-signatures"
if [ -n "$KNOWN" ]; then grep -avE '^[[:space:]]*(#|$)' "$KNOWN" > "$KNOWN_ALL" || true; else : > "$KNOWN_ALL"; fi
mkdir -p "$OUT/corpus" "$OUT/logs" "$OUT/failing-inputs" "$OUT/artifacts/$SIDE_GPU" "$OUT/artifacts/$SIDE_SIM"
rf_mkdir --regressions "$REG"
# The selection as a list of variant names (op names expanded to their correct variants,
# plugin variants included): a selection of no variant is refused before anything runs.
selection() {
  local json; rf_plugin_args "$PLUGIN_GPU"
  json=$("$BUILD/fuzz/redfuzz" "${RF_PLUGIN_ARGS[@]}" list --json 2>"$OUT/logs/list.err") || {
    echo "fuzz-hybrid.sh: $BUILD/fuzz/redfuzz list refused to run: $(rf_first_error "$OUT/logs/list.err")" >&2
    exit 2; }
  if [ -z "$ONLY" ]; then
    grep -a '"mutant":false' <<<"$json" | grep -aoE '"variant":"[^"]+"' | cut -d'"' -f4
    return
  fi
  local item
  for item in ${ONLY//,/ }; do
    case "$item" in
      */*) echo "$item";;
      *) grep -a "\"op\":\"$item\"" <<<"$json" | grep -a '"mutant":false' | grep -aoE '"variant":"[^"]+"' | cut -d'"' -f4;;
    esac
  done
}
SELECTION=$(selection | paste -sd, -) || exit 2
[ -n "$SELECTION" ] || usage "'${ONLY:-every correct variant}' selects no variant ($BUILD/fuzz/redfuzz list)"
# The processes get the selection as given (empty: every correct variant; an op: its correct
# variants, the side's plugins' included), not the list above: every correct variant's names
# made a REDFUZZ_ONLY of 2154 characters, which the fuzz target refuses (at most 1023), so a
# hybrid campaign without --only ran nothing and reported no failures.
# The seeds start the shared corpus under their SHA-1 names, libFuzzer's own naming, so an
# input is one file whichever side keeps or fails it.
# (One sha1sum for them all: three processes a seed took seconds on a loaded machine.)
sha1sum corpus/bin/* | while read -r sum f; do cp "$f" "$OUT/corpus/$sum"; done
# The simulator reports races as the verdict `race` and goes on (mutation-score.sh does too).
export TSAN_OPTIONS="halt_on_error=0 report_signal_unsafe=0 ${TSAN_OPTIONS:-}"
start=$(date +%s); deadline=$(( start + TIME ))
echo "fuzz-hybrid.sh: ${TIME}s; $SIDE_GPU side: $GPU_JOBS process(es) from $BUILD, $JUDGE judging thread(s) each;" \
     "$SIDE_SIM side: $SIM_JOBS process(es) from $SIM_BUILD; variants: ${ONLY:-every correct variant}; corpus $OUT/corpus" \
     "${PLUGIN_GPU:+; plugin $SIDE_GPU side: $PLUGIN_GPU}${PLUGIN_SIM:+; plugin $SIDE_SIM side: $PLUGIN_SIM}"

# The failure artifact a run's log names (a path, spaces allowed), or nothing.
artifact_of() {
  grep -aoE 'Test unit written to .*(crash|timeout|oom|leak)-[0-9a-f]+' "$1" | head -n 1 |
    sed 's/^Test unit written to //' || true
}
# One libFuzzer process slot: runs until the deadline, restarted after each failure (libFuzzer
# stops at the first), each run in its own log. The corpus folder is the shared one: new
# inputs go there, and -reload=1 loads what the other processes put there. A signature a
# run stopped at joins the known list, which the next run reads: found once is enough (it
# is shrunk below), and a bug every input shows (even the empty input, which libFuzzer
# always runs first) would otherwise stop each restart at once and hide every other finding,
# of the same variant too. A run that stops without a new signature (a timeout, a crash of
# the process) is restarted the same way.
slot() {
  local side=$1 k=$2 fuzz=$3 judge=$4 dev=$5 plugins=$6 run=0 left art env=() sel=$ONLY rc
  env+=(REDFUZZ_JUDGE_THREADS="$judge" REDFUZZ_PLUGINS="$plugins" REDFUZZ_KNOWN="$KNOWN_ALL")
  [ -n "$dev" ] && env+=(CUDA_VISIBLE_DEVICES="$dev")
  while [ ! -e "$OUT/logs/refused" ] && rf_budget_left "$deadline" "$run" "$TIME"; do
    left=$RF_LEFT
    run=$((run + 1))
    env "${env[@]}" REDFUZZ_ONLY="$sel" "$fuzz" -reload=1 -max_total_time="$left" -timeout=60 -rss_limit_mb=8192 \
      -artifact_prefix="$OUT/artifacts/$side/" -print_final_stats=1 -seed=$((k * 1000 + run)) \
      "$OUT/corpus" > "$OUT/logs/$side-$k-$run.log" 2>&1 &
    echo $! > "$OUT/logs/pid-$side-$k"
    wait $! || { rc=$?
      # A target that refused to start refuses again on every restart: the campaign stops.
      if rf_run_refused "$OUT/logs/$side-$k-$run.log" "$rc"; then
        [ -e "$OUT/logs/refused" ] || printf '%s\t%s\t%s\n' "$side" "$rc" "$OUT/logs/$side-$k-$run.log" > "$OUT/logs/refused"
        break
      fi; }
    # A failing input from the shared corpus (a seed, or one the other side kept) would stop
    # every restart at once: it leaves the corpus (its artifact is kept).
    art=$(artifact_of "$OUT/logs/$side-$k-$run.log")
    [ -n "$art" ] && [ -f "$OUT/corpus/${art##*-}" ] && mv -f "$OUT/corpus/${art##*-}" "$OUT/failing-inputs/" || true
    grep -aoE '^ERROR: redfuzz: [^ ]+ [a-z-]+ dist=[a-z0-9-]+( rule=[a-z-]+)?' "$OUT/logs/$side-$k-$run.log" |
      cut -d' ' -f3- | sed 's/ dist=/ /' >> "$KNOWN_ALL" || true
  done
}
# Stops the running libFuzzer processes (by the ids the slots recorded), then the slots.
stop_all() {
  local f
  for f in "$OUT"/logs/pid-*; do [ -f "$f" ] && kill -INT "$(cat "$f")" 2>/dev/null || true; done
  kill "${pids[@]}" 2>/dev/null || true
  return 0
}
pids=()
for k in $(seq 1 "$GPU_JOBS"); do
  dev=""; [ "$BACKEND" = cuda ] && [ "$GPUS" -gt 1 ] && dev=$(( (k - 1) % GPUS ))
  slot "$SIDE_GPU" "$k" "$BUILD/fuzz/redfuzz_fuzz" "$JUDGE" "$dev" "$PLUGIN_GPU" & pids+=($!)
done
for k in $(seq 1 "$SIM_JOBS"); do
  slot "$SIDE_SIM" "$k" "$SIM_BUILD/fuzz/redfuzz_fuzz" 1 "" "$PLUGIN_SIM" & pids+=($!)
done
trap 'stop_all; exit 130' INT; trap 'stop_all; exit 143' TERM   # 128 + the signal
# Failure artifacts so far (libFuzzer's slow-unit-* files are information, not failures).
failures_in() { find "$OUT/artifacts/$1" -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' | wc -l; }
while [ "$(date +%s)" -lt "$deadline" ] && [ ! -e "$OUT/logs/refused" ]; do
  for _ in $(seq 1 $(( TIME < 10 ? 1 : 10 ))); do sleep 1; [ ! -e "$OUT/logs/refused" ] || break; done
  echo "fuzz-hybrid.sh: $(( $(date +%s) - start ))s corpus $(ls "$OUT/corpus" | wc -l)," \
       "failing inputs $SIDE_GPU $(failures_in "$SIDE_GPU"), $SIDE_SIM $(failures_in "$SIDE_SIM")"
done
# libFuzzer honours -max_total_time between inputs; give a long input 30 s, then stop it.
for _ in $(seq 1 30); do
  alive=0; for p in "${pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1 || true; done
  [ "$alive" = 0 ] && break; sleep 1
done
stop_all
wait || true
elapsed=$(( $(date +%s) - start ))
if [ -e "$OUT/logs/refused" ]; then
  IFS=$'\t' read -r side rc log < "$OUT/logs/refused"
  echo "fuzz-hybrid.sh: the $side side's fuzz target refused to start (exit $rc), the campaign stopped: $(rf_first_error "$log" "$rc")" >&2
  echo "fuzz-hybrid.sh: its whole output: $log" >&2
  exit 2
fi
# Each artifact beside the case it decoded to, by its side's redfuzz and plugin under the
# selection both sides ran (redfuzz decode: plugins= and only= in the case).
for side in "$SIDE_GPU" "$SIDE_SIM"; do
  if [ "$side" = "$SIDE_GPU" ]; then rf=$BUILD/fuzz/redfuzz plugins=$PLUGIN_GPU
  else rf=$SIM_BUILD/fuzz/redfuzz plugins=$PLUGIN_SIM; fi
  while IFS= read -r art; do
    [ -e "$art.case" ] && continue
    if REDFUZZ_PLUGINS="$plugins" REDFUZZ_ONLY="$SELECTION" "$rf" decode "$art" > "$art.case.tmp" 2>/dev/null &&
       [ -s "$art.case.tmp" ]; then mv "$art.case.tmp" "$art.case"
    else rm -f "$art.case.tmp"; echo "fuzz-hybrid.sh: $art: not decoded"; fi
  done < <(find "$OUT/artifacts/$side" -type f ! -name '*.case' ! -name '*.tmp')
done

# Per side: executions (each run's last status line or final count), inputs loaded from the
# other side (RELOAD lines), failures by signature with the time of the first.
executions() {
  local total=0 n f
  for f in "$OUT"/logs/"$1"-*.log; do
    [ -f "$f" ] || continue
    n=$( { grep -aoE '^#[0-9]+' "$f" | tr -d '#'; grep -aoE 'number_of_executed_units: [0-9]+' "$f" | grep -oE '[0-9]+$'; } | sort -n | tail -n 1 || true)
    total=$(( total + ${n:-0} ))
  done
  echo "$total"
}
# "SIGNATURE<tab>ARTIFACT<tab>SECONDS" (SIGNATURE: variant:verdict:dist[:rule=R]) for each failing variant of
# each run that ended in a failure, timed by the end of that run (its log's time: one artifact
# name can be written again).
findings() {
  local f sigs sig art t
  for f in "$OUT"/logs/"$1"-*.log; do
    art=$(artifact_of "$f")
    [ -n "$art" ] || continue
    sigs=$(grep -aoE 'ERROR: redfuzz: [^ ]+ [a-z-]+( dist=[a-z0-9-]+)?( rule=[a-z-]+)?' "$f" | cut -d' ' -f3- |
           sed 's/ dist=/ /' | tr ' ' ':' | sort -u || true)
    [ -n "$sigs" ] || sigs=$(basename "$art" | cut -d- -f1):no-verdict   # timeout, oom, crash in redfuzz
    t=$(( $(stat -c %Y "$f" 2>/dev/null || echo "$start") - start ))
    for sig in $sigs; do printf '%s\t%s\t%s\n' "$sig" "$art" "$t"; done
  done | sort -t$'\t' -k3,3n
}
echo "== hybrid summary after ${elapsed}s"
total=0
for side in "$SIDE_GPU" "$SIDE_SIM"; do
  ex=$(executions "$side"); total=$((total + ex))
  reloads=$(cat "$OUT"/logs/"$side"-*.log 2>/dev/null | grep -ac 'RELOAD' || true)
  echo "$side: $ex executions ($(( ex / (elapsed > 0 ? elapsed : 1) ))/s), $reloads corpus reloads with new inputs from the other processes, $(find "$OUT/artifacts/$side" -name 'slow-unit-*' ! -name '*.case' | wc -l) slow inputs (>10 s, not failures)"
  # One line per variant and verdict; the dists its signatures came from in brackets.
  findings "$side" | awk -F'\t' -v side="$side" '{ split($1, p, ":"); key = p[1] " " p[2]; n[key]++
      if (!(key in first)) first[key] = $3
      if (p[3] != "" && !((key, p[3]) in seen)) { seen[key, p[3]] = 1; d[key] = d[key] (d[key] == "" ? "" : ", ") p[3] } }
    END { if (length(n) == 0) print "  no failures";
          for (s in n) printf "  %s: %d failing run(s), first after %ds%s\n", s, n[s], first[s], (s in d) ? " (dists: " d[s] ")" : "" }'
done

# No input run on either side, and no failure: the campaign has no result.
if [ "$total" -eq 0 ] && [ -z "$(findings "$SIDE_GPU"; findings "$SIDE_SIM")" ]; then
  first=$(ls "$OUT"/logs/*.log 2>/dev/null | head -n 1 || true)
  echo "fuzz-hybrid.sh: the campaign ran no input (executions: 0): $([ -n "$first" ] && rf_first_error "$first" || echo "no fuzzer run started")" >&2
  exit 2
fi
new=0
if [ "$SHRINK" = 1 ]; then
  for side in "$SIDE_GPU" "$SIDE_SIM"; do
    if [ "$side" = "$SIDE_GPU" ]; then rf=$BUILD/fuzz/redfuzz dest=$REG plugins=$PLUGIN_GPU
    else rf=$SIM_BUILD/fuzz/redfuzz dest=$REG/tsan plugins=$PLUGIN_SIM; fi
    seen=" "
    while IFS=$'\t' read -r sig art _; do
      [ -n "$sig" ] || continue
      case "$seen" in *" $sig "*) continue;; esac
      seen="$seen$sig "
      case "$sig" in *:no-verdict) echo "not shrunk ($side, no verdict): $art"; continue;; esac
      # Named in the file: the side that found it (a comment line the case parser skips).
      # Decoded under the selection both sides ran (as the case beside it says), shrunk for
      # the signature's variant.
      rc=0; rf_file_finding "$rf" "$art" "$SELECTION" "$OUT/shrunk-$side" "$dest" "$plugins" \
        "hybrid campaign, $side side ($( [ "$side" = "$SIDE_SIM" ] && echo "$SIM_BUILD" || echo "$BUILD" ))" \
        "${sig%%:*}" > /dev/null || rc=$?
      case $rc in
        0) new=$((new + 1)); echo "new regression ($side): $dest/$(basename "$RF_FINDING")";;
        1) echo "known ($side): $dest/$RF_FINDING_SIG-*.case";;
        *) echo "shrink failed ($side): $art";;
      esac
    done < <(findings "$side")
  done
fi
echo "fuzz-hybrid.sh: $new new finding(s) in $REG/"

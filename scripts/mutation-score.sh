#!/usr/bin/env bash
# Mutation score: fuzz each known-bug mutant alone from the seed corpus and report whether,
# how fast and with which verdict it is caught.
#   scripts/mutation-score.sh [--backend sim|cuda] [--budget S] [--build DIR] [--tsan]
#                             [--mutants LIST] [--plugin LIB]... | [--plugin-src SRC.hip]
# --tsan: use the ThreadSanitizer simulator build (races are reported as `race`).
# --mutants: only these mutants (comma-separated names), e.g. the ones a change added.
# --plugin LIB: load the plugin (its known-bug variants are mutants too); --plugin-src SRC:
#   build it for this build first (scripts/redfuzz-plugin).
# Prints a table: mutant, caught, verdict, seconds and executions to first detection.
# Paths given are the caller's. A fuzz target that refuses to start (a bad REDFUZZ_* setting,
# a plugin that does not load) is no score: exit 2 with its own first error line.
set -euo pipefail
RF_CALLER_DIR=${RF_CALLER_DIR:-$PWD}
cd "$(dirname "$0")/.."
RF_PROG="mutation-score.sh"
source scripts/lib/opts.sh
source scripts/lib/findings.sh
source scripts/lib/plugin.sh
source scripts/lib/build_lock.sh
source scripts/lib/refused.sh
rf_errexit_2
RF_OPT_ALLOWED=([--backend]="sim, cuda, hip" [--budget]="a number of seconds" [--build]="a build folder"
  [--mutants]="mutant names, comma-separated" [--plugin]="a plugin library (.so)"
  [--plugin-src]="a plugin source (.hip)")
BACKEND=sim; BUDGET=60; BUILD=""; TSAN=0; ONLY=""; PLUGINS=""; PLUGIN_SRC=""; v=""
while [ $# -gt 0 ]; do
  case "$1" in
    --backend) rf_opt_value BACKEND "$@"; shift 2;;
    --budget) rf_opt_value BUDGET "$@"; shift 2;;
    --build) rf_opt_path BUILD "$@"; shift 2;;
    --tsan) TSAN=1; shift;;
    --mutants) rf_opt_value ONLY "$@"; shift 2;;
    --plugin) rf_opt_path v "$@"; PLUGINS=${PLUGINS:+$PLUGINS:}$v; shift 2;;
    --plugin-src) rf_opt_path PLUGIN_SRC "$@"; shift 2;;
    -h|--help) sed -n '2,/^[^#]/{/^#/p}' "$RF_SELF"; exit 0;;
    *) rf_opt_unknown "$1";;
  esac
done
case "$BACKEND" in sim|cuda|hip) ;; *) rf_opt_fail "--backend: '$BACKEND' (allowed: sim, cuda, hip)";; esac
rf_opt_int --budget "$BUDGET" 1 "$RF_MAX_SECONDS" "a positive number of seconds"
EXTRA=()
if [ "$TSAN" = 1 ]; then
  : "${BUILD:=build-fuzz-$BACKEND-tsan}"; EXTRA=(-DREDFUZZ_SANITIZE=thread)
  export TSAN_OPTIONS="halt_on_error=0 report_signal_unsafe=0 ${TSAN_OPTIONS:-}"
fi
: "${BUILD:=build-fuzz-$BACKEND}"
FUZZ=$BUILD/fuzz/redfuzz_fuzz RF=$BUILD/fuzz/redfuzz
if [ ! -x "$FUZZ" ] || [ ! -x "$RF" ]; then
  build_mut() {
    cmake --preset "$BACKEND" -B "$BUILD" -DREDFUZZ_FUZZER=ON -DREDFUZZ_MUTANTS=ON "${EXTRA[@]}" >/dev/null &&
      cmake --build "$BUILD" -j "$(nproc)" --target redfuzz_fuzz redfuzz
  }
  rf_build_locked "$BUILD" build_mut
fi
[ -n "$PLUGINS$PLUGIN_SRC" ] || { PLUGINS=${REDFUZZ_PLUGINS:-}; rf_abs_list PLUGINS; }   # as before the flags
if [ -n "$PLUGIN_SRC" ]; then
  PLUGINS=$(rf_plugin_build "$PLUGIN_SRC" "$(rf_build_flavour "$BUILD")" "$BUILD/plugin") || exit 2
fi
export REDFUZZ_PLUGINS="$PLUGINS"
rf_plugin_args "$PLUGINS"
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
rc=0; "$RF" "${RF_PLUGIN_ARGS[@]}" list --json > "$work/list.json" 2> "$work/list.err" || rc=$?
[ "$rc" -eq 0 ] || { echo "mutation-score.sh: $RF list refused to run (exit $rc): $(rf_first_error "$work/list.err" "$rc")" >&2; exit 2; }
mutants=$(grep '"mutant":true' "$work/list.json" | grep -v '"huge_only":true' | sed 's/.*"variant":"\([^"]*\)".*/\1/' || true)
[ -n "$mutants" ] || rf_opt_fail "--build: '$BUILD' has no mutants (allowed: a build with -DREDFUZZ_MUTANTS=ON, or a plugin with known-bug variants)"
if [ -n "$ONLY" ]; then
  for m in ${ONLY//,/ }; do
    printf '%s\n' $mutants | grep -qxF "$m" ||
      { echo "mutation-score.sh: --mutants: '$m' is not a mutant of this build (see redfuzz list)" >&2; exit 2; }
  done
  mutants=${ONLY//,/ }
fi
printf '%-32s %-7s %-18s %9s %9s\n' mutant caught verdict seconds execs
caught=0; total=0; times=()
for m in $mutants; do
  total=$((total + 1))
  mkdir -p "$work/$total"
  t0=$(date +%s.%N)
  set +e
  REDFUZZ_ONLY="$m" timeout $((BUDGET + 30)) "$FUZZ" -max_total_time="$BUDGET" -timeout=60 \
    -artifact_prefix="$work/$total/" -print_final_stats=1 "$work/$total" corpus/bin \
    > "$work/$total.log" 2>&1
  rc=$?
  set -e
  if rf_run_refused "$work/$total.log" "$rc"; then   # every mutant would say "NO": no score
    echo "mutation-score.sh: the fuzz target refused to start for $m (exit $rc), no score: $(rf_first_error "$work/$total.log" "$rc")" >&2
    exit 2
  fi
  t1=$(date +%s.%N)
  secs=$(awk -v a="$t0" -v b="$t1" "BEGIN{print b-a}")
  verdict=$(awk -v m="$m" '$1 == m && $2 != "pass" && $2 != "unsupported" {print $2; exit}' "$work/$total.log")
  execs=$(grep -aoE 'stat::number_of_executed_units: *[0-9]+' "$work/$total.log" | grep -oE '[0-9]+$' || true)
  [ -z "$execs" ] && execs=$(grep -aoE '^#[0-9]+' "$work/$total.log" | tail -n 1 | tr -d '#')
  if [ -n "$verdict" ]; then
    caught=$((caught + 1)); times+=("$secs")
    printf '%-32s %-7s %-18s %9.2f %9s\n' "$m" yes "$verdict" "$secs" "${execs:-?}"
  else
    printf '%-32s %-7s %-18s %9s %9s\n' "$m" NO - ">$BUDGET" "${execs:-?}"
  fi
done
median=$(printf '%s\n' "${times[@]:-}" | sort -g | awk '{a[NR]=$1} END {if (NR) print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2); else print "-"}')
echo "mutation score: $caught/$total caught; median seconds to detection: $median (backend $BACKEND$([ "$TSAN" = 1 ] && echo ', TSan'))"
echo "$caught passed, $((total - caught)) failed"

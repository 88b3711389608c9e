#!/usr/bin/env bash
# CPU per execution of the simulator's fuzz target on a fixed input sequence: every file of
# corpus/bench (102 inputs a campaign found, kept so that two builds run the same cases) run
# once through redfuzz_fuzz, every correct variant, one judge thread. Prints the CPU seconds
# and ms per execution (user + system, repeatable on a loaded machine to ~10 %), the runner's
# stages (REDFUZZ_PROFILE=1; wall time) and, with --callgrind, instructions per execution
# (valgrind, exact, ~50x slower; the binary is copied without its debug info, which this
# valgrind cannot read). Figures only, no thresholds (docs/SIMULATOR.md, "Performance").
#   scripts/bench-fuzz-sim.sh [--build DIR] [--callgrind] [--inputs DIR]
# Defaults: build (scripts/fuzz.sh builds its fuzz target), corpus/bench. Env REDFUZZ_* as the
# fuzz target reads them (REDFUZZ_MAX_THREADS=4294967296 measures without the thread cap).
set -euo pipefail
RF_CALLER_DIR=${RF_CALLER_DIR:-$PWD}   # paths given are the caller's (lib/opts.sh)
cd "$(dirname "$0")/.."
RF_PROG="bench-fuzz-sim.sh"
source scripts/lib/opts.sh
BUILD=build; CALLGRIND=0; INPUTS=corpus/bench
while [ $# -gt 0 ]; do
  case "$1" in
    --build) rf_opt_path BUILD "$@"; shift 2;;
    --callgrind) CALLGRIND=1; shift;;
    --inputs) rf_opt_path INPUTS "$@"; shift 2;;
    -h|--help) sed -n '2,11p' "$RF_SELF"; exit 0;;
    *) rf_opt_unknown "$1";;
  esac
done
FUZZ=$BUILD/fuzz/redfuzz_fuzz
[ -x "$FUZZ" ] || { echo "bench-fuzz-sim.sh: $FUZZ not built (scripts/fuzz.sh builds it)" >&2; exit 2; }
mapfile -t files < <(find "$INPUTS" -type f | sort)
n=${#files[@]}
[ "$n" -gt 0 ] || { echo "bench-fuzz-sim.sh: no inputs in $INPUTS" >&2; exit 2; }
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export REDFUZZ_JUDGE_THREADS=${REDFUZZ_JUDGE_THREADS:-1}
# A failure found here is a finding, not a benchmark error: the target aborts on it.
# Artifacts (slow units) go to the scratch folder, not the checkout.
/usr/bin/time -f '%U %S' -o "$work/cpu" env REDFUZZ_PROFILE=1 "$FUZZ" -artifact_prefix="$work/" "${files[@]}" \
  > "$work/log" 2>&1 || { echo "bench-fuzz-sim.sh: the target failed:"; tail -n 20 "$work/log"; exit 1; }
read -r user sys < "$work/cpu"
awk -v u="$user" -v s="$sys" -v n="$n" 'BEGIN { printf "bench-fuzz-sim: %d executions, CPU %.2f s (user %.2f, sys %.2f), %.1f ms per execution\n", n, u + s, u, s, 1000 * (u + s) / n }'
grep -a 'time per execution' "$work/log" | sed 's/^redfuzz fuzz: /bench-fuzz-sim: wall /'
if [ "$CALLGRIND" = 1 ]; then
  command -v valgrind >/dev/null || { echo "bench-fuzz-sim.sh: valgrind not installed" >&2; exit 2; }
  objcopy --strip-debug "$FUZZ" "$work/fuzz"
  valgrind --tool=callgrind --callgrind-out-file="$work/cg.out" "$work/fuzz" \
    -artifact_prefix="$work/" "${files[@]}" \
    > "$work/cg.log" 2>&1
  ir=$(grep -aoE 'Collected : [0-9]+' "$work/cg.log" | grep -oE '[0-9]+$')
  awk -v ir="$ir" -v n="$n" 'BEGIN { printf "bench-fuzz-sim: %.3g instructions, %.1f M per execution\n", ir, ir / n / 1e6 }'
  # The costliest functions (exclusive instructions), for the per-stage split.
  callgrind_annotate "$work/cg.out" 2>/dev/null | grep -E '^ *[0-9,]+ ' | head -n 25 |
    sed 's/^/bench-fuzz-sim:   /'
fi

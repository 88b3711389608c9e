# shellcheck shell=bash
# Option parsing shared by scripts/*.sh (sourced, bash). A script sets RF_PROG (its name in
# messages) and, optionally, RF_OPT_ALLOWED[--flag]="what the value may be", then in its
# `case "$1"` loop:
#   --time) rf_opt_value TIME "$@"; shift 2;;     # a flag with a value
#   *) rf_opt_unknown "$1";;
# A flag whose value is missing (last argument, or followed by another --flag) is a usage
# error, exit 2 with a message naming it and what is allowed, never bash's "$2: unbound
# variable" under set -u. Values are kept whole: paths with spaces stay one word.
declare -gA RF_OPT_ALLOWED 2>/dev/null || true
: "${RF_PROG:=$(basename "$0")}"
# Numbers are parsed and printed the C way (a point before the decimals) whatever the caller's
# locale: under a comma-decimal one (de_DE.UTF-8) awk read the target's "12.5 s" as 12 and
# bash's printf refused "1.25", so a campaign's per-class seconds came out wrong
# (tests/cli/hostile/scripts-exit.sh runs the scripts under such a locale).
export LC_ALL=C
# Paths on the command line are the caller's. A script that works from the checkout root
# sets RF_CALLER_DIR=$PWD before its `cd`; rf_opt_path (below) makes a relative value
# absolute against it (a relative --build that was not a folder of the checkout made fuzz.sh
# configure a whole build tree there). Defaults stay in the checkout (out/fuzz, regressions).
: "${RF_CALLER_DIR:=$PWD}"
# The script itself, absolute (its --help reads its header: "$0" relative to the caller's
# folder did not name it after the cd, and `../scripts/fuzz.sh --help` printed nothing).
# shellcheck disable=SC2034  # read by the scripts
RF_SELF=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/$(basename "$0")

# rf_opt_fail MESSAGE...: the usage error (stderr, exit 2).
rf_opt_fail() { echo "$RF_PROG: $*" >&2; exit 2; }

# rf_opt_value VAR FLAG [VALUE ...]: VAR=VALUE, or a usage error when VALUE is missing, or
# when VAR was set by a flag before (a flag given twice, or --op with --only: the last one won,
# silently, as the commands' own flags never do). --plugin is repeatable.
declare -gA RF_OPT_SEEN 2>/dev/null || true
rf_opt_value() {
  local var=$1 flag=$2
  local hint=${RF_OPT_ALLOWED[$flag]:-}
  if [ $# -lt 3 ] || [[ "$3" == --?* ]]; then
    rf_opt_fail "$flag needs a value${hint:+ (allowed: $hint)}"
  fi
  local before=${RF_OPT_SEEN[$var]:-}
  if [ -n "$before" ] && [ "$flag" != --plugin ]; then
    [ "$before" = "$flag" ] && rf_opt_fail "$flag: given twice (allowed: once)"
    rf_opt_fail "$flag: given with $before, which sets the same thing (allowed: one of them)"
  fi
  RF_OPT_SEEN[$var]=$flag
  printf -v "$var" '%s' "$3"
}

# rf_opt_unknown FLAG: an option no branch took.
rf_opt_unknown() { rf_opt_fail "unknown option '$1' (see --help)"; }

# rf_opt_int FLAG VALUE LO HI WHAT: VALUE is a decimal number in LO..HI, else a usage error
# naming FLAG, e.g. "--time: 'x' is not a positive number of seconds (allowed: 1..2147483647)".
# Checked by its digits before any arithmetic: bash's wraps past 2^63, and
# --time 99999999999999999999 made a campaign of no time at all that said "no failure found".
rf_opt_int() {
  local flag=$1 v=$2 lo=$3 hi=$4 what=$5
  if ! [[ "$v" =~ ^[0-9]+$ ]] || [ ${#v} -gt ${#hi} ] || [ $((10#$v)) -lt "$lo" ] ||
     [ $((10#$v)) -gt "$hi" ]; then
    rf_opt_fail "$flag: '$v' is not $what (allowed: $lo..$hi)"
  fi
}
RF_MAX_SECONDS=2147483647   # libFuzzer's -max_total_time and afl-fuzz's -V are ints
RF_MAX_JOBS=4096

# rf_abs PATH: PATH made absolute against the caller's directory (an absolute one as it is).
rf_abs() {
  case "$1" in /*) printf '%s' "$1";; *) printf '%s/%s' "$RF_CALLER_DIR" "$1";; esac
}

# rf_opt_path VAR FLAG [VALUE ...]: as rf_opt_value for a path, which must not be empty, made
# absolute against the caller's directory.
rf_opt_path() {
  local var=$1 flag=$2
  rf_opt_value "$@"
  [ -n "${!var}" ] || rf_opt_fail "$flag: '' is empty (allowed: ${RF_OPT_ALLOWED[$flag]:-a path})"
  [[ "${!var}" == /* ]] || printf -v "$var" '%s/%s' "$RF_CALLER_DIR" "${!var}"
}

# rf_abs_list VAR: the colon list of paths in VAR (REDFUZZ_PLUGINS), each made absolute.
rf_abs_list() {
  local -n list_=$1
  local p out="" IFS=:
  for p in $list_; do [ -n "$p" ] && out=${out:+$out:}$(rf_abs "$p"); done
  list_=$out
}

# rf_mkdir FLAG DIR...: creates each folder, or exits 2 naming FLAG, the folder and why (an
# --out that cannot be made is bad usage, not "a failure found": set -e exited 1 there).
rf_mkdir() {
  local flag=$1 d why
  shift
  for d in "$@"; do
    why=$(mkdir -p -- "$d" 2>&1) ||
      rf_opt_fail "$flag: cannot create the folder '$d': ${why##*: } (allowed: a folder you can write)"
  done
}

# rf_fresh_dir FLAG DIR: DIR emptied for a new run's outputs, which a script made itself
# before: a folder holding anything else (a user's files, the checkout: `--out .`) is refused,
# exit 2, never removed (coverage.sh and fuzz-hybrid.sh removed their --out whole).
rf_fresh_dir() {
  local flag=$1 dir=$2 mark=.redfuzz-$RF_PROG
  if [ -e "$dir" ] && [ ! -d "$dir" ]; then rf_opt_fail "$flag: '$dir' is not a folder (allowed: a folder)"; fi
  if [ -d "$dir" ] && [ -n "$(ls -A -- "$dir" 2>/dev/null)" ] && [ ! -f "$dir/$mark" ]; then
    rf_opt_fail "$flag: '$dir' is not empty and has no $mark, the mark of a folder $RF_PROG made (allowed: a new or empty folder, or one an earlier run made, which it empties; an old one without the mark: remove it yourself)"
  fi
  if [ -d "$dir" ]; then
    find "$dir" -mindepth 1 -delete 2>/dev/null ||
      rf_opt_fail "$flag: cannot empty '$dir' (allowed: a folder you can write)"
  fi
  rf_mkdir "$flag" "$dir"
  : > "$dir/$mark" 2>/dev/null || rf_opt_fail "$flag: cannot write into '$dir' (allowed: a folder you can write)"
}

# rf_errexit_2: from here on a step that fails unexpectedly under set -e ends the script with
# exit 2 (it has no result), not with the step's own status, which a campaign's caller would
# read as its verdict (1: a failure found; mkdir of an --out it could not create exited 1).
# Only where errexit is on (set +e sections and conditions test statuses themselves); a
# subshell passes its status up, where the script's own shell says it once.
rf_errexit_2() {
  set -E
  trap 'rf_err_exit_2 $? $LINENO' ERR
}
rf_err_exit_2() {
  [[ $- == *e* ]] || return 0
  [ "$BASH_SUBSHELL" -gt 0 ] && exit "$1"
  echo "$RF_PROG: stopped: a step failed (line $2, exit $1): no result" >&2
  exit 2
}

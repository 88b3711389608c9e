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

# rf_opt_fail MESSAGE...: the usage error (stderr, exit 2).
rf_opt_fail() { echo "$RF_PROG: $*" >&2; exit 2; }

# rf_opt_value VAR FLAG [VALUE ...]: VAR=VALUE, or a usage error when VALUE is missing.
rf_opt_value() {
  local var=$1 flag=$2
  local hint=${RF_OPT_ALLOWED[$flag]:-}
  if [ $# -lt 3 ] || [[ "$3" == --?* ]]; then
    rf_opt_fail "$flag needs a value${hint:+ (allowed: $hint)}"
  fi
  printf -v "$var" '%s' "$3"
}

# rf_opt_unknown FLAG: an option no branch took.
rf_opt_unknown() { rf_opt_fail "unknown option '$1' (see --help)"; }

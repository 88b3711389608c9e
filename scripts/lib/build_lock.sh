# shellcheck shell=bash
# One build of a folder at a time (sourced by the scripts that bring a build up to date).
#
# rf_build_locked DIR CMD...
#   Runs CMD (a command or a shell function) holding DIR/.redfuzz-build.lock (flock(1)), and
#   says on stderr when it waits. Two campaigns started at once on the same build folder ran
#   two ninjas in it, and one stopped with "no such file or directory: kernels/
#   librf_kernels.a" and "building ... failed" (a blind run of two campaigns, 2026-12-06).
#   Returns CMD's status.
rf_build_locked() {
  local dir=$1
  shift
  mkdir -p "$dir"
  (
    exec 9>"$dir/.redfuzz-build.lock"
    if ! flock -n 9; then
      echo "${RF_PROG:-redfuzz}: waiting for another build of $dir to finish" >&2
      flock 9
    fi
    "$@"
  )
}

#!/usr/bin/env bash
# Lints what CI cannot run: the GitHub workflows, the ClusterFuzzLite project and the container
# recipes, with what Debian offers: yamllint (syntax and style), scripts/lint_ci.py (structure:
# jobs, steps, Dockerfile instructions, COPY sources) and shellcheck (build.sh and the fuzzing
# scripts). Cheap: a few seconds.
#   scripts/lint-ci.sh             lint the repository's files
#   scripts/lint-ci.sh --self-test each check fires on a planted fault
# Exits 0 when clean, 1 on a problem, 2 when a tool is missing.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
for tool in yamllint shellcheck python3; do
  command -v "$tool" >/dev/null || { echo "lint-ci: $tool not found (scripts/bootstrap.sh)" >&2; exit 2; }
done
# Workflows use `on:` keys and long `run:` lines; documents need no '---'.
YAMLLINT_CONF='{extends: default, rules: {line-length: {max: 110}, truthy: {check-keys: false},
  document-start: disable, comments: {min-spaces-from-content: 1}}}'

lint() {  # context root, then files; prints problems, returns 1 if any
  local ctx=$1; shift
  local yml=() docker=() sh=() f rc=0
  for f in "$@"; do
    case "$f" in
      *.yml|*.yaml) yml+=("$f");;
      *.sh) sh+=("$f");;
      *) docker+=("$f");;
    esac
  done
  if [ ${#yml[@]} -gt 0 ]; then yamllint -f parsable -d "$YAMLLINT_CONF" "${yml[@]}" || rc=1; fi
  if [ $(( ${#yml[@]} + ${#docker[@]} )) -gt 0 ]; then
    python3 "$root/scripts/lint_ci.py" "$ctx" "${yml[@]}" "${docker[@]}" || rc=1
  fi
  if [ ${#sh[@]} -gt 0 ]; then shellcheck -S warning "${sh[@]}" || rc=1; fi
  return $rc
}

self_test() {
  local d passes=0 fails=0
  d=$(mktemp -d); trap 'rm -rf "$d"' RETURN
  mkdir -p "$d/ctx" && touch "$d/ctx/present.txt"
  printf 'name: ok\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: "true"\n' >"$d/good.yml"
  printf 'name: bad\non: push\njobs:\n  a:\n    runs-on: [x\n' >"$d/syntax.yml"
  printf 'name: bad\non: push\njobs:\n  a:\n    steps:\n      - run: "true"\n' >"$d/no_runs_on.yml"
  printf 'name: bad\non: push\njobs:\n  a:\n    runs-on: x\n    steps:\n      - uses: actions/checkout\n' >"$d/bad_uses.yml"
  printf 'language: cobol\n' >"$d/project.yaml"
  printf 'FROM debian:12\nCOPY present.txt /x\nCMD ["true"]\n' >"$d/good.Dockerfile"
  printf 'FROM debian:12\nRUNN true\n' >"$d/unknown.Dockerfile"
  printf 'FROM debian:12\nCOPY absent.txt /x\n' >"$d/copy.Dockerfile"
  printf 'FROM debian:12\nRUN apt-get update && apt-get install -y cmake\n' >"$d/apt.Dockerfile"
  printf '#!/bin/bash\nrm -rf $1/*\ncd $DIR\n' >"$d/bad.sh"
  expect() {  # name, wanted status (0 clean, 1 problem), file
    lint "$d/ctx" "$3" >"$d/out" 2>&1; local rc=$?
    if [ "$rc" -eq "$2" ]; then passes=$((passes + 1)); echo "self-test PASS $1"
    else fails=$((fails + 1)); echo "self-test FAIL $1 (exit $rc, wanted $2):"; sed 's/^/    /' "$d/out"; fi
  }
  expect "a correct workflow is clean" 0 "$d/good.yml"
  expect "a YAML syntax error is reported" 1 "$d/syntax.yml"
  expect "a job without runs-on is reported" 1 "$d/no_runs_on.yml"
  expect "a uses without @ref is reported" 1 "$d/bad_uses.yml"
  expect "an unknown ClusterFuzzLite language is reported" 1 "$d/project.yaml"
  expect "a correct Dockerfile is clean" 0 "$d/good.Dockerfile"
  expect "an unknown Dockerfile instruction is reported" 1 "$d/unknown.Dockerfile"
  expect "a COPY of a missing file is reported" 1 "$d/copy.Dockerfile"
  expect "apt-get without hygiene is reported" 1 "$d/apt.Dockerfile"
  expect "a shell script problem is reported" 1 "$d/bad.sh"
  echo "$passes passed, $fails failed"
  [ "$fails" -eq 0 ]
}

if [ "${1:-}" = --self-test ]; then self_test; exit $?; fi
cd "$root" || exit 2
shopt -s nullglob
files=(.github/workflows/*.yml .clusterfuzzlite/project.yaml .clusterfuzzlite/Dockerfile
       docker/*.Dockerfile .clusterfuzzlite/build.sh scripts/fuzz-afl.sh scripts/shrink-findings.sh
       scripts/check-hip-build.sh scripts/lint-ci.sh tests/ci/*.sh)
if lint "$root" "${files[@]}"; then echo "lint-ci: ${#files[@]} files clean"; exit 0; fi
echo "lint-ci: problems found"; exit 1

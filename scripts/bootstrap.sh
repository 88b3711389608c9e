#!/usr/bin/env bash
# Installs every system package redfuzz needs (Debian 12). Idempotent: when all
# packages are present it prints one line and touches nothing.
set -euo pipefail

PKGS=(
  clang-19 lld-19 llvm-19 libfuzzer-19-dev libclang-rt-19-dev  # fuzzer, sanitizers (symbolizer), gfx1201 check
  libmpfr-dev libgmp-dev                               # exact oracle
  cmake ninja-build make pkg-config
  libboost-context-dev                                 # fast fibers for the CPU simulator
  libamdhip64-dev                                      # HIP headers and runtime (hip backend)
  rocm-device-libs clang-tools-19                      # hip backend: device libraries, offload bundler
  afl++                                                # scripts/fuzz.sh --engine afl
  yamllint shellcheck                                  # CI lint of workflows and scripts
  gnuplot-nox                                          # study plots
)

missing=()
for p in "${PKGS[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "bootstrap: all ${#PKGS[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "bootstrap: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
echo "bootstrap: done"

#!/usr/bin/env bash
# Installs the Debian packages tilepipe needs. Quick no-op when all are present.
set -euo pipefail
pkgs=(llvm-19-dev libmlir-19-dev mlir-19-tools llvm-19-tools libabsl-dev libgtest-dev
      libbenchmark-dev libz3-dev libcadical-dev libpugixml-dev liblemon-dev librsvg2-bin cmake ninja-build g++ python3 python3-venv zlib1g-dev libzstd-dev)
# `--with-fuzz` (make test): also clang-19 and its libFuzzer runtime, for the
# fuzz smoke run (docs/fuzzing.md); `make run` does not need them.
if [ "${1:-}" = "--with-fuzz" ]; then
  pkgs+=(clang-19 libclang-rt-19-dev)
fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then exit 0; fi
echo "tilepipe: installing missing Debian packages: ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"

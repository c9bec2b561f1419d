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
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
# One line per step: dpkg's hundreds of lines go to a log, shown only when a
# step fails (-qq does not silence dpkg).
log=$(mktemp /tmp/tilepipe-apt.XXXXXX.log)
step() {
  echo "tilepipe: $1"
  shift
  if ! "$@" > "$log" 2>&1; then
    tail -n 40 "$log"
    echo "tilepipe: failed: $* (log: $log)"
    exit 1
  fi
}
step "updating the package lists" $SUDO apt-get update -qq
step "installing ${#missing[@]} Debian packages: ${missing[*]}" \
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
rm -f "$log"
echo "tilepipe: packages installed"

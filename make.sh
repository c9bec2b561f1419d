#!/bin/sh
# The README's two commands on a machine without make (a minimal Debian 12):
#   sh make.sh run    sh make.sh test
# installs make with apt-get when it is missing, then runs it.
set -e
if ! command -v make >/dev/null 2>&1; then
  echo "tilepipe: installing make"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  log=$(mktemp /tmp/tilepipe-apt.XXXXXX.log)
  if ! { $SUDO apt-get update -qq && \
         $SUDO apt-get install -y -qq --no-install-recommends make; } > "$log" 2>&1; then
    tail -n 40 "$log"
    echo "tilepipe: installing make failed (log: $log)"
    exit 1
  fi
  rm -f "$log"
fi
cd "$(dirname "$0")"
exec make "$@"

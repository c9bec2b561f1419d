#!/usr/bin/env bash
# Compiles every NAME.VARIANT.cu of a scripts/harness-bundle.py folder as the
# protocol harness for sm_90a (Hopper runs it: the tensor-core payloads are
# stamps, the pipes, barriers and mutexes are real) and runs each binary with
# a bound on its time. A clean variant must report every run ok; a seeded one
# (missing-wait, wrong-phase) must report at least one run not ok.
#   scripts/harness-run.sh DIR [TRIPS [CTAS]]
# Prints one verdict line per file and "harness: N of M as expected".
set -u
dir=$1; trips=${2:-}; ctas=${3:-}
inc="$(cd "$(dirname "$0")/.." && pwd)/cuda/include"
nvcc=${NVCC:-/usr/local/cuda/bin/nvcc}
ls "$dir"/*.cu >/dev/null 2>&1 || { echo "harness: no .cu in $dir"; exit 2; }
# Each build on its own core; nvcc's own output goes to NAME.build.log.
ls "$dir"/*.cu | xargs -P "$(nproc)" -I{} sh -c \
  "'$nvcc' -std=c++17 -O2 -DTILEPIPE_HARNESS -DTILEPIPE_HARNESS_MAIN \
   -gencode arch=compute_90a,code=sm_90a -I '$inc' -diag-suppress 177 \
   '{}' -o '{}.bin' > '{}.build.log' 2>&1"
good=0; all=0
for cu in "$dir"/*.cu; do
  all=$((all + 1)); name=$(basename "$cu" .cu)
  if [ ! -x "$cu.bin" ]; then
    echo "$name: BUILD FAILED: $(grep -m1 error "$cu.build.log")"; continue
  fi
  # A seeded run ends in a bounded wait (about 2 s): fewer runs for those.
  case $name in
    *.clean) t=$trips; c=$ctas ;;
    *) t=${trips:-5,1000}; c=${ctas:-1,132} ;;
  esac
  timeout 120 "$cu.bin" $t $c > "$cu.runs" 2>&1; rc=$?
  if [ "$rc" = 77 ]; then
    echo "$name: skipped: $(head -c 200 "$cu.runs")"; good=$((good + 1)); continue
  fi
  runs=$(grep -c '^{' "$cu.runs"); bad=$(grep '^{' "$cu.runs" | grep -vc '"ok": true')
  case $name in
    *.clean) ok=$([ "$rc" = 0 ] && [ "$bad" = 0 ] && [ "$runs" -gt 0 ] && echo 1) ;;
    *) ok=$([ "$bad" -gt 0 ] || [ "$rc" = 124 ] && echo 1) ;;
  esac
  [ -n "$ok" ] && good=$((good + 1))
  echo "$name: exit $rc, $((runs - bad)) of $runs runs ok $([ -n "$ok" ] && echo '(as expected)' || echo '(NOT AS EXPECTED)')"
  [ -z "$ok" ] && head -c 2000 "$cu.runs"
done
echo "harness: $good of $all as expected"
[ "$good" = "$all" ]

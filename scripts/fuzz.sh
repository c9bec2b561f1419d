#!/bin/sh
# Builds the libFuzzer targets (fuzz/, docs/fuzzing.md) in their own clang
# build directory when needed and runs each for a bounded time on a copy of
# its seed corpus (fuzz/corpus/<name>). Prints one line per target:
#   fuzz-NAME: passed (RUNS runs, cov C, ft F, corpus N) in S s
#   fuzz-NAME: failed (crash, input in DIR) ...
# and exits non-zero when a build or any fuzzer failed.
#
# usage: scripts/fuzz.sh [--build DIR] [--seconds N] [--seed N] [--skip NAME]... [NAME...]
#   --seed N: libFuzzer's seed (default 0: a new one each run); the CI smoke
#   run fixes it, so a machine runs the same inputs every time.
#   NAME: problem-json xml hatschet target-json schedule mlir (default: all)
set -u
cd "$(dirname "$0")/.."
BUILD=build-fuzz
SECONDS_EACH=20
SEED=0
SKIP=""
NAMES=""
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD=$2; shift 2 ;;
    --seconds) SECONDS_EACH=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --skip) SKIP="$SKIP $2"; shift 2 ;;
    *) NAMES="$NAMES $1"; shift ;;
  esac
done
[ -n "$NAMES" ] || NAMES="problem-json xml hatschet target-json schedule mlir tileir-bytecode"
JOBS=${JOBS:-$(nproc)}
CC=${FUZZ_CC:-clang-19}
CXX=${FUZZ_CXX:-clang++-19}

if [ ! -f "$BUILD/build.ninja" ]; then
  echo "fuzz: configuring $BUILD ($CXX)"
  mkdir -p "$BUILD"
  cmake -G Ninja -S . -B "$BUILD" -DCMAKE_C_COMPILER="$CC" -DCMAKE_CXX_COMPILER="$CXX" \
    -DTILEPIPE_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" \
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG" > "$BUILD/fuzz-configure.log" 2>&1 \
    || { cat "$BUILD/fuzz-configure.log"; rm -f "$BUILD/build.ninja"; echo "fuzz: configure failed"; exit 1; }
fi
TARGETS=""
for name in $NAMES; do
  case " $SKIP " in *" $name "*) continue ;; esac
  TARGETS="$TARGETS fuzz-$name"
done
# The build takes minutes on a fresh machine: a progress line (ninja's
# [done/total]) every 30 s, the full log only when it fails.
echo "fuzz: building$TARGETS in $BUILD (log: $BUILD/fuzz-build.log)"
# shellcheck disable=SC2086
cmake --build "$BUILD" -j "$JOBS" --target $TARGETS > "$BUILD/fuzz-build.log" 2>&1 &
build_pid=$!
while kill -0 "$build_pid" 2> /dev/null; do
  waited=0
  while [ $waited -lt 30 ] && kill -0 "$build_pid" 2> /dev/null; do
    sleep 1
    waited=$((waited + 1))
  done
  if kill -0 "$build_pid" 2> /dev/null; then
    progress=$(grep -o '^\[[0-9]*/[0-9]*\]' "$BUILD/fuzz-build.log" | tail -n 1)
    echo "fuzz: building ${progress:-(configuring)}"
  fi
done
if ! wait "$build_pid"; then
  tail -n 40 "$BUILD/fuzz-build.log"
  echo "fuzz: build failed (log: $BUILD/fuzz-build.log)"
  exit 1
fi

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
ARTIFACTS="$BUILD/fuzz-artifacts"

# One fuzzer: its summary line (and on a failure the sanitizer's first lines)
# into $WORK/NAME.result, its exit status into $WORK/NAME.rc.
fuzz_one() {
  name=$1
  bin="$BUILD/fuzz/fuzz-$name"
  mkdir -p "$WORK/$name" "$ARTIFACTS/$name"
  cp fuzz/corpus/"$name"/* "$WORK/$name/"
  log="$ARTIFACTS/$name/last-run.log"
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1} \
    "$bin" -seed="$SEED" -max_total_time="$SECONDS_EACH" -rss_limit_mb=2048 -timeout=10 \
    -print_final_stats=1 -artifact_prefix="$ARTIFACTS/$name/" "$WORK/$name" > "$log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  cov=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | sed -n 's/.*cov: \([0-9]*\) ft: \([0-9]*\) corp: \([0-9]*\).*/cov \1, ft \2, corpus \3/p')
  if [ "$rc" -eq 0 ]; then
    echo "fuzz-$name: passed (${runs:-?} runs, ${cov:-no stats}) in $SECONDS_EACH s" > "$WORK/$name.result"
  else
    { grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|.*deadly signal|.*-timeout|.*out-of-memory)' "$log" | head -n 5
      echo "fuzz-$name: failed (exit $rc, ${runs:-?} runs; input and log in $ARTIFACTS/$name/)"; } > "$WORK/$name.result"
  fi
  echo "$rc" > "$WORK/$name.rc"
}

# A fuzzer runs on one core: JOBS of them side by side, each for its own
# SECONDS_EACH, so the smoke run takes (targets / JOBS) x SECONDS_EACH, not
# targets x SECONDS_EACH. Their lines are printed in the order of NAMES.
status=0
running=0
order=""
for name in $NAMES; do
  case " $SKIP " in *" $name "*) order="$order $name"; continue ;; esac
  fuzz_one "$name" &
  order="$order $name"
  running=$((running + 1))
  if [ "$running" -ge "$JOBS" ]; then
    wait
    running=0
  fi
done
wait
for name in $order; do
  case " $SKIP " in *" $name "*) echo "fuzz-$name: skipped"; continue ;; esac
  cat "$WORK/$name.result"
  [ "$(cat "$WORK/$name.rc" 2>/dev/null)" = 0 ] || status=1
done
exit $status

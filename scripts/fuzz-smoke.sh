#!/bin/sh
# The fuzz smoke run of `make test` (docs/fuzzing.md): when clang-19 and its
# libFuzzer runtime (Debian: clang-19, libclang-rt-19-dev) are installed,
# builds the fuzzers in FUZZ_BUILD (default build-fuzz) and runs each for
# FUZZ_SMOKE_SECONDS (default 5) seconds; otherwise says it skipped.
cd "$(dirname "$0")/.."
CXX=${FUZZ_CXX:-clang++-19}
if ! command -v "$CXX" > /dev/null 2>&1 ||
   [ ! -f "$("$CXX" -print-resource-dir)/lib/linux/libclang_rt.fuzzer-$(uname -m).a" ]; then
  echo "fuzz: skipped (clang-19 / libclang-rt-19-dev not installed)"
  exit 0
fi
# FUZZ_SMOKE_SKIP: fuzzers (names without fuzz-) neither built nor run.
skips=""
for name in $FUZZ_SMOKE_SKIP; do
  skips="$skips --skip $name"
done
# shellcheck disable=SC2086
exec scripts/fuzz.sh --build "${FUZZ_BUILD:-build-fuzz}" --seconds "${FUZZ_SMOKE_SECONDS:-5}" --seed 1 $skips

#!/usr/bin/env bash
# The CPU emulator's TMA loads and stores, mbarrier phases and conversions
# against a real GPU, byte for byte (test/fidelity/tma_fidelity.cu,
# docs/cpu-emulation.md "Fidelity on hardware"). Needs only this source tree,
# g++ and nvcc: no cmake, no tilepipe-opt.
#
#   scripts/fidelity-check.sh [--source tma|wgmma] [--out DIR] [--only SUBSTR]
#
# Builds the source twice (g++ -DTILEPIPE_CPU, nvcc for sm_90a), runs the
# emulator build and checks its dump against the PTX ISA model and worked
# cases, runs the GPU build, and compares the two dumps: one verdict line per
# configuration, then the mismatches again and `N of M configurations match
# (D match (data): ...; F match (both fault); ...)`. A configuration matches
# when both sides produced the same bytes, or when both faulted: the
# emulator with its report (a load whose innermost coordinate is not a
# multiple of 16 bytes, the rule measured on sm_90) and the hardware with a
# kernel error ("an illegal instruction was encountered"). Stores compare the
# whole global allocation, mbarrier scripts the test_wait/try_wait answers
# after each step.
#
# Exit status: 0 all match; 1 a mismatch (or the emulator fails its own
# self-check); 2 a build or run error; 77 no CUDA device (or no nvcc): the
# CPU side was built and run, the hardware side skipped. The CPU side alone
# (build, dump, self-check) also runs in `make test`:
# test/lit/cuda/fidelity-cpu.test.
#
# Environment: CXX (g++), NVCC (nvcc on PATH, else /usr/local/cuda/bin/nvcc),
# FIDELITY_ARCH (90a: H100/H200; 100a for a B200), FIDELITY_OUT (as --out),
# FIDELITY_PREBUILT (PREFIX: run PREFIX.cpu and PREFIX.gpu, build nothing).

set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
source=${FIDELITY_SOURCE:-tma}
out=${FIDELITY_OUT:-}
only=()
while [ $# -gt 0 ]; do
  case "$1" in
  --source) source=$2; shift 2 ;;
  --out) out=$2; shift 2 ;;
  --only) only=(--only "$2"); shift 2 ;;
  -h | --help) sed -n '2,30p' "$0"; exit 0 ;;
  *) echo "fidelity-check: unknown argument $1" >&2; exit 2 ;;
  esac
done
# tma (test/fidelity/tma_fidelity.cu) or wgmma (wgmma_fidelity.cu: one
# wgmma.mma_async per configuration, the accumulator registers dumped).
src="$root/test/fidelity/${source}_fidelity.cu"
[ -f "$src" ] || { echo "fidelity-check: no source $src" >&2; exit 2; }
[ -n "$out" ] || out=$(mktemp -d "${TMPDIR:-/tmp}/tilepipe-fidelity.XXXXXX")
mkdir -p "$out" || exit 2
bin=$(mktemp -d "${TMPDIR:-/tmp}/tilepipe-fidelity-bin.XXXXXX") || exit 2
trap 'rm -rf "$bin"' EXIT

cxx=${CXX:-g++}
nvcc=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
arch=${FIDELITY_ARCH:-90a}
cc=${arch%a}
to=()
command -v timeout >/dev/null && to=(timeout 120)

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }

echo "fidelity-check: dumps and logs in $out"

# Both builds at once, unless a bundle brings them (FIDELITY_PREBUILT=PREFIX:
# PREFIX.cpu and PREFIX.gpu, built by scripts/gpu-bundle.py where the
# compilers are, for a machine that only runs them).
t0=$(now)
haveNvcc=0
if [ -n "${FIDELITY_PREBUILT:-}" ]; then
  for side in cpu gpu; do
    cp "$FIDELITY_PREBUILT.$side" "$bin/fid.$side" || {
      echo "fidelity-check: no prebuilt $FIDELITY_PREBUILT.$side" >&2
      exit 2
    }
  done
  haveNvcc=1
  echo "using the prebuilt $FIDELITY_PREBUILT.cpu and .gpu"
else
  "$cxx" -std=c++17 -O1 -Wno-psabi -x c++ -DTILEPIPE_CPU -I "$root/cuda/include" -I "$root" \
    "$src" -o "$bin/fid.cpu" >"$out/build-cpu.log" 2>&1 &
  cpuBuild=$!
  haveNvcc=0
  if [ -x "$nvcc" ] || command -v "$nvcc" >/dev/null 2>&1; then
    haveNvcc=1
    "$nvcc" -std=c++17 -O2 -gencode "arch=compute_$arch,code=sm_$arch" \
      -DTP_FIDELITY_CC="$cc" -I "$root/cuda/include" -I "$root" "$src" -o "$bin/fid.gpu" \
      >"$out/build-gpu.log" 2>&1 &
    gpuBuild=$!
  fi
  if ! wait "$cpuBuild"; then
    cat "$out/build-cpu.log" >&2
    echo "fidelity-check: the emulator build failed" >&2
    exit 2
  fi
  echo "built the emulator side ($cxx) in $(secs "$t0" "$(now)") s"
  if [ "$haveNvcc" = 1 ]; then
    if ! wait "$gpuBuild"; then
      cat "$out/build-gpu.log" >&2
      echo "fidelity-check: the sm_$arch build failed" >&2
      exit 2
    fi
    echo "built the hardware side (nvcc, sm_$arch) in $(secs "$t0" "$(now)") s"
  fi
fi

# The emulator's dump, checked against the model before anything is compared.
t1=$(now)
"${to[@]}" "$bin/fid.cpu" --dump "$out/cpu.bin" --selftest "${only[@]}"
rc=$?
echo "ran the emulator side in $(secs "$t1" "$(now)") s"
if [ $rc -ne 0 ]; then
  echo "fidelity-check: the emulator side failed (exit $rc)" >&2
  [ $rc -eq 1 ] && exit 1
  exit 2
fi

if [ "$haveNvcc" != 1 ]; then
  echo "skipped: no nvcc (looked for $nvcc)"
  exit 77
fi
"$bin/fid.gpu" --device-check
rc=$?
if [ $rc -eq 77 ]; then
  echo "skipped: no CUDA device"
  exit 77
elif [ $rc -ne 0 ]; then
  echo "fidelity-check: the device check failed (exit $rc)" >&2
  exit 2
fi

# The hardware's dump. A CUDA fault is sticky and a timed-out wait may leave
# a copy in flight, so the program stops there and says where to resume.
t2=$(now)
start=0
restarts=0
while :; do
  "${to[@]}" "$bin/fid.gpu" --dump "$out/gpu.bin" --start "$start" "${only[@]}" \
    >"$out/gpu-run.log" 2>&1
  rc=$?
  cat "$out/gpu-run.log" >>"$out/gpu-runs.log"
  grep -v '^resume-at' "$out/gpu-run.log"
  [ $rc -eq 0 ] && break
  next=$(sed -n 's/^resume-at \([0-9]*\)$/\1/p' "$out/gpu-run.log" | tail -1)
  restarts=$((restarts + 1))
  if [ $rc -ne 3 ] || [ -z "$next" ] || [ $restarts -gt ${FIDELITY_MAX_RESTARTS:-400} ]; then
    echo "fidelity-check: the hardware run stopped (exit $rc); comparing what" \
      "it produced" >&2
    break
  fi
  echo "fidelity-check: fresh process from configuration $next"
  start=$next
done
echo "ran the hardware side in $(secs "$t2" "$(now)") s ($restarts restarts)"
[ -f "$out/gpu.bin" ] || { echo "fidelity-check: no hardware dump" >&2; exit 2; }

"$bin/fid.cpu" --compare "$out/cpu.bin" "$out/gpu.bin" "${only[@]}" \
  >"$out/compare.txt"
rc=$?
cat "$out/compare.txt"
# Again at the end, so that a truncated log still shows every mismatch.
if [ $rc -ne 0 ]; then
  echo "--- mismatches (all of them in $out/compare.txt) ---"
  grep -v '^MATCH' "$out/compare.txt" | head -200
  tail -1 "$out/compare.txt"
fi
[ $rc -le 1 ] || exit 2
exit $rc

#!/usr/bin/env bash
# The one prepared call on a lent GPU machine (docs/cuda.md, "On a lent GPU").
# Made here first: `make gpu-bundle`. Then, through the device tool, carrying
# gpu-bundle:
#
#   bash scripts/gpu-lent-run.sh [gpu-check.py options]
#
# It records the card's state, runs scripts/gpu-check.py --bundle gpu-bundle
# with the options given, profiles the timed GEMM and attention with Nsight
# Compute when PROFILE=1 and ncu is there, and leaves in $OUT (at most 8
# files, the device tool's limit): smi.txt, gpu-check.log, gpu-check.json,
# gpu-results.md, logs.tgz, ncu.txt and the rounding dumps rounding-gpu.bin
# and rounding-cpu.bin.
#
# Environment: OUT (default /tmp/gpu-out), GPU_CHECK_LIMIT (seconds for
# gpu-check.py, default 420), PROFILE.
set -u
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root" || exit 2
out=${OUT:-/tmp/gpu-out}
mkdir -p "$out"
export PYTHONUNBUFFERED=1
[ -f gpu-bundle/manifest.json ] || { echo "gpu-lent-run: no gpu-bundle (make gpu-bundle, and carry it)"; exit 2; }

nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw \
  --format=csv >"$out/smi.txt" 2>&1
cat "$out/smi.txt"
python3 -c "import numpy, torch, triton; print('numpy', numpy.__version__, 'torch', torch.__version__, 'triton', triton.__version__)"

set -o pipefail
timeout "${GPU_CHECK_LIMIT:-420}" python3 scripts/gpu-check.py --build build --bundle gpu-bundle \
  --json "$out/gpu-check.json" "$@" 2>&1 | tee "$out/gpu-check.log"
rc=$?
cp docs/gpu-results.md "$out/" 2>/dev/null

# Where the time goes in the two timed kernels: one launch each under ncu.
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | tail -1)
if [ "${PROFILE:-0}" = 1 ] && [ -n "$ncu" ]; then
  data=$(mktemp -d)
  python3 - "$data" <<'EOF'
import sys, numpy as np
d = sys.argv[1]
rng = np.random.default_rng(7)
def bf16(shape):
    x = rng.uniform(-1, 1, shape).astype(np.float32)
    return ((x.view(np.uint32) + 0x8000) & 0xFFFF0000).view(np.float32)
for name, shape in [("A", (8192, 8192)), ("B", (8192, 8192)), ("Q", (16384, 128)),
                    ("K", (16384, 128)), ("V", (16384, 128))]:
    np.save(f"{d}/{name}.npy", bf16(shape))
EOF
  {
    echo "== gemm_mainloop (sm_90a) 8192^3"
    timeout 150 "$ncu" --clock-control none --set full -k regex:gemm_mainloop -c 1 \
      gpu-bundle/bin/gemm_mainloop.gpu A="$data/A.npy" B="$data/B.npy" K=8192 \
      --out C="$data/C.npy" --shape C=8192,8192 --grid 64,32,1
    echo "== attn_scale_hd128 (sm_90a) seq 16384"
    timeout 150 "$ncu" --clock-control none --set full -k regex:attn -c 1 \
      gpu-bundle/bin/attn_scale_hd128.gpu Q="$data/Q.npy" K="$data/K.npy" V="$data/V.npy" \
      scale=0.12751743 nKV=128 --out O="$data/O.npy" --shape O=16384,128 --grid 128,1,1
  } >"$out/ncu.txt" 2>&1
  tail -5 "$out/ncu.txt"
  rm -rf "$data"
fi

# The rounding dumps (test/fidelity/rounding_fidelity.cu): operands and the
# hardware's results, for fitting the emulator's model of them here.
for side in gpu cpu; do
  cp build/gpu-check/fidelity-rounding/$side.bin "$out/rounding-$side.bin" 2>/dev/null
done

(cd build/gpu-check 2>/dev/null &&
  find . \( -name '*.log' -o -name compare.txt \) -print | tar czf "$out/logs.tgz" -T -)
ls -la "$out"
exit $rc

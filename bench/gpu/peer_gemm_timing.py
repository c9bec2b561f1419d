"""The peers' bf16 GEMM times on a lent GPU, for scripts/gpu-check.py's
timing step (issue 38, point 6c): cuBLAS through torch.matmul and the Triton
GEMM of bench/peers/triton_kernels.py (written from Triton's documented API,
128 x 256 x 64 tiles, 8 warps on Hopper), on the same sizes as tilepipe's.

    python3 peer_gemm_timing.py SIZE [SIZE...] [--rotate N] [--rep MS]

Needs torch and triton (the lent H200 has both; there is no package index
there). Each time is triton.testing.do_bench's median over --rep ms of
launches, the inputs rotated over --rotate sets so that no launch finds its
operands in L2 from the previous one. The Triton result is checked against
torch.matmul's on sampled elements (max relative error). One JSON line per
(library, size): {"library", "m", "n", "k", "ms", "tflops", ...}.
"""
import argparse
import json
import os
import sys

import torch
import triton
import triton.testing

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "peers"))
os.environ.setdefault("TP_PEERS_ARCH", "90")
import triton_kernels  # noqa: E402
from rotation import rotated  # noqa: E402


def time_torch(n, rotate, rep):
    pick = rotated(lambda: (torch.randn(n, n, device="cuda", dtype=torch.bfloat16),
                            torch.randn(n, n, device="cuda", dtype=torch.bfloat16)), rotate)

    def run():
        a, b = pick()
        return a @ b.T
    return triton.testing.do_bench(run, rep=rep, return_mode="median")


def triton_gemm(a, b, c, warps, stages=4):
    from triton.tools.tensor_descriptor import TensorDescriptor
    bm, bn, bk = 128, 256, 64
    n = a.shape[0]
    ad = TensorDescriptor.from_tensor(a, [bm, bk])
    bd = TensorDescriptor.from_tensor(b, [bn, bk])
    cd = TensorDescriptor.from_tensor(c, [bm, bn])
    grid = (triton.cdiv(n, bm), triton.cdiv(c.shape[1], bn))
    triton_kernels.gemm[grid](ad, bd, cd, a.shape[1], BM=bm, BN=bn, BK=bk,
                              num_warps=warps, num_stages=stages)


def deepest_stages(warps, sample):
    """The deepest ring (4, else 3, else 2) whose shared memory fits: the
    128 x 256 tiles take 48 KB a stage, and the compiler may or may not reuse
    the ring for the epilogue's tile."""
    for stages in (4, 3, 2):
        try:
            triton_gemm(*sample, warps, stages)
            torch.cuda.synchronize()
            return stages, None
        except Exception as e:  # triton's OutOfResources, by its message
            err = f"{type(e).__name__}: {str(e)[:200]}"
    return None, err


def time_triton(n, rotate, rep, warps):
    pick = rotated(lambda: (torch.randn(n, n, device="cuda", dtype=torch.bfloat16),
                            torch.randn(n, n, device="cuda", dtype=torch.bfloat16),
                            torch.empty(n, n, device="cuda", dtype=torch.bfloat16)), rotate)
    stages, err = deepest_stages(warps, pick())
    if stages is None:
        raise RuntimeError(err)

    def run():
        a, b, c = pick()
        triton_gemm(a, b, c, warps, stages)
    ms = triton.testing.do_bench(run, rep=rep, return_mode="median")
    a, b, c = pick()
    triton_gemm(a, b, c, warps, stages)
    ref = (a.float() @ b.float().T)
    rows = torch.randint(0, n, (256,), device="cuda")
    cols = torch.randint(0, n, (256,), device="cuda")
    got = c.float()[rows, cols]
    want = ref[rows, cols]
    err = ((got - want).abs() / want.abs().clamp_min(1.0)).max().item()
    return ms, err, stages


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sizes", nargs="+", type=int)
    ap.add_argument("--rotate", type=int, default=4)
    ap.add_argument("--rep", type=int, default=500, help="ms of timed launches (do_bench)")
    args = ap.parse_args()
    major = torch.cuda.get_device_capability()[0]
    warps = 8 if major == 9 else 4
    for n in args.sizes:
        flops = 2.0 * n ** 3
        ms = time_torch(n, args.rotate, args.rep)
        print(json.dumps({"library": "cublas (torch.matmul)", "m": n, "n": n, "k": n,
                          "ms": round(ms, 4), "tflops": round(flops / ms / 1e9, 1)}), flush=True)
        try:
            ms, err, stages = time_triton(n, args.rotate, args.rep, warps)
        except Exception as e:
            print(json.dumps({"library": "triton", "m": n, "n": n, "k": n,
                              "error": f"{type(e).__name__}: {str(e)[:300]}"}), flush=True)
            continue
        print(json.dumps({"library": "triton", "m": n, "n": n, "k": n, "ms": round(ms, 4),
                          "tflops": round(flops / ms / 1e9, 1), "max_rel_err": err,
                          "triton": triton.__version__, "num_warps": warps,
                          "num_stages": stages}), flush=True)


if __name__ == "__main__":
    main()

"""The peers' attention forward times on a lent GPU, for scripts/gpu-check.py's
timing step (issue 38, point 6c): torch's scaled_dot_product_attention with
each backend it has (flash, cuDNN, memory-efficient) and the Triton attention
of bench/peers/triton_kernels.py (written from Triton's documented API), on
the problem tilepipe's attn-scale-hd128 kernel runs: one head, SEQ query rows
against SEQ keys, head dim 128, bf16 in and out, non-causal.

    python3 peer_attention_timing.py SEQ [SEQ...] [--rotate N] [--rep MS]

Needs torch and triton (the lent H200 has both). Each time is
triton.testing.do_bench's median over --rep ms of launches, the inputs rotated
over --rotate sets. Each result is checked against a float32 softmax(Q K^T /
sqrt(d)) V on sampled rows (max absolute error). One JSON line per (library,
SEQ): {"library", "seq", "head", "ms", "tflops", "max_abs_err", ...}; a
backend torch cannot run here prints {"library", "seq", "error"}.
"""
import argparse
import json
import math
import os
import sys

import torch
import torch.nn.functional as F
import triton
import triton.testing

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "peers"))
os.environ.setdefault("TP_PEERS_ARCH", "90")
import triton_kernels  # noqa: E402
from rotation import rotated  # noqa: E402

HEAD = 128


def make_qkv(seq):
    # [batch 1, heads 1, seq, head], SDPA's layout; contiguous, so the same
    # memory is the [seq, head] matrix the Triton kernel's descriptors read.
    return tuple(torch.randn(1, 1, seq, HEAD, device="cuda", dtype=torch.bfloat16)
                 for _ in range(3))


def check(q, k, v, o, rows=64):
    pick = torch.randint(0, q.shape[2], (rows,), device="cuda")
    qs = q[0, 0, pick].float()
    s = qs @ k[0, 0].float().T / math.sqrt(HEAD)
    want = torch.softmax(s, dim=1) @ v[0, 0].float()
    return (o[0, 0, pick].float() - want).abs().max().item()


def sdpa_backends():
    from torch.nn.attention import SDPBackend
    return [("sdpa flash", SDPBackend.FLASH_ATTENTION),
            ("sdpa cudnn", SDPBackend.CUDNN_ATTENTION),
            ("sdpa efficient", SDPBackend.EFFICIENT_ATTENTION)]


def time_sdpa(seq, backend, rotate, rep):
    from torch.nn.attention import sdpa_kernel
    pick = rotated(lambda: make_qkv(seq), rotate)

    def run():
        q, k, v = pick()
        with sdpa_kernel(backend):
            return F.scaled_dot_product_attention(q, k, v)
    ms = triton.testing.do_bench(run, rep=rep, return_mode="median")
    q, k, v = pick()
    with sdpa_kernel(backend):
        o = F.scaled_dot_product_attention(q, k, v)
    return ms, check(q, k, v, o)


def triton_attention(q, k, v, o):
    from triton.tools.tensor_descriptor import TensorDescriptor
    bm, bn = 128, 64
    seq = q.shape[2]
    flat = [t.view(seq, HEAD) for t in (q, k, v, o)]
    qd = TensorDescriptor.from_tensor(flat[0], [bm, HEAD])
    kd = TensorDescriptor.from_tensor(flat[1], [bn, HEAD])
    vd = TensorDescriptor.from_tensor(flat[2], [bn, HEAD])
    od = TensorDescriptor.from_tensor(flat[3], [bm, HEAD])
    grid = (triton.cdiv(seq, bm), 1)
    triton_kernels.attention[grid](qd, kd, vd, od, 1.0 / math.sqrt(HEAD), seq,
                                   BM=bm, BN=bn, D=HEAD, num_warps=8, num_stages=3)


def time_triton(seq, rotate, rep):
    pick = rotated(lambda: make_qkv(seq) + (torch.empty(1, 1, seq, HEAD, device="cuda",
                                                        dtype=torch.bfloat16),), rotate)

    def run():
        triton_attention(*pick())
    ms = triton.testing.do_bench(run, rep=rep, return_mode="median")
    q, k, v, o = pick()
    triton_attention(q, k, v, o)
    return ms, check(q, k, v, o)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("seqs", nargs="+", type=int)
    ap.add_argument("--rotate", type=int, default=4)
    ap.add_argument("--rep", type=int, default=500, help="ms of timed launches (do_bench)")
    args = ap.parse_args()
    for seq in args.seqs:
        flops = 4.0 * seq * seq * HEAD
        runs = [(name, lambda b=b: time_sdpa(seq, b, args.rotate, args.rep))
                for name, b in sdpa_backends()]
        runs.append(("triton", lambda: time_triton(seq, args.rotate, args.rep)))
        for name, run in runs:
            try:
                ms, err = run()
            except Exception as e:  # a backend this torch or GPU lacks
                print(json.dumps({"library": name, "seq": seq, "error": str(e)[:200]}), flush=True)
                continue
            print(json.dumps({"library": name, "seq": seq, "head": HEAD, "ms": round(ms, 4),
                              "tflops": round(flops / ms / 1e9, 1), "max_abs_err": err,
                              "torch": torch.__version__, "triton": triton.__version__}),
                  flush=True)


if __name__ == "__main__":
    main()

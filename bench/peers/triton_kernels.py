"""The Triton side of the comparison (bench/peers/peers.py): a BF16 GEMM and
attention forward at head dim 128, written from Triton's documented API
(tensor descriptors, tl.dot, tl.range), compiled for sm_100a (or sm_90a: TP_PEERS_ARCH=90) without a GPU.

    python triton_kernels.py OUTDIR   (inside the peers environment)

Writes, per kernel, NAME.cubin, NAME.ttgir, NAME.json (Triton's metadata) and,
when MLIR dumps are asked for (TP_TRITON_DUMP=1), NAME.schedule.mlir: the loop
as TritonGPUScheduleLoops left it (loop.stage / loop.cluster per op)."""
import json
import os
import sys

import triton
import triton.language as tl
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource

# sm_100a, or sm_90a with TP_PEERS_ARCH=90 (bench/peers/peers.py --arch).
TARGET = GPUTarget("cuda", int(os.environ.get("TP_PEERS_ARCH", "100")), 32)


@triton.jit
def gemm(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # C[M, N] = A[M, K] B[N, K]^T, bf16 in, f32 accumulate, bf16 out.
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([m, k * BK])
        b = b_desc.load([n, k * BK])
        acc = tl.dot(a, b.T, acc)
    c_desc.store([m, n], acc.to(tl.bfloat16))


@triton.jit
def attention(q_desc, k_desc, v_desc, o_desc, scale, n_ctx,
              BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    # O = softmax(Q K^T * scale) V per BM-row block of one head, non-causal.
    head = tl.program_id(1) * n_ctx
    row = head + tl.program_id(0) * BM
    q = q_desc.load([row, 0])
    m_i = tl.full([BM], float("-inf"), tl.float32)
    l_i = tl.zeros([BM], tl.float32)
    acc = tl.zeros([BM, D], tl.float32)
    log2_scale = scale * 1.4426950408889634
    for start in range(0, n_ctx, BN):
        k = k_desc.load([head + start, 0])
        s = tl.dot(q, k.T)
        m_new = tl.maximum(m_i, tl.max(s, 1) * log2_scale)
        p = tl.math.exp2(s * log2_scale - m_new[:, None])
        alpha = tl.math.exp2(m_i - m_new)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = acc * alpha[:, None]
        v = v_desc.load([head + start, 0])
        acc = tl.dot(p.to(tl.bfloat16), v, acc)
        m_i = m_new
    o_desc.store([row, 0], (acc / l_i[:, None]).to(tl.bfloat16))


@triton.jit
def gemm_mxfp8(a_desc, b_desc, c_desc, a_scale, b_scale, K,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # C[M, N] = (A . 2^SFA) (B . 2^SFB)^T: E4M3 A [M, K] and B [N, K], one
    # UE8M0 factor per 32 elements of K ([rows, K / 32] uint8), f32
    # accumulate, bf16 out (tilepipe's gemm_blockscaled_fp8.mlir).
    m = tl.program_id(0) * BM
    n = tl.program_id(1) * BN
    ks = K // 32
    rows_a = m + tl.arange(0, BM)
    rows_b = n + tl.arange(0, BN)
    sk = tl.arange(0, BK // 32)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = a_desc.load([m, k * BK])
        b = b_desc.load([n, k * BK])
        sa = tl.load(a_scale + rows_a[:, None] * ks + k * (BK // 32) + sk[None, :])
        sb = tl.load(b_scale + rows_b[:, None] * ks + k * (BK // 32) + sk[None, :])
        acc = tl.dot_scaled(a, sa, "e4m3", b.T, sb, "e4m3", acc)
    c_desc.store([m, n], acc.to(tl.bfloat16))


KERNELS = {
    # name: (function, signature, constants, options)
    "triton_gemm": (gemm, {"a_desc": "tensordesc<bf16[128,64]>", "b_desc": "tensordesc<bf16[256,64]>",
                           "c_desc": "tensordesc<bf16[128,256]>", "K": "i32",
                           "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"},
                    {"BM": 128, "BN": 256, "BK": 64}, {"num_warps": 4, "num_stages": 4}),
    "triton_gemm_fp8": (gemm_mxfp8, {"a_desc": "tensordesc<fp8e4nv[128,128]>", "b_desc": "tensordesc<fp8e4nv[256,128]>",
                                     "c_desc": "tensordesc<bf16[128,256]>", "a_scale": "*u8", "b_scale": "*u8",
                                     "K": "i32", "BM": "constexpr", "BN": "constexpr", "BK": "constexpr"},
                        {"BM": 128, "BN": 256, "BK": 128}, {"num_warps": 4, "num_stages": 4}),
    "triton_attention": (attention, {"q_desc": "tensordesc<bf16[128,128]>", "k_desc": "tensordesc<bf16[128,128]>",
                                     "v_desc": "tensordesc<bf16[128,128]>", "o_desc": "tensordesc<bf16[128,128]>",
                                     "scale": "fp32", "n_ctx": "i32",
                                     "BM": "constexpr", "BN": "constexpr", "D": "constexpr"},
                         {"BM": 128, "BN": 128, "D": 128}, {"num_warps": 8, "num_stages": 2}),
}


def compile_one(name, out):
    fn, sig, consts, options = KERNELS[name]
    if TARGET.arch == 90 and name == "triton_gemm":
        # Hopper's wgmma accumulates in registers: a 128x256 f32 tile needs
        # two warpgroups (128 registers a thread), as Triton's Hopper GEMMs
        # are configured; four warps would hold 256 a thread and spill.
        options = dict(options, num_warps=8)
    kernel = triton.compile(ASTSource(fn=fn, signature=sig, constexprs=consts), target=TARGET,
                            options=options)
    with open(os.path.join(out, name + ".cubin"), "wb") as f:
        f.write(kernel.asm["cubin"])
    with open(os.path.join(out, name + ".ttgir"), "w") as f:
        f.write(kernel.asm["ttgir"])
    meta = kernel.metadata._asdict()
    keep = {k: meta.get(k) for k in ("name", "num_warps", "num_stages", "shared", "tmem_size")}
    keep["options"] = options
    keep["triton"] = triton.__version__
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump(keep, f, indent=1, sort_keys=True)
    return keep


def main():
    out = sys.argv[1]
    names = sys.argv[2:] or list(KERNELS)
    os.makedirs(out, exist_ok=True)
    os.environ.setdefault("TRITON_DEFAULT_FP_FUSION", "1")
    for name in names:
        print(json.dumps({name: compile_one(name, out)}, sort_keys=True))


if __name__ == "__main__":
    main()

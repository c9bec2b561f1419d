"""C = A B at 256 x 128 tiles, the size cuTile's guides suggest for large
bf16 problems on Hopper and Blackwell.

  A: M x K bf16 (K contiguous), B: K x N bf16 (N contiguous)
  C: M x N bf16, rounded once from the f32 accumulator

A 256-row MMA has no tcgen05 form a CTA can issue alone (M = 256 takes a
CTA pair), so the default lowering refuses it at the ct.mma; for sm_90a
(--tileir-to-tileas=wgmma) it is one wgmma tile of two consumer warpgroups
(docs/cuda-tile-lowering.md, "256-row tiles"). Grid (cdiv(M, TM), cdiv(N,
TN), 1)."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 256, 128, 64


@ct.kernel
def matmul_256(A, B, C, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.full((tm, tn), 0, dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):
        a = ct.load(A, index=(bm, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, bn), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(bm, bn), tile=acc.astype(C.dtype))


KERNEL = matmul_256


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("matmul_256", [array(bf16, 2), array(bf16, 2), array(bf16, 2), TM, TN, TK])

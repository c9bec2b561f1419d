"""GEMM on f32 arrays through tf32 tensor cores, as cuTile's matmul sample
writes it for float32 inputs: C = A B.

  A: M x K f32 (K contiguous), B: K x N f32 (N contiguous: cuTile's mma
     takes B as K x N), both converted with astype(ct.tfloat32)
  C: M x N f32, accumulated in f32

B reaches the MMA MN-major. tcgen05 and wgmma read 32-bit operands K-major
only (wgmma) or in a swizzle the translation does not emit (tcgen05); on
sm_90a the consumer warpgroup transposes B's slot into a K-major staging
tile before its wgmma (docs/cuda.md, "Operands given MN-major").

Grid (cdiv(M, TM), cdiv(N, TN), 1); the K step is 32 (128 bytes of f32)."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 128, 32


@ct.kernel
def matmul_tf32(A, B, C, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    bidx = ct.bid(0)
    bidy = ct.bid(1)
    acc = ct.full((tm, tn), 0, dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):
        a = ct.load(A, index=(bidx, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, bidy), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a.astype(ct.tfloat32), b.astype(ct.tfloat32), acc)
    ct.store(C, index=(bidx, bidy), tile=acc.astype(C.dtype))


KERNEL = matmul_tf32


def kernel_signature():
    f32 = ct.float32
    return signature("matmul_tf32", [array(f32, 2), array(f32, 2), array(f32, 2), TM, TN, TK])

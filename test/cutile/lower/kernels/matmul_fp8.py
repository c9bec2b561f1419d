"""An FP8 GEMM as cuTile's mma takes it: C = A B.

  A: M x K e4m3 (K contiguous), B: K x N e4m3 (N contiguous)
  C: M x N bf16, accumulated in f32 and rounded once

B reaches the MMA MN-major, which tcgen05 reads as it is and wgmma does not
(8-bit operands K-major only): on sm_90a the consumer transposes each B
slot into a K-major staging tile (docs/cuda.md, "Operands given MN-major").
Grid (cdiv(M, TM), cdiv(N, TN), 1); the K step is 128 (128 bytes)."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 128, 128


@ct.kernel
def matmul_fp8(A, B, C, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    row = ct.bid(0)
    col = ct.bid(1)
    acc = ct.full((tm, tn), 0, dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):
        a = ct.load(A, index=(row, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, col), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(row, col), tile=acc.astype(C.dtype))


KERNEL = matmul_fp8


def kernel_signature():
    f8 = ct.float8_e4m3fn
    return signature("matmul_fp8", [array(f8, 2), array(f8, 2), array(ct.bfloat16, 2), TM, TN, TK])

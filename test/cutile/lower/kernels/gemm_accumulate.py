"""D = C + A B, written the direct way: the accumulator starts from C.

  A: M x K bf16 (K contiguous), B: K x N bf16 (N contiguous)
  C: M x N bf16, loaded before the K loop and converted to f32
  D: M x N bf16, D = C + sum_k A[:, k] B[k, :] in f32, rounded once

Only the MMAs add to the accumulator in the loop, so the lowering starts it
from zeros and adds C after the loop (docs/cuda-tile-lowering.md,
"Accumulators that start from data"). Grid (cdiv(M, TM), cdiv(N, TN), 1)."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 128, 64


@ct.kernel
def gemm_accumulate(A, B, C, D, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    row = ct.bid(0)
    col = ct.bid(1)
    c = ct.load(C, index=(row, col), shape=(tm, tn), padding_mode=ct.PaddingMode.ZERO)
    acc = c.astype(ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):
        a = ct.load(A, index=(row, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, col), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    ct.store(D, index=(row, col), tile=acc.astype(D.dtype))


KERNEL = gemm_accumulate


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("gemm_accumulate", [array(bf16, 2), array(bf16, 2), array(bf16, 2), array(bf16, 2),
                                         TM, TN, TK])

"""GEMM: C = A B.

  A: M x K bf16, row-major (K contiguous)
  B: K x N bf16, row-major (N contiguous: cuTile's mma takes B as K x N, so
     B reaches the tensor core MN-major)
  C: M x N bf16, C[m, n] = sum_k A[m, k] B[k, n], accumulated in f32 and
     rounded to bf16 once

Grid (cdiv(M, TM), cdiv(N, TN), 1): block (x, y) computes C's tile at rows
TM x and columns TN y; its K loop runs cdiv(K, TK) times. Loads past an
edge read zeros (padding_mode ZERO), so M, N and K need not be multiples of
the tile; stores past an edge are dropped.

The tile (128 x 256, K step 64) is CUTLASS's SM100 shape and that of
tilepipe's examples/gemm_mainloop.mlir, so the two compile the same problem."""
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 256, 64


@ct.kernel
def matmul(A, B, C, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    row = ct.bid(0)
    col = ct.bid(1)
    steps = ct.num_tiles(A, axis=1, shape=(tm, tk))
    acc = ct.full((tm, tn), 0, dtype=ct.float32)
    for k in range(steps):
        a = ct.load(A, index=(row, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, col), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(row, col), tile=acc.astype(C.dtype))


KERNEL = matmul


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("matmul", [array(bf16, 2), array(bf16, 2), array(bf16, 2), TM, TN, TK])


def reference(a, b):
    """C in float64 (before the bf16 rounding of the store)."""
    import numpy as np
    return np.asarray(a, np.float64) @ np.asarray(b, np.float64)

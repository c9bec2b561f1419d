"""Batched GEMM: C[i] = A[i] B[i] for every batch index i.

  A: L x M x K bf16 (K contiguous)
  B: L x K x N bf16 (N contiguous)
  C: L x M x N bf16, C[i, m, n] = sum_k A[i, m, k] B[i, k, n] (f32, rounded
     to bf16 once)

Grid (cdiv(M, TM), cdiv(N, TN), L): block (x, y, z) computes batch z's tile
at rows TM x and columns TN y. The tiles are loaded from the 3-D arrays with
a batch extent of 1 and reshaped to 2-D for the tensor core; the K loop
runs cdiv(K, TK) times. Loads past an edge read zeros, stores past an edge
are dropped."""
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 128, 64


@ct.kernel
def batched_matmul(A, B, C, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    row = ct.bid(0)
    col = ct.bid(1)
    batch = ct.bid(2)
    steps = ct.num_tiles(A, axis=2, shape=(1, tm, tk))
    acc = ct.full((tm, tn), 0, dtype=ct.float32)
    for k in range(steps):
        a = ct.load(A, index=(batch, row, k), shape=(1, tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(batch, k, col), shape=(1, tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ct.reshape(a, (tm, tk)), ct.reshape(b, (tk, tn)), acc)
    out = ct.reshape(acc.astype(C.dtype), (1, tm, tn))
    ct.store(C, index=(batch, row, col), tile=out)


KERNEL = batched_matmul


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("batched_matmul", [array(bf16, 3), array(bf16, 3), array(bf16, 3), TM, TN, TK])


def reference(a, b):
    """C in float64 (before the bf16 rounding of the store)."""
    import numpy as np
    return np.matmul(np.asarray(a, np.float64), np.asarray(b, np.float64))

"""A GEMM writing a column-major C: the output array is C^T (N x M,
row-major), and the (TM, TN) tile is stored through a transposed view,
`ct.store(..., order=(1, 0))`, at its tile index (bm, bn), as a library
computing into a Fortran-ordered or transposed output does. TM != TN, so a
swap of the two shows.

  A: M x K bf16, B: K x N bf16, Ct: N x M bf16, Ct = (A B)^T
Grid (cdiv(M, TM), cdiv(N, TN), 1)."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 64, 64


@ct.kernel
def gemm_store_colmajor(A, B, Ct, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    bm, bn = ct.bid(0), ct.bid(1)
    acc = ct.zeros((tm, tn), dtype=ct.float32)
    for kk in range(ct.cdiv(A.shape[1], tk)):
        a = ct.load(A, index=(bm, kk), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(kk, bn), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    ct.store(Ct, index=(bm, bn), tile=acc.astype(Ct.dtype), order=(1, 0))


KERNEL = gemm_store_colmajor


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("gemm_store_colmajor", [array(bf16, 2)] * 3 + [TM, TN, TK])

"""A GEMM that masks A's columns past K itself instead of relying on the
load's zero padding (`ct.where(k < K, a, 0)` on the bf16 tile: a bf16 zero
constant in registers), and feeds the masked tile to the MMA from
registers.

  A: M x K bf16, B: K x N bf16, C: M x N bf16"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 128, 64


@ct.kernel
def gemm_k_masked(A, B, C, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    bm, bn = ct.bid(0), ct.bid(1)
    acc = ct.zeros((tm, tn), dtype=ct.float32)
    K = A.shape[1]
    for k in range(ct.cdiv(K, tk)):
        a = ct.load(A, index=(bm, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, bn), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        cols = k * tk + ct.arange(tk, dtype=ct.int32)
        acc = ct.mma(ct.where(cols[None, :] < K, a, 0.0), b, acc)
    ct.store(C, index=(bm, bn), tile=acc.astype(C.dtype))


KERNEL = gemm_k_masked


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("gemm_k_masked", [array(bf16, 2), array(bf16, 2), array(bf16, 2), TM, TN, TK])

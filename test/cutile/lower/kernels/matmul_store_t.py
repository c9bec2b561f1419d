"""A GEMM that stores its product transposed: C^T = (A B)^T, 128 x 128
tiles, K step 64; the accumulator (TMEM on sm_100a, the wgmma fragments on
sm_90a) is read into registers and transposed through SMEM after the loop.

  A: M x K bf16, B: K x N bf16, Ct: N x M bf16"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 128, 64


@ct.kernel
def matmul_store_t(A, B, Ct, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    bm, bn = ct.bid(0), ct.bid(1)
    acc = ct.zeros((tm, tn), dtype=ct.float32)
    for k in range(ct.cdiv(A.shape[1], tk)):
        a = ct.load(A, index=(bm, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, bn), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    ct.store(Ct, index=(bn, bm), tile=ct.transpose(acc).astype(Ct.dtype))


KERNEL = matmul_store_t


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("matmul_store_t", [array(bf16, 2)] * 3 + [TM, TN, TK])

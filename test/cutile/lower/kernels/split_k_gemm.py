"""A split-K GEMM: C += A B with 128 x 128 tiles, K step 64, the K tiles
shared out among `splits` CTAs along the grid's third dimension, each
adding its partial product into C with `ct.atomic_add` (f32, the default
acq_rel ordering).

  A: M x K bf16, B: K x N bf16, C: M x N f32 (its initial values kept)"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK, SPLITS = 128, 128, 64, 4


@ct.kernel
def split_k_gemm(A, B, C, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int],
                 splits: ct.Constant[int]):
    bm, bn, part = ct.bid(0), ct.bid(1), ct.bid(2)
    k_tiles = ct.cdiv(A.shape[1], tk)
    per_split = ct.cdiv(k_tiles, splits)
    acc = ct.zeros((tm, tn), dtype=ct.float32)
    for k in range(part * per_split, min((part + 1) * per_split, k_tiles)):
        a = ct.load(A, index=(bm, k), shape=(tm, tk))
        b = ct.load(B, index=(k, bn), shape=(tk, tn))
        acc = ct.mma(a, b, acc)
    rows = bm * tm + ct.arange(tm, dtype=ct.int32)
    cols = bn * tn + ct.arange(tn, dtype=ct.int32)
    ct.atomic_add(C, (rows[:, None], cols[None, :]), acc)


KERNEL = split_k_gemm


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("split_k_gemm", [array(bf16, 2), array(bf16, 2), array(ct.float32, 2), TM, TN,
                                      TK, SPLITS])

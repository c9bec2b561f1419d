"""A GEMM whose epilogue also sums its output down the columns into a bias
gradient by atomics: the accumulator (in TMEM on sm_100a) is read into
registers and transposed through SMEM for the column sums.

  X: M x K bf16, W: K x N bf16, Y: M x N bf16, DB: N f32 (read and
  written)"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 128, 64


@ct.kernel
def gemm_bias_grad(X, W, Y, DB, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((tm, tn), dtype=ct.float32)
    for k in range(ct.num_tiles(X, axis=1, shape=(tm, tk))):
        acc = ct.mma(ct.load(X, index=(bm, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO),
                     ct.load(W, index=(k, bn), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO), acc)
    ct.store(Y, index=(bm, bn), tile=acc.astype(Y.dtype))
    cols = bn * tn + ct.arange(tn, dtype=ct.int32)
    ct.atomic_add(DB, cols, ct.sum(acc, axis=0))


KERNEL = gemm_bias_grad


def kernel_signature():
    bf16, f32 = ct.bfloat16, ct.float32
    return signature("gemm_bias_grad", [array(bf16, 2), array(bf16, 2), array(bf16, 2), array(f32, 1), TM, TN, TK])

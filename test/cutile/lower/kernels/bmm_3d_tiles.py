"""Batched GEMM with the batch kept in the tiles: (1, TM, TK) and (1, TK, TN)
tiles of 3-D arrays go to ct.mma as they are loaded (the batched form of
ct.mma, a batch of one matrix), the accumulator a (1, TM, TN) tile, and
the result stored with the batch index. Y[b] = relu(X[b] W[b]) in bf16.

  X: Bt x M x K bf16, W: Bt x K x N bf16, Y: Bt x M x N bf16
Grid (cdiv(M, TM), cdiv(N, TN), Bt)."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 128, 64


@ct.kernel
def bmm_3d_tiles(X, W, Y, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    row_block, col_block, batch = ct.bid(0), ct.bid(1), ct.bid(2)
    acc = ct.zeros((1, tm, tn), dtype=ct.float32)
    for kk in range(ct.cdiv(X.shape[2], tk)):
        x = ct.load(X, index=(batch, row_block, kk), shape=(1, tm, tk), padding_mode=ct.PaddingMode.ZERO)
        w = ct.load(W, index=(batch, kk, col_block), shape=(1, tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(x, w, acc)
    ct.store(Y, index=(batch, row_block, col_block), tile=ct.maximum(acc, 0.0).astype(Y.dtype))


KERNEL = bmm_3d_tiles


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("bmm_3d_tiles", [array(bf16, 3)] * 3 + [TM, TN, TK])

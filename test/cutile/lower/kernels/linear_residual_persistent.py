"""A persistent linear layer with a residual: Y = R + X W^T.

  X: M x K bf16, W: N x K bf16 (nn.Linear's weight, read with ct.transpose),
  R: M x N bf16, the accumulator's start; Y: M x N bf16

Each block walks output tiles bid, bid + blocks, ...; each tile's
accumulator starts from R's tile (loaded before the K loop as written). The
lowering adds R after the loop and, since the kernel walks its own tiles,
loads it there, once per tile (docs/cuda-tile-lowering.md)."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 128, 64


@ct.kernel
def linear_residual_persistent(X, W, R, Y, tm: ct.Constant[int], tn: ct.Constant[int],
                               tk: ct.Constant[int]):
    tiles_m = ct.cdiv(X.shape[0], tm)
    tiles_n = ct.cdiv(W.shape[0], tn)
    for tile in range(ct.bid(0), tiles_m * tiles_n, ct.num_blocks(0)):
        row = tile // tiles_n
        col = tile % tiles_n
        acc = ct.load(R, index=(row, col), shape=(tm, tn), padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)
        for k in range(ct.num_tiles(X, axis=1, shape=(tm, tk))):
            x = ct.load(X, index=(row, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
            w = ct.load(W, index=(col, k), shape=(tn, tk), padding_mode=ct.PaddingMode.ZERO)
            acc = ct.mma(x, ct.transpose(w), acc)
        ct.store(Y, index=(row, col), tile=acc.astype(Y.dtype))


KERNEL = linear_residual_persistent


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("linear_residual_persistent",
                     [array(bf16, 2), array(bf16, 2), array(bf16, 2), array(bf16, 2), TM, TN, TK])

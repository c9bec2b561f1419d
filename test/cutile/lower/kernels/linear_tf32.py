"""A linear layer in f32 on tf32 tensor cores, as cuTile's samples convert
their operands: Y = X W^T.

  X: M x K f32, W: N x K f32 (nn.Linear's weight), both converted with
     astype(ct.tfloat32) before the MMA, W transposed with ct.transpose
  Y: M x N f32, accumulated in f32

The conversion of a loaded tile that only an MMA reads is no code: the MMA
on the f32 tile reads its tf32 part (docs/cuda-tile-lowering.md). Grid
(cdiv(M, TM), cdiv(N, TN), 1); the K step is 32 (128 bytes of f32)."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 128, 32


@ct.kernel
def linear_tf32(X, W, Y, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    row = ct.bid(0)
    col = ct.bid(1)
    acc = ct.full((tm, tn), 0, dtype=ct.float32)
    for k in range(ct.num_tiles(X, axis=1, shape=(tm, tk))):
        x = ct.load(X, index=(row, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        w = ct.load(W, index=(col, k), shape=(tn, tk), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(x.astype(ct.tfloat32), ct.transpose(w).astype(ct.tfloat32), acc)
    ct.store(Y, index=(row, col), tile=acc)


KERNEL = linear_tf32


def kernel_signature():
    f32 = ct.float32
    return signature("linear_tf32", [array(f32, 2), array(f32, 2), array(f32, 2), TM, TN, TK])

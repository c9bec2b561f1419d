"""An FP8 linear layer with a per-tensor scale: Y = bf16(scale X W^T).

  X: M x K float8_e4m3fn, W: N x K float8_e4m3fn (both K contiguous: FP8
     tensor cores read both operands K-major), W read as W^T with
     ct.transpose after its load
  scale: f32 scalar parameter (the product of X's and W's scales)
  Y: M x N bf16, accumulated in f32 and rounded once

Grid (cdiv(M, TM), cdiv(N, TN), 1); the K step is 128 bytes of FP8."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN, TK = 128, 128, 128


@ct.kernel
def linear_fp8(X, W, Y, scale: float, tm: ct.Constant[int], tn: ct.Constant[int],
               tk: ct.Constant[int]):
    row = ct.bid(0)
    col = ct.bid(1)
    acc = ct.full((tm, tn), 0.0, dtype=ct.float32)
    for k in range(ct.num_tiles(X, axis=1, shape=(tm, tk))):
        x = ct.load(X, index=(row, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        w = ct.load(W, index=(col, k), shape=(tn, tk), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(x, ct.transpose(w), acc)
    ct.store(Y, index=(row, col), tile=(acc * scale).astype(Y.dtype))


KERNEL = linear_fp8


def kernel_signature():
    f8 = ct.float8_e4m3fn
    return signature("linear_fp8", [array(f8, 2), array(f8, 2), array(ct.bfloat16, 2),
                                    ScalarConstraint(ct.float32), TM, TN, TK])

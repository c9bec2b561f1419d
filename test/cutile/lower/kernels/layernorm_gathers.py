"""Triton's fused LayerNorm forward tutorial as its users port it to cuTile:
one row a block, three loops over 512-column chunks gathered at `off +
arange` and masked by `cols < N` (the mean, the variance of the centred
row, then Y with W and B gathered under the same mask); the mean and the
reciprocal deviation stored per row.

  X, Y: M x N f16; W, B: N f32; Mean, Rstd: M f32; eps f32"""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

BLOCK = 512


@ct.kernel
def layernorm_gathers(X, Y, W, B, Mean, Rstd, eps: float, block: ct.Constant[int]):
    row = ct.bid(0)
    n = X.shape[1]
    partial = ct.zeros((block,), dtype=ct.float32)
    for off in range(0, n, block):
        cols = off + ct.arange(block, dtype=ct.int32)
        partial += ct.gather(X, (row, cols), mask=cols < n, padding_value=0).astype(ct.float32)
    mean = ct.sum(partial, axis=0) / n
    partial = ct.zeros((block,), dtype=ct.float32)
    for off in range(0, n, block):
        cols = off + ct.arange(block, dtype=ct.int32)
        x = ct.gather(X, (row, cols), mask=cols < n, padding_value=0).astype(ct.float32)
        centred = ct.where(cols < n, x - mean, 0.0)
        partial += centred * centred
    rstd = 1 / ct.sqrt(ct.sum(partial, axis=0) / n + eps)
    ct.scatter(Mean, row, mean)
    ct.scatter(Rstd, row, rstd)
    for off in range(0, n, block):
        cols = off + ct.arange(block, dtype=ct.int32)
        inside = cols < n
        w = ct.gather(W, cols, mask=inside)
        b = ct.gather(B, cols, mask=inside)
        x = ct.gather(X, (row, cols), mask=inside, padding_value=0).astype(ct.float32)
        y = (x - mean) * rstd * w + b
        ct.scatter(Y, (row, cols), y.astype(ct.float16), mask=inside)


KERNEL = layernorm_gathers


def kernel_signature():
    f16, f32 = ct.float16, ct.float32
    return signature("layernorm_gathers", [array(f16, 2), array(f16, 2), array(f32, 1),
                                           array(f32, 1), array(f32, 1), array(f32, 1),
                                           ScalarConstraint(f32), BLOCK])

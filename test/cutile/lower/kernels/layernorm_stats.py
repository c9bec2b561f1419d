"""LayerNorm forward as cuTile's sample writes it: one row a block in
(1, 1024) pieces, three loops (the mean, the variance of the centred row
with `** 2`, the normalisation), and the row's mean and reciprocal standard
deviation stored for the backward pass, one element each.

  X, Y: M x N bf16; W, B: N bf16; Mean, Rstd: M f32; eps a scalar

A tile of one f32 is 4 bytes, narrower than any TMA box: the lowering stores
it from a thread through the array's pointer (docs/cuda-tile-lowering.md,
"A tile of one element"). Grid (M, 1, 1)."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TILE_N = 1024
PAD = ct.PaddingMode.ZERO


@ct.kernel
def layernorm_stats(X, W, B, Y, Mean, Rstd, eps, tile_n: ct.Constant[int]):
    bid_m = ct.bid(0)
    num_tiles = ct.num_tiles(X, axis=1, shape=(1, tile_n))
    N = X.shape[1]
    mean = ct.full((1, tile_n), 0, dtype=ct.float32)
    for j in range(num_tiles):
        mean += ct.load(X, index=(bid_m, j), shape=(1, tile_n), padding_mode=PAD)
    mean = ct.sum(mean, axis=1) / N
    ct.store(Mean, index=(bid_m,), tile=mean)
    var = ct.full((1, tile_n), 0, dtype=ct.float32)
    for j in range(num_tiles):
        tx = ct.load(X, index=(bid_m, j), shape=(1, tile_n), padding_mode=PAD)
        mask = (j * tile_n + ct.arange(tile_n, dtype=ct.int32)) < N
        centered = ct.where(mask, tx - mean, 0)
        var += centered ** 2
    var = ct.sum(var, axis=1) / N
    rstd = 1 / ct.sqrt(var + eps)
    ct.store(Rstd, index=(bid_m,), tile=rstd)
    for j in range(num_tiles):
        tx = ct.load(X, index=(bid_m, j), shape=(1, tile_n), padding_mode=PAD)
        tw = ct.load(W, index=(j,), shape=(tile_n,), padding_mode=PAD)
        tb = ct.load(B, index=(j,), shape=(tile_n,), padding_mode=PAD)
        ty = (tx - mean) * rstd * tw + tb
        ct.store(Y, index=(bid_m, j), tile=ty.astype(Y.dtype))


KERNEL = layernorm_stats


def kernel_signature():
    bf16, f32 = ct.bfloat16, ct.float32
    return signature("layernorm_stats", [array(bf16, 2), array(bf16, 1), array(bf16, 1), array(bf16, 2),
                                         array(f32, 1), array(f32, 1), ScalarConstraint(f32), TILE_N])

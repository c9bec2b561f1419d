"""Statistics of each batch of a rank-3 array, read as one (1, S, D)
block: the mean over the sequence (axis 1, down the block's columns) and
the largest value of each position (axis 2, along its rows). The unit
batch dimension is dropped in registers, so the block reduces as a 2-D
tile.

  X: B x S x D bf16 (S <= 64, D <= 128), Mean: B x D f32, Max: B x S f32"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TS, D = 64, 128


@ct.kernel
def batch_stats(X, Mean, Max, ts: ct.Constant[int], d: ct.Constant[int]):
    batch = ct.bid(0)
    x = ct.load(X, index=(batch, 0, 0), shape=(1, ts, d), padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)
    ct.store(Mean, index=(batch, 0), tile=ct.sum(x, axis=1) / X.shape[1])
    y = ct.load(X, index=(batch, 0, 0), shape=(1, ts, d), padding_mode=ct.PaddingMode.NEG_INF).astype(ct.float32)
    ct.store(Max, index=(batch, 0), tile=ct.max(y, axis=2))


KERNEL = batch_stats


def kernel_signature():
    bf16, f32 = ct.bfloat16, ct.float32
    return signature("batch_stats", [array(bf16, 3), array(f32, 2), array(f32, 2), TS, D])

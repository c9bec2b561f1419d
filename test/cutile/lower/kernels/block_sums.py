"""A 1-D tile reduced whole: each block's sum of squares and largest
magnitude of its 1024 elements (`ct.sum(t * t, axis=0)` of a 1-D tile),
stored as one element each.

  x: N f32 (zero past the end), sums, maxes: cdiv(N, 1024) f32"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TILE = 1024


@ct.kernel
def block_sums(x, sums, maxes, tile: ct.Constant[int]):
    bid = ct.bid(0)
    t = ct.load(x, index=(bid,), shape=(tile,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(sums, index=(bid,), tile=ct.sum(t * t, axis=0, keepdims=True))
    ct.store(maxes, index=(bid,), tile=ct.max(ct.abs(t), axis=0, keepdims=True))


KERNEL = block_sums


def kernel_signature():
    f32 = ct.float32
    return signature("block_sums", [array(f32, 1), array(f32, 1), array(f32, 1), TILE])

"""An i32 map, y[i] = 3 x[i] + i % 5 over blocks of 256: integer tiles
loaded and stored through views, which the threads read and write element
by element (registers carry integers as positions and indices read from
memory, not through TMA and SMEM).

  x, y: L i32"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TILE = 256


@ct.kernel
def int_affine(x, y, tile: ct.Constant[int]):
    bid = ct.bid(0)
    v = ct.load(x, index=(bid,), shape=(tile,))
    ct.store(y, index=(bid,), tile=v * 3 + ct.arange(tile, dtype=ct.int32) % 5)


KERNEL = int_affine


def kernel_signature():
    return signature("int_affine", [array(ct.int32, 1), array(ct.int32, 1), TILE])

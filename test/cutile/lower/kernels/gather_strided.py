"""Every other element, y[i] = x[2 i] (zero past x's end): `ct.gather(x, 2 *
offs)`, 256 a block. Twice the positions are no box; the threads read them
element by element, their index the lowered positions (refused until
session 37, when lower-bytecode-errors.test used it)."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TILE = 256


@ct.kernel
def gather_strided(x, y, tile: ct.Constant[int]):
    offs = ct.bid(0) * tile + ct.arange(tile, dtype=ct.int32)
    ct.store(y, index=(ct.bid(0),), tile=ct.gather(x, 2 * offs))


KERNEL = gather_strided


def kernel_signature():
    f32 = ct.float32
    return signature("gather_strided", [array(f32, 1), array(f32, 1), TILE])

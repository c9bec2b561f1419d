"""Every other element, `ct.gather(x, 2 * offs)`: a kernel tilepipe refuses
(lower-bytecode-errors.test). The positions times 2 are no box of the
array, and the threads' element path takes indices that are a scalar plus
ct.arange only."""
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

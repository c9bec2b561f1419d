"""A three-point stencil by shifted gathers: y[i] = x[i-1] - 2 x[i] + x[i+1]
(zero past either end), 512 elements a block.

  x, y: N f32

`offs - 1` and `offs + 1` start at an index that is not a multiple of 16
bytes, which TMA does not take (it stops the kernel on the H200): the
threads read those two element by element (tileas.global_gather); `offs`
itself is a TMA box, and so is the store."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TILE = 512


@ct.kernel
def stencil(x, y, tile: ct.Constant[int]):
    offs = ct.bid(0) * tile + ct.arange(tile, dtype=ct.int32)
    left = ct.gather(x, offs - 1)
    mid = ct.gather(x, offs)
    right = ct.gather(x, offs + 1)
    ct.scatter(y, offs, left - 2.0 * mid + right)


KERNEL = stencil


def kernel_signature():
    f32 = ct.float32
    return signature("stencil", [array(f32, 1), array(f32, 1), TILE])

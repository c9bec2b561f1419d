"""Triton's vector-add tutorial as cuTile: `mask = offs < n` on both loads
and on the store, 1024 elements a block.

  x, y, out: L f32; n: i32 (n <= L: out past n is left as it was)

The loads are TMA boxes with the mask selected in registers; a TMA store
writes its whole box, so the masked store is the threads' own
(tileas.global_scatter)."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

BLOCK = 1024


@ct.kernel
def vector_add_masked(x, y, out, n: int, block: ct.Constant[int]):
    offs = ct.bid(0) * block + ct.arange(block, dtype=ct.int32)
    mask = offs < n
    a = ct.gather(x, offs, mask=mask)
    b = ct.gather(y, offs, mask=mask)
    ct.scatter(out, offs, a + b, mask=mask)


KERNEL = vector_add_masked


def kernel_signature():
    f32 = ct.float32
    return signature("vector_add_masked", [array(f32, 1), array(f32, 1), array(f32, 1),
                                           ScalarConstraint(ct.int32), BLOCK])

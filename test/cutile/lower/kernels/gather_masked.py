"""A load masked as Triton writes it: `offs = bid * 512 + arange(512)`,
gathered with `mask=offs < n` and zero padding, then y = 2 x + 1 stored
through a view.

  x, y: L f32; n: i32 (n <= L: the elements at n and past it read as 0)

The bounds check is TMA's clipping; the user's mask (not the array's
bounds) selects between the loaded tile and the padding in registers."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TILE = 512


@ct.kernel
def gather_masked(x, y, n: int, tile: ct.Constant[int]):
    bid = ct.bid(0)
    offs = bid * tile + ct.arange(tile, dtype=ct.int32)
    t = ct.gather(x, offs, mask=offs < n, padding_value=0)
    ct.store(y, index=(bid,), tile=t * 2.0 + 1.0)


KERNEL = gather_masked


def kernel_signature():
    f32 = ct.float32
    return signature("gather_masked", [array(f32, 1), array(f32, 1), ScalarConstraint(ct.int32), TILE])

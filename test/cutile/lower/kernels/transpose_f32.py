"""cuTile's transpose sample at its 32-bit tile size, with a scale: Y =
s X^T, X M x N f32, one 32 x 32 tile a block, grid (cdiv(M, 32), cdiv(N,
32), 1). A 32-row tile's rows are split over 4 lanes (docs/
cuda-tile-lowering.md, "Tiles of fewer than 128 rows"): each thread reads 8
elements of a column of the SMEM tile."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN = 32, 32


@ct.kernel
def transpose_f32(x, y, s: float, tm: ct.Constant[int], tn: ct.Constant[int]):
    bidx = ct.bid(0)
    bidy = ct.bid(1)
    tile = ct.load(x, index=(bidx, bidy), shape=(tm, tn))
    ct.store(y, index=(bidy, bidx), tile=ct.transpose(tile) * s)


KERNEL = transpose_f32


def kernel_signature():
    f32 = ct.float32
    return signature("transpose_f32", [array(f32, 2), array(f32, 2), ScalarConstraint(f32), TM, TN])

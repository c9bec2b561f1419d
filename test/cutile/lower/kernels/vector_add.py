"""cuTile's vector addition in its sample's direct form: c = a + b, one
1-D tile of 1024 elements a block, grid (cdiv(N, 1024), 1, 1).

  a, b, c: N f32

A 1-D tile is one row of 1024 in registers, split over the agent's lanes
(docs/cuda-tile-lowering.md, "Tiles of fewer than 128 rows"); TMA clips the
store at N, so the last block's elements past the end are never written."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TILE = 1024


@ct.kernel
def vector_add(a, b, c, tile: ct.Constant[int]):
    bid = ct.bid(0)
    a_tile = ct.load(a, index=(bid,), shape=(tile,))
    b_tile = ct.load(b, index=(bid,), shape=(tile,))
    ct.store(c, index=(bid,), tile=a_tile + b_tile)


KERNEL = vector_add


def kernel_signature():
    f32 = ct.float32
    return signature("vector_add", [array(f32, 1), array(f32, 1), array(f32, 1), TILE])

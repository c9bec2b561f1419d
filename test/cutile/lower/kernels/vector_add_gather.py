"""cuTile's vector addition in its sample's gather form: c = a + b, the
elements addressed by positions, `bid * 1024 + ct.arange(1024)`, read by
ct.gather and written by ct.scatter (bounds checked), grid (cdiv(N, 1024), 1, 1).

  a, b, c: N f32

The positions are a box of the array at bid * 1024: the lowering moves it by
TMA, as a view's load, and the address arithmetic (i64 offsets, pointer
tiles, the bounds mask) lowers to nothing (docs/cuda-tile-lowering.md,
"Gathers and scatters of a box")."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TILE = 1024


@ct.kernel
def vector_add_gather(a, b, c, tile: ct.Constant[int]):
    bid = ct.bid(0)
    indices = bid * tile + ct.arange(tile, dtype=ct.int32)
    a_tile = ct.gather(a, indices)
    b_tile = ct.gather(b, indices)
    ct.scatter(c, indices, a_tile + b_tile)


KERNEL = vector_add_gather


def kernel_signature():
    f32 = ct.float32
    return signature("vector_add_gather", [array(f32, 1), array(f32, 1), array(f32, 1), TILE])

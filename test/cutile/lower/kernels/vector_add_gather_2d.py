"""cuTile's 2-D vector addition in gather form: c = a + b over (8, 128)
tiles addressed by row and column positions, `x[:, None]` and `y[None, :]`
(bounds checked in both dimensions), grid (cdiv(M, 8), cdiv(N, 128), 1).

  a, b, c: M x N f32

The offsets are rows times the array's row stride plus columns: an 8 x 128
box at (bx * 8, by * 128)."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TX, TY = 8, 128


@ct.kernel
def vector_add_gather_2d(a, b, c, tx: ct.Constant[int], ty: ct.Constant[int]):
    x = ct.bid(0) * tx + ct.arange(tx, dtype=ct.int32)
    y = ct.bid(1) * ty + ct.arange(ty, dtype=ct.int32)
    a_tile = ct.gather(a, (x[:, None], y[None, :]))
    b_tile = ct.gather(b, (x[:, None], y[None, :]))
    ct.scatter(c, (x[:, None], y[None, :]), a_tile + b_tile)


KERNEL = vector_add_gather_2d


def kernel_signature():
    f32 = ct.float32
    return signature("vector_add_gather_2d", [array(f32, 2), array(f32, 2), array(f32, 2), TX, TY])

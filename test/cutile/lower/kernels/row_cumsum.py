"""Running sums and products along rows, 16 rows a block: `ct.cumsum(x,
axis=1)` of a 16 x 256 tile whose rows are each split over 8 of the 128
threads (each thread scans its 32 elements, then adds the totals of the
threads before it in its row), beside the rows' totals, and
`ct.cumprod(1 + x / 256, axis=1)`.

  X: M x 256 f32, Y, P: M x 256 f32, T: M f32"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, N = 16, 256


@ct.kernel
def row_cumsum(X, Y, T, P, tm: ct.Constant[int], n: ct.Constant[int]):
    bm = ct.bid(0)
    x = ct.load(X, index=(bm, 0), shape=(tm, n), padding_mode=ct.PaddingMode.ZERO)
    ct.store(Y, index=(bm, 0), tile=ct.cumsum(x, axis=1))
    ct.store(T, index=(bm,), tile=ct.sum(x, axis=1))
    ct.store(P, index=(bm, 0), tile=ct.cumprod(1.0 + x / 256.0, axis=1))


KERNEL = row_cumsum


def kernel_signature():
    f32 = ct.float32
    return signature("row_cumsum", [array(f32, 2), array(f32, 2), array(f32, 1), array(f32, 2), TM, N])

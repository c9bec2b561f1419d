"""Each row's root mean square and largest magnitude over rows longer than
a tile: (1, 256) tiles accumulated in a loop, then reduced with `ct.sum`
and `ct.max` given no axis (cuTile reduces the unit dimension first, then
the row), stored as one element each.

  X: M x N f32, Rms, Peak: M f32"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TN = 256


@ct.kernel
def row_rms(X, Rms, Peak, tn: ct.Constant[int]):
    row = ct.bid(0)
    squares = ct.zeros((1, tn), dtype=ct.float32)
    peak = ct.zeros((1, tn), dtype=ct.float32)
    for j in range(ct.cdiv(X.shape[1], tn)):
        x = ct.load(X, index=(row, j), shape=(1, tn), padding_mode=ct.PaddingMode.ZERO)
        squares += x * x
        peak = ct.maximum(peak, ct.abs(x))
    ct.scatter(Rms, row, ct.sqrt(ct.sum(squares) / X.shape[1]))
    ct.scatter(Peak, row, ct.max(peak))


KERNEL = row_rms


def kernel_signature():
    return signature("row_rms", [array(ct.float32, 2), array(ct.float32, 1), array(ct.float32, 1),
                                 TN])

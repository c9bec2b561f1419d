"""Y = X^T by a gather in the transposed order: the 128 x 64 tile t[i, j] =
X[cols[j], rows[i]] (the tile's rows walk X's columns), scattered to Y at
(rows, cols); grid (cdiv(N, 128), cdiv(M, 64), 1).

  X: M x N f32, Y: N x M f32

A box whose dimensions run in the other order than the tile's is no TMA
box: the threads read it element by element; the store is a box."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN = 128, 64


@ct.kernel
def transpose_gather(x, y, tm: ct.Constant[int], tn: ct.Constant[int]):
    rows = ct.bid(0) * tm + ct.arange(tm, dtype=ct.int32)
    cols = ct.bid(1) * tn + ct.arange(tn, dtype=ct.int32)
    t = ct.gather(x, (cols[None, :], rows[:, None]))
    ct.scatter(y, (rows[:, None], cols[None, :]), t)


KERNEL = transpose_gather


def kernel_signature():
    f32 = ct.float32
    return signature("transpose_gather", [array(f32, 2), array(f32, 2), TM, TN])

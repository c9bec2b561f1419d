"""Each row's sum, its pieces gathered in a loop: row `bid` of X at columns
`j * 256 + arange(256)` (a scalar row index and a row of positions: a
1 x 256 box), summed, and the total scattered as one element.

  X: M x N f32, out: M f32; N: i32 (the loop's bound, X's width)"""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

T = 256


@ct.kernel
def gather_rowsum(x, out, n: int, t: ct.Constant[int]):
    row = ct.bid(0)
    acc = ct.zeros((1, t), dtype=ct.float32)
    for j in range(ct.cdiv(n, t)):
        cols = j * t + ct.arange(t, dtype=ct.int32)
        acc = acc + ct.gather(x, (row, cols[None, :]))
    ct.scatter(out, ct.full((1,), row, dtype=ct.int32), ct.sum(acc, axis=1))


KERNEL = gather_rowsum


def kernel_signature():
    f32 = ct.float32
    return signature("gather_rowsum", [array(f32, 2), array(f32, 1), ScalarConstraint(ct.int32), T])

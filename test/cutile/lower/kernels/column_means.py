"""Column means of squares over the rows, accumulated in a loop:
out[j] = sum_i X[i, j]^2 / M, 64 x 128 tiles a step. The sum down the columns
of a register tile goes through SMEM (written by the threads, read back
transposed) in every iteration: a tile the loop stages for its own reads.

  X: M x N f32, out: N f32, M a scalar"""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN = 64, 128


@ct.kernel
def column_means(x, out, m: int, tm: ct.Constant[int], tn: ct.Constant[int]):
    bn = ct.bid(0)
    acc = ct.zeros((tn,), dtype=ct.float32)
    for i in range(ct.cdiv(m, tm)):
        t = ct.load(x, index=(i, bn), shape=(tm, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = acc + ct.sum(t * t, axis=0)
    ct.store(out, index=(bn,), tile=acc / m)


KERNEL = column_means


def kernel_signature():
    f32 = ct.float32
    return signature("column_means", [array(f32, 2), array(f32, 1), ScalarConstraint(ct.int32),
                                      TM, TN])

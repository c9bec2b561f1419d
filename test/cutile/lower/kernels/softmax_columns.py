"""Softmax down the columns of a 128-row block (each column of X is one
distribution; the block is 32 columns wide): `ct.max(x, axis=0)` and
`ct.sum(e, axis=0)` reduce x's transpose, whose 32 rows are split over 4
threads each, and the statistics are spread back over x's columns. The load
pads with -inf, so columns past the array's edge stay out of the max.

  X: M x N f32 (M <= 128), Y: M x N f32"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN = 128, 32


@ct.kernel
def softmax_columns(X, Y, tm: ct.Constant[int], tn: ct.Constant[int]):
    bn = ct.bid(0)
    x = ct.load(X, index=(0, bn), shape=(tm, tn), padding_mode=ct.PaddingMode.NEG_INF)
    m = ct.max(x, axis=0)
    e = ct.exp(x - m[None, :])
    s = ct.sum(e, axis=0)
    ct.store(Y, index=(0, bn), tile=e / s[None, :])


KERNEL = softmax_columns


def kernel_signature():
    f32 = ct.float32
    return signature("softmax_columns", [array(f32, 2), array(f32, 2), TM, TN])

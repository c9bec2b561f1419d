"""Greedy decoding's pick and its mirror: the column of each row's
largest and smallest value (ct.argmax, ct.argmin: the first such column
on ties; NaN loses to any number), and the largest value itself, 16 rows
a block (each row over 8 threads), rows padded with -inf past the array.

  X: M x N f32 (N <= 256), Imax, Imin: M i32, Vmax: M f32"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN = 16, 256


@ct.kernel
def row_argmax(X, Imax, Imin, Vmax, tm: ct.Constant[int], tn: ct.Constant[int]):
    block = ct.bid(0)
    x = ct.load(X, index=(block, 0), shape=(tm, tn), padding_mode=ct.PaddingMode.NEG_INF)
    ct.store(Imax, index=(block,), tile=ct.argmax(x, axis=1).astype(ct.int32))
    # The padding is -inf, the least value: argmin reads the row where it is
    # inside the array.
    inside = ct.arange(tn, dtype=ct.int32)[None, :] < X.shape[1]
    ct.store(Imin, index=(block,), tile=ct.argmin(ct.where(inside, x, 3.0e38), axis=1).astype(ct.int32))
    ct.store(Vmax, index=(block,), tile=ct.max(x, axis=1))


KERNEL = row_argmax


def kernel_signature():
    f32, i32 = ct.float32, ct.int32
    return signature("row_argmax", [array(f32, 2), array(i32, 1), array(i32, 1), array(f32, 1), TM, TN])

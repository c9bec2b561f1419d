"""Row sums added into memory by atomics, one block per 16 x 256 tile: each
row's sum (a per-row vector of a tile whose rows are split over 8 lanes)
is added once, by the first of the 8 threads that hold it.

  X: M x N f32, S: M f32 (read and written)"""
import _path  # noqa: F401

import cuda.tile as ct

from constraints import array, signature

TM, TN = 16, 256


@ct.kernel
def row_sums_atomic(X, S, tm: ct.Constant[int], tn: ct.Constant[int]):
    i = ct.bid(0)
    j = ct.bid(1)
    x = ct.load(X, index=(i, j), shape=(tm, tn), padding_mode=ct.PaddingMode.ZERO)
    rows = i * tm + ct.arange(tm, dtype=ct.int32)
    ct.atomic_add(S, rows, ct.sum(x, axis=1))


KERNEL = row_sums_atomic


def kernel_signature():
    f32 = ct.float32
    return signature("row_sums_atomic", [array(f32, 2), array(f32, 1), TM, TN])

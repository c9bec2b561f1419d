"""The column of each row's largest value over rows longer than a tile:
ct.argmax of each 128-column chunk, the best value and its column carried
across the loop (an i32 vector that starts as ct.zeros), the earlier chunk
kept on ties.

  X: M x N f32, Idx: M i32"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN = 128, 128


@ct.kernel
def argmax_chunks(X, Idx, tm: ct.Constant[int], tn: ct.Constant[int]):
    block = ct.bid(0)
    best = ct.full((tm,), -3.0e38, dtype=ct.float32)
    where = ct.zeros((tm,), dtype=ct.int32)
    for j in range(ct.cdiv(X.shape[1], tn)):
        x = ct.load(X, index=(block, j), shape=(tm, tn), padding_mode=ct.PaddingMode.NEG_INF)
        value = ct.max(x, axis=1)
        column = ct.argmax(x, axis=1).astype(ct.int32) + j * tn
        better = value > best
        where = ct.where(better, column, where)
        best = ct.where(better, value, best)
    ct.store(Idx, index=(block,), tile=where)


KERNEL = argmax_chunks


def kernel_signature():
    return signature("argmax_chunks", [array(ct.float32, 2), array(ct.int32, 1), TM, TN])

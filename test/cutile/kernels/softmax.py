"""Softmax over each row: Y[m, :] = exp(X[m, :] - max_n X[m, n]) / sum_n exp(X[m, n] - max_n X[m, n]).

  X: M x N f32, row-major
  Y: M x N f32

Grid (cdiv(M, TM), 1, 1): block x takes rows TM x .. TM x + TM - 1 whole,
so N <= TN (= 1024) and one tile holds a row block. Columns past N load as
-inf (padding_mode NEG_INF): they do not raise the maximum and add
exp(-inf) = 0 to the sum. Rows past M are computed from padding and not
stored."""
import cuda.tile as ct

from constraints import array, signature

TM, TN = 16, 1024


@ct.kernel
def softmax(X, Y, tm: ct.Constant[int], tn: ct.Constant[int]):
    row = ct.bid(0)
    x = ct.load(X, index=(row, 0), shape=(tm, tn), padding_mode=ct.PaddingMode.NEG_INF)
    top = ct.max(x, axis=1, keepdims=True)
    e = ct.exp(x - top)
    total = ct.sum(e, axis=1, keepdims=True)
    ct.store(Y, index=(row, 0), tile=e / total)


KERNEL = softmax


def kernel_signature():
    return signature("softmax", [array(ct.float32, 2), array(ct.float32, 2), TM, TN])


def reference(x):
    import numpy as np
    x = np.asarray(x, np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)

"""Rows scaled to unit length, two rows per block in (2, 512) tiles:

  X: M x N f32, N <= TN = 512
  Y: M x N f32, Y[m, n] = X[m, n] / sqrt(sum_n X[m, n]^2 + 1e-12)

Grid (cdiv(M, 2), 1, 1). Each row is split over 64 lanes (two warps), so
its sum is put back together across warps (tileas.reduce_lanes over 64
lanes, through shared memory); each row moves as 2 TMA boxes of 256."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN = 2, 512


@ct.kernel
def l2norm_pairs(X, Y, tm: ct.Constant[int], tn: ct.Constant[int]):
    p = ct.bid(0)
    x = ct.load(X, index=(p, 0), shape=(tm, tn), padding_mode=ct.PaddingMode.ZERO)
    ss = ct.sum(x * x, axis=1, keepdims=True)
    ct.store(Y, index=(p, 0), tile=x / ct.sqrt(ss + 1e-12))


KERNEL = l2norm_pairs


def kernel_signature():
    return signature("l2norm_pairs", [array(ct.float32, 2), array(ct.float32, 2), TM, TN])

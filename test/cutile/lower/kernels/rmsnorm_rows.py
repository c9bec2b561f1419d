"""RMSNorm with a learned scale, one 128 x 128 tile of rows per CTA:

  X:     M x N bf16, N = TN = 128
  gamma: N bf16
  eps:   f32 scalar parameter
  Y:     M x N bf16, Y[m, n] = bf16(X[m, n] rsqrt(mean_n X[m, n]^2 + eps) gamma[n])

computed in f32. Grid (cdiv(M, TM), 1, 1)."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN = 128, 128


@ct.kernel
def rmsnorm_rows(X, gamma, Y, eps: float, tm: ct.Constant[int], tn: ct.Constant[int]):
    row = ct.bid(0)
    x = ct.load(X, index=(row, 0), shape=(tm, tn), padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)
    ms = ct.sum(x * x, axis=1, keepdims=True) * (1.0 / tn)
    r = ct.rsqrt(ms + eps)
    g = ct.load(gamma, index=(0,), shape=(tn,), padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)
    ct.store(Y, index=(row, 0), tile=(x * r * ct.reshape(g, (1, tn))).astype(Y.dtype))


KERNEL = rmsnorm_rows


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("rmsnorm_rows", [array(bf16, 2), array(bf16, 1), array(bf16, 2),
                                      ScalarConstraint(ct.float32), TM, TN])

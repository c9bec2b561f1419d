"""LayerNorm with gamma and beta, one 128 x 128 f32 tile of rows per CTA:

  X:           M x N f32, N = TN = 128
  gamma, beta: N f32
  Y:           M x N f32, Y[m, n] = (X[m, n] - mean) rsqrt(var + 1e-5) gamma[n] + beta[n]

with mean and var (biased) over the row. Grid (cdiv(M, TM), 1, 1)."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN = 128, 128
EPS = 1e-5


@ct.kernel
def layernorm_rows(X, gamma, beta, Y, tm: ct.Constant[int], tn: ct.Constant[int]):
    row = ct.bid(0)
    x = ct.load(X, index=(row, 0), shape=(tm, tn), padding_mode=ct.PaddingMode.ZERO)
    mean = ct.sum(x, axis=1, keepdims=True) * (1.0 / tn)
    d = x - mean
    var = ct.sum(d * d, axis=1, keepdims=True) * (1.0 / tn)
    r = ct.rsqrt(var + EPS)
    g = ct.load(gamma, index=(0,), shape=(tn,), padding_mode=ct.PaddingMode.ZERO)
    b = ct.load(beta, index=(0,), shape=(tn,), padding_mode=ct.PaddingMode.ZERO)
    y = d * r * ct.reshape(g, (1, tn)) + ct.reshape(b, (1, tn))
    ct.store(Y, index=(row, 0), tile=y)


KERNEL = layernorm_rows


def kernel_signature():
    f32 = ct.float32
    return signature("layernorm_rows", [array(f32, 2), array(f32, 1), array(f32, 1), array(f32, 2), TM, TN])

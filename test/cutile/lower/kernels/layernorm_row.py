"""LayerNorm of one row per block, the row one (1, 1024) tile (the shape
Triton's tutorials and cuTile users write row kernels in):

  X: M x N f32, N <= TN = 1024
  W, B: N f32
  Y: M x N f32, Y[m, n] = (X[m, n] - mu) rsqrt(var + 1e-5) W[n] + B[n]

mu and var over the row's N columns (zeros past N add nothing; the means
divide by N). Grid (M, 1, 1). The row is spread over the SIMT agent's 128
threads, 8 columns each, and each reduction combines all of them
(tileas.reduce_all); the row moves as 4 TMA boxes of 256."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TN = 1024


@ct.kernel
def layernorm_row(X, W, B, Y, tn: ct.Constant[int]):
    m = ct.bid(0)
    x = ct.load(X, index=(m, 0), shape=(1, tn), padding_mode=ct.PaddingMode.ZERO)
    w = ct.load(W, index=(0,), shape=(tn,), padding_mode=ct.PaddingMode.ZERO)
    b = ct.load(B, index=(0,), shape=(tn,), padding_mode=ct.PaddingMode.ZERO)
    mu = ct.sum(x, axis=1, keepdims=True) / X.shape[1]
    var = ct.sum(x * x, axis=1, keepdims=True) / X.shape[1] - mu * mu
    y = (x - mu) * ct.rsqrt(var + 1e-5) * ct.reshape(w, (1, tn)) + ct.reshape(b, (1, tn))
    ct.store(Y, index=(m, 0), tile=y)


KERNEL = layernorm_row


def kernel_signature():
    f32 = ct.float32
    return signature("layernorm_row", [array(f32, 2), array(f32, 1), array(f32, 1), array(f32, 2), TN])

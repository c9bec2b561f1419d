"""LayerNorm forward over 16 rows a block, storing each row's mean and
reciprocal standard deviation beside the output (for the backward pass):
16 x 1024 tiles, each row split over 8 of the 128 threads; the per-row
statistics are stored by the first thread of each row's eight.

  X: M x 1024 bf16, W, B: 1024 bf16, Y: M x 1024 bf16, Mean, Rstd: M f32"""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, N = 16, 1024


@ct.kernel
def layernorm_rows16(X, W, B, Y, Mean, Rstd, eps: float, tm: ct.Constant[int],
                     n: ct.Constant[int]):
    bid = ct.bid(0)
    x = ct.load(X, index=(bid, 0), shape=(tm, n), padding_mode=ct.PaddingMode.ZERO)
    x = x.astype(ct.float32)
    mean = ct.sum(x, axis=1) / n
    xc = x - mean[:, None]
    rstd = 1.0 / ct.sqrt(ct.sum(xc * xc, axis=1) / n + eps)
    w = ct.load(W, index=(0,), shape=(n,)).astype(ct.float32)
    b = ct.load(B, index=(0,), shape=(n,)).astype(ct.float32)
    ct.store(Y, index=(bid, 0), tile=(xc * rstd[:, None] * w[None, :] + b[None, :]).astype(Y.dtype))
    ct.store(Mean, index=(bid,), tile=mean)
    ct.store(Rstd, index=(bid,), tile=rstd)


KERNEL = layernorm_rows16


def kernel_signature():
    bf16, f32 = ct.bfloat16, ct.float32
    return signature("layernorm_rows16",
                     [array(bf16, 2), array(bf16, 1), array(bf16, 1), array(bf16, 2),
                      array(f32, 1), array(f32, 1), ScalarConstraint(f32), TM, N])

"""LayerNorm's backward pass for the input gradient, 8 rows a block: each
row's mean and rstd (saved by the forward pass) are read back as per-row
vectors of a tile whose rows are split over 16 of the 128 threads, and the
two row sums the gradient needs are taken across those threads.

  dx = (w dy - (xhat c1 + c2)) rstd,  xhat = (x - mean) rstd,
  c1 = sum(xhat w dy) / N, c2 = sum(w dy) / N

  X, DY: M x 512 bf16, W: 512 bf16, Mean, Rstd: M f32, DX: M x 512 bf16"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, N = 8, 512


@ct.kernel
def layernorm_bwd_dx(X, DY, W, Mean, Rstd, DX, tm: ct.Constant[int], n: ct.Constant[int]):
    bid = ct.bid(0)
    x = ct.load(X, index=(bid, 0), shape=(tm, n), padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)
    dy = ct.load(DY, index=(bid, 0), shape=(tm, n), padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)
    w = ct.load(W, index=(0,), shape=(n,)).astype(ct.float32)
    mean = ct.load(Mean, index=(bid,), shape=(tm,), padding_mode=ct.PaddingMode.ZERO)
    rstd = ct.load(Rstd, index=(bid,), shape=(tm,), padding_mode=ct.PaddingMode.ZERO)
    xhat = (x - mean[:, None]) * rstd[:, None]
    wdy = w[None, :] * dy
    c1 = ct.sum(xhat * wdy, axis=1) / n
    c2 = ct.sum(wdy, axis=1) / n
    dx = (wdy - (xhat * c1[:, None] + c2[:, None])) * rstd[:, None]
    ct.store(DX, index=(bid, 0), tile=dx.astype(DX.dtype))


KERNEL = layernorm_bwd_dx


def kernel_signature():
    bf16, f32 = ct.bfloat16, ct.float32
    return signature("layernorm_bwd_dx",
                     [array(bf16, 2), array(bf16, 2), array(bf16, 1), array(f32, 1),
                      array(f32, 1), array(bf16, 2), TM, N])

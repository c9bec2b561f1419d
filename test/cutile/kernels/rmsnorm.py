"""RMSNorm over each row: Y[m, n] = X[m, n] / sqrt(mean_n X[m, n]^2 + EPS) * W[n].

  X: M x N bf16, row-major
  W: N bf16, the per-column gain
  Y: M x N bf16; the statistics and the product are f32, rounded to bf16 once

Grid (cdiv(M, TM), 1, 1): block x normalizes rows TM x .. TM x + TM - 1 in
two loops over column chunks of TN, cdiv(N, TN) trips each: the first sums
the squares (a row reduction per chunk, accumulated across chunks), the
second scales and stores. Columns past N load as zeros, which add nothing
to the sum of squares; the mean divides by N, not by the padded width. EPS
= 1e-6."""
import cuda.tile as ct

from constraints import array, signature

TM, TN = 32, 256
EPS = 1e-6


@ct.kernel
def rmsnorm(X, W, Y, tm: ct.Constant[int], tn: ct.Constant[int], eps: ct.Constant[float]):
    row = ct.bid(0)
    chunks = ct.num_tiles(X, axis=1, shape=(tm, tn))
    squares = ct.full((tm, 1), 0, dtype=ct.float32)
    for j in range(chunks):
        x = ct.load(X, index=(row, j), shape=(tm, tn), padding_mode=ct.PaddingMode.ZERO)
        x = x.astype(ct.float32)
        squares = squares + ct.sum(x * x, axis=1, keepdims=True)
    inv_rms = ct.rsqrt(squares / X.shape[1] + eps)
    for j in range(chunks):
        x = ct.load(X, index=(row, j), shape=(tm, tn), padding_mode=ct.PaddingMode.ZERO)
        w = ct.load(W, index=(j,), shape=(tn,), padding_mode=ct.PaddingMode.ZERO)
        y = x.astype(ct.float32) * inv_rms * ct.reshape(w.astype(ct.float32), (1, tn))
        ct.store(Y, index=(row, j), tile=y.astype(Y.dtype))


KERNEL = rmsnorm


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("rmsnorm", [array(bf16, 2), array(bf16, 1), array(bf16, 2), TM, TN, EPS])


def reference(x, w):
    """Y in float64 (before the bf16 rounding of the store)."""
    import numpy as np
    x = np.asarray(x, np.float64)
    return x / np.sqrt((x * x).mean(axis=1, keepdims=True) + EPS) * np.asarray(w, np.float64)[None, :]

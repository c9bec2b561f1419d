"""Row softmax in the shape tilepipe's SIMT work takes: one 128 x 128 f32
tile per CTA, one row per thread of a 128-thread warp group.

  X: M x N f32, N = TN = 128 (a row is one tile; rows past M load as zero
     and are not stored)
  Y: M x N f32, Y[m, :] = exp(X[m, :] - max X[m, :]) / sum exp(...)

Grid (cdiv(M, TM), 1, 1). test/cutile/kernels/softmax.py is cuTile's own
shape (16 x 1024 with -inf padding), which tilepipe refuses
(docs/cuda-tile-lowering.md)."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN = 128, 128


@ct.kernel
def softmax_rows(X, Y, tm: ct.Constant[int], tn: ct.Constant[int]):
    row = ct.bid(0)
    x = ct.load(X, index=(row, 0), shape=(tm, tn), padding_mode=ct.PaddingMode.ZERO)
    top = ct.max(x, axis=1, keepdims=True)
    e = ct.exp(x - top)
    total = ct.sum(e, axis=1, keepdims=True)
    ct.store(Y, index=(row, 0), tile=e / total)


KERNEL = softmax_rows


def kernel_signature():
    return signature("softmax_rows", [array(ct.float32, 2), array(ct.float32, 2), TM, TN])

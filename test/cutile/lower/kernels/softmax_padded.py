"""Row softmax of 16 x 256 f32 tiles with -inf padding, the shape cuTile
writes softmax in (test/cutile/kernels/softmax.py, but 256 columns wide, one
TMA box):

  X: M x N f32, N <= TN = 256 (a row is one tile)
  Y: M x N f32, Y[m, :] = exp(X[m, :] - max X[m, :]) / sum exp(...)

Grid (cdiv(M, TM), 1, 1). Each 256-column row is split over 8 of the SIMT
agent's threads (docs/cuda-tile-lowering.md, "Tiles of fewer than 128
rows"); columns past N read as -inf (padding_mode NEG_INF), so they neither
raise the maximum nor add to the sum, which a zero fill would."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN = 16, 256


@ct.kernel
def softmax_padded(X, Y, tm: ct.Constant[int], tn: ct.Constant[int]):
    row = ct.bid(0)
    x = ct.load(X, index=(row, 0), shape=(tm, tn), padding_mode=ct.PaddingMode.NEG_INF)
    top = ct.max(x, axis=1, keepdims=True)
    e = ct.exp(x - top)
    total = ct.sum(e, axis=1, keepdims=True)
    ct.store(Y, index=(row, 0), tile=e / total)


KERNEL = softmax_padded


def kernel_signature():
    return signature("softmax_padded", [array(ct.float32, 2), array(ct.float32, 2), TM, TN])

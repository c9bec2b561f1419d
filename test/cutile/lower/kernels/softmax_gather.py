"""Triton's fused softmax tutorial as cuTile with gathers: row `bid` of X at
columns `ct.arange(1024)`, padded with -inf past the row's end (Triton's
`other=-float('inf')`), its softmax scattered to Y.

  X, Y: M x N f32, N <= 1024; grid (M, 1, 1)

The gather is a 1 x 1024 box; TMA fills past N with zeros and the threads
read -inf there instead (a padded read, as a view's padding_value)."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

BLOCK = 1024


@ct.kernel
def softmax_gather(x, y, block: ct.Constant[int]):
    row = ct.bid(0)
    cols = ct.arange(block, dtype=ct.int32)
    t = ct.gather(x, (row, cols), padding_value=-float("inf"))
    t = t - ct.max(t, axis=0, keepdims=True)
    e = ct.exp(t)
    ct.scatter(y, (row, cols), e / ct.sum(e, axis=0, keepdims=True))


KERNEL = softmax_gather


def kernel_signature():
    f32 = ct.float32
    return signature("softmax_gather", [array(f32, 2), array(f32, 2), BLOCK])

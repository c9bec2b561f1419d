"""Softmax of one row per block, as Triton's softmax tutorial masks it:

  X: M x N f32, N <= TN = 1024;  Y = softmax(X) over each row

The row is one (1, 1024) tile loaded with zeros past N; the columns past N
are masked to -inf with ct.arange positions (`cols < N`), not by the load's
padding. The row is spread over the agent's 128 threads, 8 consecutive
columns each, and so are its positions (tileas.iota of rank 1). Grid
(M, 1, 1)."""
import _path  # noqa: F401
import cuda.tile as ct
from constraints import array, signature

TN = 1024


@ct.kernel
def softmax_row_masked(X, Y, tn: ct.Constant[int]):
    m = ct.bid(0)
    x = ct.load(X, index=(m, 0), shape=(1, tn), padding_mode=ct.PaddingMode.ZERO)
    cols = ct.reshape(ct.arange(tn, dtype=ct.int32), (1, tn))
    x = ct.where(cols < X.shape[1], x, -float("inf"))
    e = ct.exp(x - ct.max(x, axis=1, keepdims=True))
    ct.store(Y, index=(m, 0), tile=e / ct.sum(e, axis=1, keepdims=True))


KERNEL = softmax_row_masked


def kernel_signature():
    f32 = ct.float32
    return signature("softmax_row_masked", [array(f32, 2), array(f32, 2), TN])

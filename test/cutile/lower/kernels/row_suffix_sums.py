"""Running sums and products from each row's end (ct.cumsum and ct.cumprod
with reverse=True: y[i, j] = x[i, j] + .. + x[i, N - 1]), 16 rows a block,
each row over 8 threads: the pieces after a thread's are combined into
it. The zero padding past the row adds nothing to a suffix sum; the
product's factors are 1 + x / 256 with the padding read as 1 - 0 / 256.

  X: M x N f32 (N <= 256), S, P: M x N f32"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN = 16, 256


@ct.kernel
def row_suffix_sums(X, S, P, tm: ct.Constant[int], tn: ct.Constant[int]):
    block = ct.bid(0)
    x = ct.load(X, index=(block, 0), shape=(tm, tn), padding_mode=ct.PaddingMode.ZERO)
    ct.store(S, index=(block, 0), tile=ct.cumsum(x, axis=1, reverse=True))
    ct.store(P, index=(block, 0), tile=ct.cumprod(1.0 + x / 256.0, axis=1, reverse=True))


KERNEL = row_suffix_sums


def kernel_signature():
    f32 = ct.float32
    return signature("row_suffix_sums", [array(f32, 2), array(f32, 2), array(f32, 2), TM, TN])

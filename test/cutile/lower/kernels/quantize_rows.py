"""Per-row symmetric int8 quantization: each row's scale is its largest
magnitude over 127, the values divided by it, rounded half up
(ct.floor(x + 0.5)) and converted to int8 (tileir ftoi, toward zero), the
scales stored beside them. 16 rows a block, each row over 8 threads.

  X: M x N bf16 (N <= 512), Q: M x N i8, S: M f32"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN = 16, 512


@ct.kernel
def quantize_rows(X, Q, S, tm: ct.Constant[int], tn: ct.Constant[int]):
    block = ct.bid(0)
    x = ct.load(X, index=(block, 0), shape=(tm, tn), padding_mode=ct.PaddingMode.ZERO).astype(ct.float32)
    scale = ct.maximum(ct.max(ct.abs(x), axis=1), 1.0e-8) / 127.0
    q = ct.floor(x / scale[:, None] + 0.5)
    ct.store(Q, index=(block, 0), tile=q.astype(ct.int8))
    ct.store(S, index=(block,), tile=scale)


KERNEL = quantize_rows


def kernel_signature():
    return signature("quantize_rows", [array(ct.bfloat16, 2), array(ct.int8, 2), array(ct.float32, 1), TM, TN])

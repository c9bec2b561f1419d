"""An int8 GEMM requantized by an arithmetic shift in int32 and narrowed to int8 by astype (clamped first):
y = int8(clamp(acc >> 7, -128, 127)). 128 x 128 x 64 tiles (numeric-int8-mma.test)."""
import _path  # noqa: F401
import cuda.tile as ct
from constraints import array, signature


@ct.kernel
def gemm_i8_shift(A, B, Y, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    acc = ct.zeros((tm, tn), dtype=ct.int32)
    for k in range(ct.cdiv(A.shape[1], tk)):
        a = ct.load(A, index=(ct.bid(0), k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, ct.bid(1)), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    y = ct.minimum(ct.maximum(acc >> 7, -128), 127)
    ct.store(Y, index=(ct.bid(0), ct.bid(1)), tile=y.astype(ct.int8))


KERNEL = gemm_i8_shift


def kernel_signature():
    return signature("gemm_i8_shift", [array(ct.int8, 2), array(ct.int8, 2), array(ct.int8, 2), 128, 128, 64])

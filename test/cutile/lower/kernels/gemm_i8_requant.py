"""An int8 GEMM with an int32 bias added in int32, then requantized to int8: y = int8(clamp(acc * s, -128,
127)) toward zero, one f32 scale. 128 x 64 x 64 tiles (numeric-int8-mma.test)."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint
from constraints import array, signature

TM, TN, TK = 128, 64, 64


@ct.kernel
def gemm_i8_requant(A, B, Bias, Y, s: float, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((tm, tn), dtype=ct.int32)
    for k in range(ct.cdiv(A.shape[1], tk)):
        a = ct.load(A, index=(bm, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, bn), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    bias = ct.load(Bias, index=(bn,), shape=(tn,), padding_mode=ct.PaddingMode.ZERO)
    acc = acc + bias[None, :]
    y = ct.minimum(ct.maximum(acc.astype(ct.float32) * s, -128.0), 127.0)
    ct.store(Y, index=(bm, bn), tile=y.astype(ct.int8))


KERNEL = gemm_i8_requant


def kernel_signature():
    i8, i32, f32 = ct.int8, ct.int32, ct.float32
    return signature("gemm_i8_requant", [array(i8, 2), array(i8, 2), array(i32, 1), array(i8, 2),
                                         ScalarConstraint(f32), TM, TN, TK])

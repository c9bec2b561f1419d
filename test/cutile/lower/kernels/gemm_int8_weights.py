"""A weight-only quantized linear layer: bf16 activations times int8
weights, each weight column dequantized in registers by its f32 scale
before the MMA (Y = A (Wq * s)), 128 x 128 x 64 tiles.

  A: M x K bf16, Wq: K x N int8, S: N f32, Y: M x N bf16"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 128, 64


@ct.kernel
def gemm_int8_weights(A, Wq, S, Y, tm: ct.Constant[int], tn: ct.Constant[int],
                      tk: ct.Constant[int]):
    bm, bn = ct.bid(0), ct.bid(1)
    acc = ct.zeros((tm, tn), dtype=ct.float32)
    s = ct.load(S, index=(bn,), shape=(tn,))
    for k in range(ct.cdiv(A.shape[1], tk)):
        a = ct.load(A, index=(bm, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        wq = ct.load(Wq, index=(k, bn), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        w = (wq.astype(ct.float32) * s[None, :]).astype(ct.bfloat16)
        acc = ct.mma(a, w, acc)
    ct.store(Y, index=(bm, bn), tile=acc.astype(Y.dtype))


KERNEL = gemm_int8_weights


def kernel_signature():
    bf16, i8, f32 = ct.bfloat16, ct.int8, ct.float32
    return signature("gemm_int8_weights", [array(bf16, 2), array(i8, 2), array(f32, 1), array(bf16, 2),
                                           TM, TN, TK])

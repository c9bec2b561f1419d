"""A GEMM whose per-column bias is read before the K loop, as a user hoists
it: D = relu(A B + bias[n]) in bf16 at 128 x 256 x 64 tiles, bias f32.

  A: M x K bf16, B: K x N bf16, bias: N f32, D: M x N bf16"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 256, 64


@ct.kernel
def gemm_bias_first(A, B, bias, D, tm: ct.Constant[int], tn: ct.Constant[int],
                    tk: ct.Constant[int]):
    bm, bn = ct.bid(0), ct.bid(1)
    b_n = ct.load(bias, index=(bn,), shape=(tn,), padding_mode=ct.PaddingMode.ZERO)
    acc = ct.zeros((tm, tn), dtype=ct.float32)
    for k in range(ct.cdiv(A.shape[1], tk)):
        a = ct.load(A, index=(bm, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, bn), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    y = ct.maximum(acc + b_n[None, :], 0.0)
    ct.store(D, index=(bm, bn), tile=y.astype(D.dtype))


KERNEL = gemm_bias_first


def kernel_signature():
    bf16, f32 = ct.bfloat16, ct.float32
    return signature("gemm_bias_first", [array(bf16, 2), array(bf16, 2), array(f32, 1),
                                         array(bf16, 2), TM, TN, TK])

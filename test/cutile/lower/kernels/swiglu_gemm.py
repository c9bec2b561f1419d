"""A SwiGLU feed-forward GEMM: two products of one X tile, the gate X Wg and
the up X Wu, combined as silu(gate) * up. Two 128 x 128 f32 accumulators
live through the loop (256 registers a thread in one Hopper warpgroup).

  X: M x K bf16, Wg, Wu: K x N bf16, Y: M x N bf16"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 128, 64


@ct.kernel
def swiglu_gemm(X, Wg, Wu, Y, tm: ct.Constant[int], tn: ct.Constant[int],
                tk: ct.Constant[int]):
    bm, bn = ct.bid(0), ct.bid(1)
    gate = ct.zeros((tm, tn), dtype=ct.float32)
    up = ct.zeros((tm, tn), dtype=ct.float32)
    for k in range(ct.cdiv(X.shape[1], tk)):
        x = ct.load(X, index=(bm, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        wg = ct.load(Wg, index=(k, bn), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        wu = ct.load(Wu, index=(k, bn), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        gate = ct.mma(x, wg, gate)
        up = ct.mma(x, wu, up)
    y = gate / (1.0 + ct.exp(-gate)) * up
    ct.store(Y, index=(bm, bn), tile=y.astype(Y.dtype))


KERNEL = swiglu_gemm


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("swiglu_gemm", [array(bf16, 2)] * 4 + [TM, TN, TK])

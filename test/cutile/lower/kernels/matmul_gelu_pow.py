"""A GEMM with GELU's tanh form written as users write it, with a power:
C = gelu(A B), gelu(h) = 0.5 h (1 + tanh(sqrt(2 / pi) (h + 0.044715 h ** 3))).

  A: M x K bf16, B: K x N bf16 (N contiguous), C: M x N bf16; f32 accumulation

cuTile writes `h ** 3` with an integer exponent as tile IR's `fpowi` (13.4),
which the lowering makes multiplies (docs/cuda-tile-lowering.md, "Powers").
Grid (cdiv(M, TM), cdiv(N, TN), 1); edges read zeros, stores past them are
dropped."""
import math

import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 128, 64
SQRT_2_OVER_PI = math.sqrt(2.0 / math.pi)


@ct.kernel
def matmul_gelu_pow(A, B, C, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((tm, tn), dtype=ct.float32)
    for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):
        a = ct.load(A, index=(bm, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, bn), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    y = 0.5 * acc * (1.0 + ct.tanh(SQRT_2_OVER_PI * (acc + 0.044715 * acc ** 3)))
    ct.store(C, index=(bm, bn), tile=y.astype(C.dtype))


KERNEL = matmul_gelu_pow


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("matmul_gelu_pow", [array(bf16, 2), array(bf16, 2), array(bf16, 2), TM, TN, TK])

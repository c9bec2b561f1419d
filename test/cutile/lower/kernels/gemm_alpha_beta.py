"""The GEMM of BLAS and CUTLASS's basic example, D = alpha A B + beta C,
with C and D in f32 at 128 x 256 x 64 tiles: the epilogue reads a 128 KB
C tile and stages a 128 KB D tile, which only fit a CTA when D is written
over C (each thread writes the elements it has read).

  A: M x K bf16, B: K x N bf16, C, D: M x N f32, alpha, beta: f32"""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN, TK = 128, 256, 64


@ct.kernel
def gemm_alpha_beta(A, B, Cin, D, alpha: float, beta: float, tm: ct.Constant[int],
                    tn: ct.Constant[int], tk: ct.Constant[int]):
    bm, bn = ct.bid(0), ct.bid(1)
    acc = ct.zeros((tm, tn), dtype=ct.float32)
    for k in range(ct.cdiv(A.shape[1], tk)):
        a = ct.load(A, index=(bm, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, bn), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    c = ct.load(Cin, index=(bm, bn), shape=(tm, tn), padding_mode=ct.PaddingMode.ZERO)
    ct.store(D, index=(bm, bn), tile=alpha * acc + beta * c)


KERNEL = gemm_alpha_beta


def kernel_signature():
    bf16, f32 = ct.bfloat16, ct.float32
    return signature("gemm_alpha_beta", [array(bf16, 2), array(bf16, 2), array(f32, 2), array(f32, 2),
                                         ScalarConstraint(f32), ScalarConstraint(f32), TM, TN, TK])

"""An int8 GEMM, C = A B with 128 x 128 tiles, K step 64, accumulated in
i32: tcgen05's kind::i8 on sm_100a, wgmma's s8 on sm_90a, exact
(numeric-int8-mma.test; refused until session 49; matmul_u8.py takes
unsigned activations).

  A: M x K int8, B: K x N int8, C: M x N int32"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 128, 64


@ct.kernel
def matmul_i8(A, B, C, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    acc = ct.zeros((tm, tn), dtype=ct.int32)
    for k in range(ct.cdiv(A.shape[1], tk)):
        a = ct.load(A, index=(ct.bid(0), k), shape=(tm, tk))
        b = ct.load(B, index=(k, ct.bid(1)), shape=(tk, tn))
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(ct.bid(0), ct.bid(1)), tile=acc)


KERNEL = matmul_i8


def kernel_signature():
    i8 = ct.int8
    return signature("matmul_i8", [array(i8, 2), array(i8, 2), array(ct.int32, 2), TM, TN, TK])

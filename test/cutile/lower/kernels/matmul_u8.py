"""An int8 GEMM with unsigned activations, C = A B: A uint8 (activations
quantized with a zero point), B int8, accumulated in i32: the MMA's A is
`a_unsigned` (wgmma .u8.s8, tcgen05 kind::i8 with A type U8), its view
MmaTile<uint8_t, ...> over the int8_t bytes TMA moves (numeric-int8-mma.test).

  A: M x K uint8, B: K x N int8, C: M x N int32"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 128, 64


@ct.kernel
def matmul_u8(A, B, C, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    acc = ct.zeros((tm, tn), dtype=ct.int32)
    for k in range(ct.cdiv(A.shape[1], tk)):
        a = ct.load(A, index=(ct.bid(0), k), shape=(tm, tk))
        b = ct.load(B, index=(k, ct.bid(1)), shape=(tk, tn))
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(ct.bid(0), ct.bid(1)), tile=acc)


KERNEL = matmul_u8


def kernel_signature():
    return signature("matmul_u8", [array(ct.uint8, 2), array(ct.int8, 2), array(ct.int32, 2),
                                   TM, TN, TK])

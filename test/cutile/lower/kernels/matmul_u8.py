"""matmul_i8.py's kernel with unsigned activations, C = A B: A uint8
(activations quantized with a zero point), B int8, accumulated in i32: the
MMA's A is `a_unsigned` (wgmma .u8.s8, tcgen05 kind::i8 with A type U8),
its view MmaTile<uint8_t, ...> over the int8_t bytes TMA moves
(numeric-int8-mma.test).

  A: M x K uint8, B: K x N int8, C: M x N int32"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature
from matmul_i8 import TK, TM, TN, matmul_i8

KERNEL = matmul_i8


def kernel_signature():
    return signature("matmul_u8", [array(ct.uint8, 2), array(ct.int8, 2), array(ct.int32, 2), TM, TN, TK])

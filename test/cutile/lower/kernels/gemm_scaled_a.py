"""A GEMM whose A tile is rescaled in registers before the MMA:
C = (A / 2) B, 128 x 128 tiles, K step 64. Each K step's 128 x 64 A tile is
read by the threads (a row each), converted to f32, halved,
converted back to bf16 and handed to the MMA (TMEM on sm_100a, SMEM on
sm_90a); the epilogue stages C over the drained B slots.

  A: M x K bf16, B: K x N bf16, C: M x N bf16"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 128, 64


@ct.kernel
def gemm_scaled_a(A, B, C, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    acc = ct.zeros((tm, tn), dtype=ct.float32)
    for k in range(ct.cdiv(A.shape[1], tk)):
        a = ct.load(A, index=(ct.bid(0), k), shape=(tm, tk))
        b = ct.load(B, index=(k, ct.bid(1)), shape=(tk, tn))
        half = (a.astype(ct.float32) * 0.5).astype(ct.bfloat16)
        acc = ct.mma(half, b, acc)
    ct.store(C, index=(ct.bid(0), ct.bid(1)), tile=ct.astype(acc, C.dtype))


KERNEL = gemm_scaled_a


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("gemm_scaled_a", [array(bf16, 2), array(bf16, 2), array(bf16, 2), TM, TN, TK])

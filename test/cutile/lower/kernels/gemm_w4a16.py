"""W4A16 GEMM: bf16 activations times 4-bit signed weights packed two to a byte (the low nibble is row k of the
first K half, the high nibble row k of the second), unpacked by shifts on the int8 tile ((w << 4) >> 4, w >> 4),
scaled per column in f32 and cast to bf16 for the MMA. 128 x 128 tiles, 64 packed rows (128 of K) a step
(numeric-int8-mma.test)."""
import _path  # noqa: F401
import cuda.tile as ct
from constraints import array, signature


@ct.kernel
def gemm_w4a16(A, Wp, S, C, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    half = Wp.shape[0]
    nk = ct.cdiv(half, tk)
    s = ct.load(S, index=(bn,), shape=(tn,))
    acc = ct.zeros((tm, tn), dtype=ct.float32)
    for k in range(nk):
        w = ct.load(Wp, index=(k, bn), shape=(tk, tn))
        lo = ((w << 4) >> 4).astype(ct.float32) * s[None, :]
        hi = (w >> 4).astype(ct.float32) * s[None, :]
        a0 = ct.load(A, index=(bm, k), shape=(tm, tk))
        a1 = ct.load(A, index=(bm, k + nk), shape=(tm, tk))
        acc = ct.mma(a0, lo.astype(ct.bfloat16), acc)
        acc = ct.mma(a1, hi.astype(ct.bfloat16), acc)
    ct.store(C, index=(bm, bn), tile=acc.astype(ct.bfloat16))


KERNEL = gemm_w4a16


def kernel_signature():
    bf16, f32 = ct.bfloat16, ct.float32
    return signature("gemm_w4a16", [array(bf16, 2), array(ct.int8, 2), array(f32, 1), array(bf16, 2), 128, 128, 64])

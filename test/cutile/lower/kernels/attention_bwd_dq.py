"""FlashAttention's backward pass for Q: one CTA a block of 128 queries,
a loop over blocks of 64 keys. P = exp(scale Q K^T - lse), dP = dO V^T,
dS = P (dP - delta), dQ += dS K; dQ scaled at the end. lse and delta are
per-row vectors read once, before the loop.

  Q, K, V, dO: S x 64 bf16, lse, delta: S f32, dQ: S x 64 bf16"""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN, D = 128, 64, 64


@ct.kernel
def attention_bwd_dq(Q, K, V, dO, lse_in, delta_in, dQ, scale: float,
                     tm: ct.Constant[int], tn: ct.Constant[int], d: ct.Constant[int]):
    bm = ct.bid(0)
    q = ct.load(Q, index=(bm, 0), shape=(tm, d))
    do = ct.load(dO, index=(bm, 0), shape=(tm, d))
    lse = ct.load(lse_in, index=(bm,), shape=(tm,))
    delta = ct.load(delta_in, index=(bm,), shape=(tm,))
    dq = ct.zeros((tm, d), dtype=ct.float32)
    for n in range(ct.cdiv(K.shape[0], tn)):
        k = ct.load(K, index=(n, 0), shape=(tn, d))
        v = ct.load(V, index=(n, 0), shape=(tn, d))
        s = ct.mma(q, ct.transpose(k), ct.zeros((tm, tn), dtype=ct.float32))
        p = ct.exp(s * scale - lse[:, None])
        dp = ct.mma(do, ct.transpose(v), ct.zeros((tm, tn), dtype=ct.float32))
        ds = p * (dp - delta[:, None])
        dq = ct.mma(ds.astype(ct.bfloat16), k, dq)
    ct.store(dQ, index=(bm, 0), tile=(dq * scale).astype(dQ.dtype))


KERNEL = attention_bwd_dq


def kernel_signature():
    bf16, f32 = ct.bfloat16, ct.float32
    return signature("attention_bwd_dq",
                     [array(bf16, 2)] * 4 + [array(f32, 1)] * 2 + [array(bf16, 2)]
                     + [ScalarConstraint(f32), TM, TN, D])

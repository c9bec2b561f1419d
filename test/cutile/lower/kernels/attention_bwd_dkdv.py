"""FlashAttention's backward pass for K and V: one CTA a block of 128 keys,
a loop over blocks of 64 queries. With P^T = exp(scale K Q^T - lse) (lse the
forward's row logsumexp), dV += P^T dO, dP^T = V dO^T, dS^T = P^T (dP^T -
delta) (delta = rowsum(O dO)), dK += dS^T Q; dK scaled at the end. P^T and
dS^T are A operands made by the threads; lse and delta are per-query
vectors broadcast along the key rows.

  Q, K, V, dO: S x 64 bf16, lse, delta: S f32, dK, dV: S x 64 bf16"""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN, D = 64, 128, 64


@ct.kernel
def attention_bwd_dkdv(Q, K, V, dO, lse_in, delta_in, dK, dV, scale: float,
                       tm: ct.Constant[int], tn: ct.Constant[int], d: ct.Constant[int]):
    bn = ct.bid(0)
    k = ct.load(K, index=(bn, 0), shape=(tn, d))
    v = ct.load(V, index=(bn, 0), shape=(tn, d))
    dk = ct.zeros((tn, d), dtype=ct.float32)
    dv = ct.zeros((tn, d), dtype=ct.float32)
    for m in range(ct.cdiv(Q.shape[0], tm)):
        q = ct.load(Q, index=(m, 0), shape=(tm, d))
        do = ct.load(dO, index=(m, 0), shape=(tm, d))
        lse = ct.load(lse_in, index=(m,), shape=(tm,))
        delta = ct.load(delta_in, index=(m,), shape=(tm,))
        st = ct.mma(k, ct.transpose(q), ct.zeros((tn, tm), dtype=ct.float32))
        pt = ct.exp(st * scale - lse[None, :])
        dv = ct.mma(pt.astype(ct.bfloat16), do, dv)
        dpt = ct.mma(v, ct.transpose(do), ct.zeros((tn, tm), dtype=ct.float32))
        dst = pt * (dpt - delta[None, :])
        dk = ct.mma(dst.astype(ct.bfloat16), q, dk)
    ct.store(dK, index=(bn, 0), tile=(dk * scale).astype(dK.dtype))
    ct.store(dV, index=(bn, 0), tile=dv.astype(dV.dtype))


KERNEL = attention_bwd_dkdv


def kernel_signature():
    bf16, f32 = ct.bfloat16, ct.float32
    return signature("attention_bwd_dkdv",
                     [array(bf16, 2)] * 4 + [array(f32, 1)] * 2 + [array(bf16, 2)] * 2
                     + [ScalarConstraint(f32), TM, TN, D])

"""Causal attention forward as Triton's fused-attention tutorial stages it, fp16, head dim 64: Q blocks of 128
rows, K/V blocks of 64; the blocks below the diagonal in one loop, the diagonal ones in a second loop from zero
whose index offsets the first's bound, scaling after the row maximum in the first and as x * c + mask (one fma)
in the second; stores O and M = m + log2(l). Q, K, V, O: (Z*H) x N x 64; M: (Z*H) x N (split-loops.test)."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint
from constraints import array, signature


@ct.kernel
def attention_tutorial(Q, K, V, O, M, sm_scale: float, bm: ct.Constant[int], bn: ct.Constant[int], d: ct.Constant[int]):
    start_m = ct.bid(0)
    zh = ct.bid(1)
    qk_scale = sm_scale * 1.44269504
    q = ct.reshape(ct.load(Q, index=(zh, start_m, 0), shape=(1, bm, d)), (bm, d))
    m_i = ct.full((bm,), -1.0e30, dtype=ct.float32)
    l_i = ct.full((bm,), 1.0, dtype=ct.float32)
    acc = ct.zeros((bm, d), dtype=ct.float32)
    offs_m = start_m * bm + ct.arange(bm, dtype=ct.int32)
    # Off the diagonal: key blocks 0 .. start_m * bm / bn.
    for j in range(start_m * (bm // bn)):
        k = ct.reshape(ct.load(K, index=(zh, j, 0), shape=(1, bn, d)), (bn, d))
        qk = ct.mma(q, ct.transpose(k), ct.zeros((bm, bn), dtype=ct.float32))
        m_ij = ct.maximum(m_i, ct.max(qk, 1) * qk_scale)
        p = ct.exp2(qk * qk_scale - m_ij[:, None])
        alpha = ct.exp2(m_i - m_ij)
        l_i = l_i * alpha + ct.sum(p, 1)
        v = ct.reshape(ct.load(V, index=(zh, j, 0), shape=(1, bn, d)), (bn, d))
        acc = ct.mma(p.astype(ct.float16), v, acc * alpha[:, None])
        m_i = m_ij
    # The diagonal blocks, masked.
    for jj in range(bm // bn):
        j = start_m * (bm // bn) + jj
        k = ct.reshape(ct.load(K, index=(zh, j, 0), shape=(1, bn, d)), (bn, d))
        qk = ct.mma(q, ct.transpose(k), ct.zeros((bm, bn), dtype=ct.float32))
        offs_n = j * bn + ct.arange(bn, dtype=ct.int32)
        qk = qk * qk_scale + ct.where(offs_m[:, None] >= offs_n[None, :], 0.0, -1.0e6)
        m_ij = ct.maximum(m_i, ct.max(qk, 1))
        p = ct.exp2(qk - m_ij[:, None])
        alpha = ct.exp2(m_i - m_ij)
        l_i = l_i * alpha + ct.sum(p, 1)
        v = ct.reshape(ct.load(V, index=(zh, j, 0), shape=(1, bn, d)), (bn, d))
        acc = ct.mma(p.astype(ct.float16), v, acc * alpha[:, None])
        m_i = m_ij
    ct.store(M, index=(zh, start_m), tile=ct.reshape(m_i + ct.log2(l_i), (1, bm)))
    ct.store(O, index=(zh, start_m, 0), tile=ct.reshape((acc / l_i[:, None]).astype(ct.float16), (1, bm, d)))


KERNEL = attention_tutorial


def kernel_signature():
    f16, f32 = ct.float16, ct.float32
    return signature("attention_tutorial", [array(f16, 3), array(f16, 3), array(f16, 3), array(f16, 3), array(f32, 2),
                                      ScalarConstraint(f32), 128, 64, 64])

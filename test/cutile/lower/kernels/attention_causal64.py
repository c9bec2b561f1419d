"""Causal attention with 64-row query and key blocks (FlashAttention's
small-tile form): the query block b reads key blocks 0 to b, the scores
masked to keys at or before each query, head dim 64, bf16. On sm_100a
P, the second MMA's 64-row A operand, is read from SMEM: TMEM's 64-row
tiles hold accumulators only.

  Q, K, V, O: S x 64 bf16"""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

T, D = 64, 64


@ct.kernel
def attention_causal64(Q, K, V, O, scale: float, t: ct.Constant[int], d: ct.Constant[int]):
    block = ct.bid(0)
    q = ct.load(Q, index=(block, 0), shape=(t, d), padding_mode=ct.PaddingMode.ZERO)
    m = ct.full((t,), -1.0e30, dtype=ct.float32)
    l = ct.zeros((t,), dtype=ct.float32)
    acc = ct.zeros((t, d), dtype=ct.float32)
    rows = block * t + ct.arange(t, dtype=ct.int32)
    for j in range(block + 1):
        k = ct.load(K, index=(j, 0), shape=(t, d), padding_mode=ct.PaddingMode.ZERO)
        v = ct.load(V, index=(j, 0), shape=(t, d), padding_mode=ct.PaddingMode.ZERO)
        s = ct.mma(q, ct.transpose(k), ct.zeros((t, t), dtype=ct.float32)) * scale
        cols = j * t + ct.arange(t, dtype=ct.int32)
        s = ct.where(cols[None, :] <= rows[:, None], s, -1.0e30)
        m_new = ct.maximum(m, ct.max(s, axis=1))
        p = ct.exp(s - m_new[:, None])
        alpha = ct.exp(m - m_new)
        l = l * alpha + ct.sum(p, axis=1)
        acc = ct.mma(p.astype(ct.bfloat16), v, acc * alpha[:, None])
        m = m_new
    ct.store(O, index=(block, 0), tile=(acc / l[:, None]).astype(O.dtype))


KERNEL = attention_causal64


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("attention_causal64", [array(bf16, 2), array(bf16, 2), array(bf16, 2), array(bf16, 2),
                                            ScalarConstraint(ct.float32), T, D])

"""Causal attention for one head as Triton's fused-attention tutorial stages
it: the key blocks below the diagonal in a loop without a mask, then the
diagonal block in a second loop, masked with ct.arange positions.

  Q, K, V: S x D bf16 (D = 64, Sq = Sk = S), qk_scale: f32 scalar
  O: S x D bf16, O[i] = sum_{j <= i} p[i, j] V[j] / sum p

Both loops sum into one accumulator (and carry the softmax state), the
second starting from what the first left. Query block b runs b unmasked
trips, then one. Grid (cdiv(S, TM), 1, 1)."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN, D = 128, 128, 64
LOG2E = 1.4426950408889634


@ct.kernel
def attention_two_stage(Q, K, V, O, qk_scale: float, tm: ct.Constant[int], tn: ct.Constant[int],
                        d: ct.Constant[int]):
    bid = ct.bid(0)
    scale = qk_scale * LOG2E
    q = ct.load(Q, index=(bid, 0), shape=(tm, d), padding_mode=ct.PaddingMode.ZERO)
    m_i = ct.full((tm, 1), -float("inf"), dtype=ct.float32)
    l_i = ct.full((tm, 1), 0.0, dtype=ct.float32)
    acc = ct.full((tm, d), 0.0, dtype=ct.float32)
    for j in range(bid):
        kt = ct.load(K, index=(0, j), shape=(d, tn), order=(1, 0))
        s = ct.mma(q, kt, ct.full((tm, tn), 0.0, dtype=ct.float32)) * scale
        m_new = ct.maximum(m_i, ct.max(s, axis=1, keepdims=True))
        p = ct.exp2(s - m_new)
        alpha = ct.exp2(m_i - m_new)
        l_i = l_i * alpha + ct.sum(p, axis=1, keepdims=True)
        v = ct.load(V, index=(j, 0), shape=(tn, d))
        acc = ct.mma(p.astype(ct.bfloat16), v, acc * alpha)
        m_i = m_new
    offs_m = ct.reshape(bid * tm + ct.arange(tm, dtype=ct.int32), (tm, 1))
    offs_n = ct.reshape(bid * tn + ct.arange(tn, dtype=ct.int32), (1, tn))
    for j in range(bid, bid + 1):
        kt = ct.load(K, index=(0, j), shape=(d, tn), order=(1, 0), padding_mode=ct.PaddingMode.ZERO)
        s = ct.mma(q, kt, ct.full((tm, tn), 0.0, dtype=ct.float32)) * scale
        s = ct.where(offs_m >= offs_n, s, -float("inf"))
        m_new = ct.maximum(m_i, ct.max(s, axis=1, keepdims=True))
        p = ct.exp2(s - m_new)
        alpha = ct.exp2(m_i - m_new)
        l_i = l_i * alpha + ct.sum(p, axis=1, keepdims=True)
        v = ct.load(V, index=(j, 0), shape=(tn, d), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(p.astype(ct.bfloat16), v, acc * alpha)
        m_i = m_new
    ct.store(O, index=(bid, 0), tile=(acc / l_i).astype(O.dtype))


KERNEL = attention_two_stage


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("attention_two_stage", [array(bf16, 2), array(bf16, 2), array(bf16, 2), array(bf16, 2),
                                        ScalarConstraint(ct.float32), TM, TN, D])

"""Causal flash attention for one head, as cuTile's attention samples mask
it: positions from ct.arange, compared per (query, key) element.

  Q: Lq x D bf16, K, V: Lk x D bf16 (D = 64, any Lk: keys past Lk are
     masked), qk_scale: f32 scalar parameter
  O: Lq x D bf16, O[i] = sum_{j <= i + Lk - Lq, j < Lk} p[i, j] V[j] / sum p,
     p[i, j] = exp(qk_scale Q[i] . K[j] - max)

The query rows are aligned to the end of the keys (a decoder step's
queries are the last Lq of Lk positions): row i sees keys up to
i + Lk - Lq. Block b's loop stops at the last key block any of its rows
sees, so the trip count depends on the block. Grid (cdiv(Lq, TM), 1, 1)."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN, D = 128, 128, 64
LOG2E = 1.4426950408889634


@ct.kernel
def attention_causal(Q, K, V, O, qk_scale: float, tm: ct.Constant[int], tn: ct.Constant[int],
                     d: ct.Constant[int]):
    block = ct.bid(0)
    lq = Q.shape[0]
    lk = K.shape[0]
    scale = qk_scale * LOG2E
    q = ct.load(Q, index=(block, 0), shape=(tm, d), padding_mode=ct.PaddingMode.ZERO)
    # Each row's last visible key.
    offs_m = block * tm + ct.arange(tm, dtype=ct.int32) + (lk - lq)
    offs_m = ct.reshape(offs_m, (tm, 1))
    offs_n = ct.reshape(ct.arange(tn, dtype=ct.int32), (1, tn))
    m = ct.full((tm, 1), -float("inf"), dtype=ct.float32)
    l = ct.full((tm, 1), 0.0, dtype=ct.float32)
    acc = ct.full((tm, d), 0.0, dtype=ct.float32)
    last = min((block + 1) * tm + lk - lq, lk)
    for j in range(ct.cdiv(last, tn)):
        kt = ct.load(K, index=(0, j), shape=(d, tn), order=(1, 0), padding_mode=ct.PaddingMode.ZERO)
        s = ct.mma(q, kt, ct.full((tm, tn), 0.0, dtype=ct.float32)) * scale
        keys = j * tn + offs_n
        visible = (keys <= offs_m) & (keys < lk)
        s = ct.where(visible, s, -float("inf"))
        m_new = ct.maximum(m, ct.max(s, axis=1, keepdims=True))
        p = ct.exp2(s - m_new)
        alpha = ct.exp2(m - m_new)
        l = l * alpha + ct.sum(p, axis=1, keepdims=True)
        v = ct.load(V, index=(j, 0), shape=(tn, d), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(p.astype(ct.bfloat16), v, acc * alpha)
        m = m_new
    ct.store(O, index=(block, 0), tile=(acc / l).astype(O.dtype))


KERNEL = attention_causal


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("attention_causal", [array(bf16, 2), array(bf16, 2), array(bf16, 2), array(bf16, 2),
                                          ScalarConstraint(ct.float32), TM, TN, D])

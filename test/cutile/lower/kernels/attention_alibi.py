"""Causal attention with ALiBi, a bias by the distance between key and
query (Press et al.; FlashAttention's `alibi_slopes`), for one head:

  Q, K, V: S x D bf16 (D = 64, Sq = Sk = S); qk_scale, slope: f32 scalars
  O: S x D bf16, O = softmax(qk_scale Q K^T + slope (j - i), j <= i) V

The distance is positions converted to float (ct.astype of ct.arange
math). Query block b runs b + 1 key blocks. Grid (cdiv(S, TM), 1, 1)."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN, D = 128, 128, 64
LOG2E = 1.4426950408889634


@ct.kernel
def attention_alibi(Q, K, V, O, qk_scale: float, slope: float, tm: ct.Constant[int],
                     tn: ct.Constant[int], d: ct.Constant[int]):
    bid = ct.bid(0)
    q = ct.load(Q, index=(bid, 0), shape=(tm, d), padding_mode=ct.PaddingMode.ZERO)
    offs_m = ct.reshape(bid * tm + ct.arange(tm, dtype=ct.int32), (tm, 1))
    offs_n = ct.reshape(ct.arange(tn, dtype=ct.int32), (1, tn))
    m_i = ct.full((tm, 1), -float("inf"), dtype=ct.float32)
    l_i = ct.full((tm, 1), 0.0, dtype=ct.float32)
    acc = ct.full((tm, d), 0.0, dtype=ct.float32)
    for j in range(bid + 1):
        kt = ct.load(K, index=(0, j), shape=(d, tn), order=(1, 0), padding_mode=ct.PaddingMode.ZERO)
        s = ct.mma(q, kt, ct.full((tm, tn), 0.0, dtype=ct.float32)) * qk_scale
        keys = j * tn + offs_n
        s = s + slope * ct.astype(keys - offs_m, ct.float32)
        s = ct.where(keys <= offs_m, s, -float("inf")) * LOG2E
        m_new = ct.maximum(m_i, ct.max(s, axis=1, keepdims=True))
        p = ct.exp2(s - m_new)
        alpha = ct.exp2(m_i - m_new)
        l_i = l_i * alpha + ct.sum(p, axis=1, keepdims=True)
        v = ct.load(V, index=(j, 0), shape=(tn, d), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(p.astype(ct.bfloat16), v, acc * alpha)
        m_i = m_new
    ct.store(O, index=(bid, 0), tile=(acc / l_i).astype(O.dtype))


KERNEL = attention_alibi


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("attention_alibi", [array(bf16, 2), array(bf16, 2), array(bf16, 2), array(bf16, 2),
                               ScalarConstraint(ct.float32), ScalarConstraint(ct.float32), TM, TN, D])

"""Attention with an additive bias tile per block of keys (a relative
position bias, read like Q, K and V and padded with -inf past the keys'
end) and a key padding mask (one float per key, kept where above 0.5,
`keep[None, :] > 0.5`): 128 queries, 64 keys a block, head dim 64.

  Q: M x 64 bf16, K, V: N x 64 bf16, Bias: M x N f32, Keep: N f32,
  O: M x 64 bf16"""
import math

import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN, D = 128, 64, 64


@ct.kernel
def attention_bias_mask(Q, K, V, Bias, Keep, O, scale: float, tm: ct.Constant[int],
                        tn: ct.Constant[int], d: ct.Constant[int]):
    bm = ct.bid(0)
    q = ct.load(Q, index=(bm, 0), shape=(tm, d), padding_mode=ct.PaddingMode.ZERO)
    m = ct.full((tm,), -1.0e30, dtype=ct.float32)
    l = ct.zeros((tm,), dtype=ct.float32)
    acc = ct.zeros((tm, d), dtype=ct.float32)
    for j in range(ct.cdiv(K.shape[0], tn)):
        k = ct.load(K, index=(j, 0), shape=(tn, d), padding_mode=ct.PaddingMode.ZERO)
        v = ct.load(V, index=(j, 0), shape=(tn, d), padding_mode=ct.PaddingMode.ZERO)
        bias = ct.load(Bias, index=(bm, j), shape=(tm, tn), padding_mode=ct.PaddingMode.NEG_INF)
        keep = ct.load(Keep, index=(j,), shape=(tn,), padding_mode=ct.PaddingMode.ZERO)
        s = ct.mma(q, ct.transpose(k), ct.zeros((tm, tn), dtype=ct.float32)) * scale + bias
        s = ct.where(keep[None, :] > 0.5, s, -math.inf)
        m_new = ct.maximum(m, ct.max(s, axis=1))
        p = ct.exp(s - m_new[:, None])
        alpha = ct.exp(m - m_new)
        l = l * alpha + ct.sum(p, axis=1)
        acc = ct.mma(p.astype(ct.bfloat16), v, acc * alpha[:, None])
        m = m_new
    ct.store(O, index=(bm, 0), tile=(acc / l[:, None]).astype(O.dtype))


KERNEL = attention_bias_mask


def kernel_signature():
    bf16, f32 = ct.bfloat16, ct.float32
    return signature("attention_bias_mask",
                     [array(bf16, 2), array(bf16, 2), array(bf16, 2), array(f32, 2), array(f32, 1),
                      array(bf16, 2), ScalarConstraint(f32), TM, TN, D])

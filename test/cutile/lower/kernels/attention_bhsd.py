"""Attention over (batch, heads, sequence, head dim) tensors, PyTorch's
layout for scaled_dot_product_attention:

  Q: B x H x S x D bf16, K, V: B x H x T x D bf16 (D = 64, H = 4),
     qk_scale: f32 scalar parameter
  O: B x H x S x D bf16, O[b, h] = softmax(qk_scale Q[b, h] K[b, h]^T) V[b, h]

Each tile is a (1, 1, TM, D) box of a rank-4 array, reshaped to (TM, D);
K^T is ct.transpose of K's tile. Grid (cdiv(S, TM), B * H, 1): block
(x, y) takes query rows TM x of head y % H of batch y / H; its loop runs
over T in blocks of TN (keys past T read zeros and are not masked, so T
is a multiple of TN)."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN, D, H = 128, 128, 64, 4
LOG2E = 1.4426950408889634


@ct.kernel
def attention_bhsd(Q, K, V, O, qk_scale: float, tm: ct.Constant[int], tn: ct.Constant[int],
                   d: ct.Constant[int], heads: ct.Constant[int]):
    block = ct.bid(0)
    batch = ct.bid(1) // heads
    head = ct.bid(1) % heads
    scale = qk_scale * LOG2E
    q = ct.reshape(ct.load(Q, index=(batch, head, block, 0), shape=(1, 1, tm, d),
                           padding_mode=ct.PaddingMode.ZERO), (tm, d))
    m_i = ct.full((tm, 1), -float("inf"), dtype=ct.float32)
    l_i = ct.full((tm, 1), 0.0, dtype=ct.float32)
    acc = ct.full((tm, d), 0.0, dtype=ct.float32)
    for j in range(ct.cdiv(K.shape[2], tn)):
        k = ct.reshape(ct.load(K, index=(batch, head, j, 0), shape=(1, 1, tn, d),
                               padding_mode=ct.PaddingMode.ZERO), (tn, d))
        s = ct.mma(q, ct.transpose(k), ct.full((tm, tn), 0.0, dtype=ct.float32)) * scale
        m_new = ct.maximum(m_i, ct.max(s, axis=1, keepdims=True))
        p = ct.exp2(s - m_new)
        alpha = ct.exp2(m_i - m_new)
        l_i = l_i * alpha + ct.sum(p, axis=1, keepdims=True)
        v = ct.reshape(ct.load(V, index=(batch, head, j, 0), shape=(1, 1, tn, d),
                               padding_mode=ct.PaddingMode.ZERO), (tn, d))
        acc = ct.mma(p.astype(ct.bfloat16), v, acc * alpha)
        m_i = m_new
    out = (acc / l_i).astype(O.dtype)
    ct.store(O, index=(batch, head, block, 0), tile=ct.reshape(out, (1, 1, tm, d)))


KERNEL = attention_bhsd


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("attention_bhsd", [array(bf16, 4), array(bf16, 4), array(bf16, 4), array(bf16, 4),
                                        ScalarConstraint(ct.float32), TM, TN, D, H])

"""Decoding attention written plainly: one query per (batch x head) row,
the keys and values of its sequence in 64-row blocks (each row split over
two threads), scores as a row reduction of k * q (no MMA for one query),
the online softmax's max and sum carried across the loop as scalars (a sum
over the 64 scores counts each once), and the weighted values summed down
the block's columns.

  Q: BH x 128 bf16, K, V: BH x S x 128 bf16, O: BH x 128 bf16"""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TN, D = 64, 128


@ct.kernel
def attention_decode(Q, K, V, O, scale: float, tn: ct.Constant[int], d: ct.Constant[int]):
    bh = ct.bid(0)
    q = ct.load(Q, index=(bh, 0), shape=(1, d)).astype(ct.float32)
    m = ct.full((1,), -1.0e30, dtype=ct.float32)
    l = ct.zeros((1,), dtype=ct.float32)
    acc = ct.zeros((1, d), dtype=ct.float32)
    n = K.shape[1]
    for j in range(ct.cdiv(n, tn)):
        k = ct.reshape(ct.load(K, index=(bh, j, 0), shape=(1, tn, d), padding_mode=ct.PaddingMode.ZERO),
                       (tn, d)).astype(ct.float32)
        v = ct.reshape(ct.load(V, index=(bh, j, 0), shape=(1, tn, d), padding_mode=ct.PaddingMode.ZERO),
                       (tn, d)).astype(ct.float32)
        s = ct.sum(k * q, axis=1) * scale
        pos = j * tn + ct.arange(tn, dtype=ct.int32)
        s = ct.where(pos < n, s, -1.0e30)
        m_new = ct.maximum(m, ct.max(s, axis=0, keepdims=True))
        p = ct.exp(s - m_new)
        alpha = ct.exp(m - m_new)
        l = l * alpha + ct.sum(p, axis=0, keepdims=True)
        acc = acc * alpha[:, None] + ct.sum(p[:, None] * v, axis=0, keepdims=True)
        m = m_new
    ct.store(O, index=(bh, 0), tile=(acc / l[:, None]).astype(O.dtype))


KERNEL = attention_decode


def kernel_signature():
    bf16, f32 = ct.bfloat16, ct.float32
    return signature("attention_decode", [array(bf16, 2), array(bf16, 3), array(bf16, 3), array(bf16, 2),
                                          ScalarConstraint(f32), TN, D])

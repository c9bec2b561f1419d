"""decode_alibi.py for multi-query attention: the 64 query heads of one KV
head in one 64-row tile, so both targets take it (tcgen05 has no 16-row
MMA). The key positions are a per-column vector every thread holds whole on
sm_100a, and its columns of the fragment's rows on sm_90a.

  Q: BKV x 64 x 128 bf16, K, V: BKV x S x 128 bf16, Slopes: 64 f32,
  O: BKV x 64 x 128 bf16, scale: f32 scalar parameter"""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

G, TN, D = 64, 64, 128


@ct.kernel
def decode_alibi_mqa(Q, K, V, Slopes, O, scale: float, g: ct.Constant[int], tn: ct.Constant[int],
                 d: ct.Constant[int]):
    kv_head = ct.bid(0)
    seq = K.shape[1]
    q = ct.reshape(ct.load(Q, index=(kv_head, 0, 0), shape=(1, g, d)), (g, d))
    slope = ct.load(Slopes, index=(0,), shape=(g,))
    m = ct.full((g, 1), -1.0e30, dtype=ct.float32)
    l = ct.full((g, 1), 0.0, dtype=ct.float32)
    acc = ct.full((g, d), 0.0, dtype=ct.float32)
    for j in range(ct.cdiv(seq, tn)):
        k = ct.reshape(ct.load(K, index=(kv_head, j, 0), shape=(1, tn, d),
                               padding_mode=ct.PaddingMode.ZERO), (tn, d))
        s = ct.mma(q, ct.transpose(k), ct.full((g, tn), 0.0, dtype=ct.float32)) * scale
        pos = j * tn + ct.arange(tn, dtype=ct.int32)
        s = s + slope[:, None] * (pos.astype(ct.float32) - (seq - 1))[None, :]
        s = ct.where(pos[None, :] < seq, s, -1.0e30)
        m_new = ct.maximum(m, ct.max(s, axis=1, keepdims=True))
        p = ct.exp(s - m_new)
        alpha = ct.exp(m - m_new)
        l = l * alpha + ct.sum(p, axis=1, keepdims=True)
        v = ct.reshape(ct.load(V, index=(kv_head, j, 0), shape=(1, tn, d),
                               padding_mode=ct.PaddingMode.ZERO), (tn, d))
        acc = ct.mma(p.astype(ct.bfloat16), v, acc * alpha)
        m = m_new
    ct.store(O, index=(kv_head, 0, 0), tile=ct.reshape((acc / l).astype(ct.bfloat16), (1, g, d)))


KERNEL = decode_alibi_mqa


def kernel_signature():
    bf16, f32 = ct.bfloat16, ct.float32
    return signature("decode_alibi_mqa", [array(bf16, 3), array(bf16, 3), array(bf16, 3), array(f32, 1),
                                      array(bf16, 3), ScalarConstraint(f32), G, TN, D])

"""Attention whose keys end inside their last block, masked there only, by a
branch cuTile keeps in the loop (`if j == n - 1:`; it splits a loop only at
a bound, `if j >= s:`): the lowering runs both branches and selects
(docs/cuda-tile-lowering.md, "An `if` that only computes").

  Q: Lq x D bf16, K, V: Lk x D bf16 (D = 64, any Lk), qk_scale: f32
  O[i] = softmax(qk_scale Q[i] K^T) V over the Lk keys (natural exp)

Grid (cdiv(Lq, 128), 1, 1)."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint
from constraints import array, signature

TM, TN, D = 128, 128, 64


@ct.kernel
def attention_last_block(Q, K, V, Out, qk_scale: float, tm: ct.Constant[int], tn: ct.Constant[int], d: ct.Constant[int]):
    bid = ct.bid(0)
    q = ct.load(Q, index=(bid, 0), shape=(tm, d))
    lk = K.shape[0]
    n = ct.cdiv(lk, tn)
    m_i = ct.full((tm, 1), -float("inf"), dtype=ct.float32)
    l_i = ct.full((tm, 1), 0.0, dtype=ct.float32)
    acc = ct.full((tm, d), 0.0, dtype=ct.float32)
    cols = ct.arange(tn, dtype=ct.int32)[None, :]
    for j in range(n):
        k = ct.load(K, index=(j, 0), shape=(tn, d))
        qk = ct.mma(q, ct.transpose(k), ct.full((tm, tn), 0.0, dtype=ct.float32)) * qk_scale
        if j == n - 1:
            qk = ct.where(j * tn + cols < lk, qk, -float("inf"))
        m_ij = max(m_i, ct.max(qk, axis=-1, keepdims=True))
        p = ct.exp(qk - m_ij)
        alpha = ct.exp(m_i - m_ij)
        l_i = l_i * alpha + ct.sum(p, axis=-1, keepdims=True)
        v = ct.load(V, index=(j, 0), shape=(tn, d))
        acc = ct.mma(p.astype(ct.bfloat16), v, acc * alpha)
        m_i = m_ij
    ct.store(Out, index=(bid, 0), tile=(acc / l_i).astype(Out.dtype))


KERNEL = attention_last_block


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("attention_last_block", [array(bf16, 2), array(bf16, 2), array(bf16, 2), array(bf16, 2),
                                   ScalarConstraint(ct.float32), TM, TN, D])

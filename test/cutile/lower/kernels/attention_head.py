"""Flash attention for one head, rows of Q per CTA, online softmax in base 2:

  Q: Lq x D bf16, K, V: Lk x D bf16 (D = 64; Lk a multiple of TN: no key
     masking), qk_scale: f32 scalar parameter
  O: Lq x D bf16, O = softmax(qk_scale Q K^T) V

K is read transposed through the view (order=(1, 0)), so S = Q K^T is one
MMA. Grid (cdiv(Lq, TM), 1, 1); the loop runs Lk / TN times.
test/cutile/kernels/attention.py is the batched form (rank-3 views)."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN, D = 128, 128, 64
LOG2E = 1.4426950408889634


@ct.kernel
def attention_head(Q, K, V, O, qk_scale: float, tm: ct.Constant[int], tn: ct.Constant[int],
                   d: ct.Constant[int]):
    row = ct.bid(0)
    scale = qk_scale * LOG2E
    q = ct.load(Q, index=(row, 0), shape=(tm, d), padding_mode=ct.PaddingMode.ZERO)
    m = ct.full((tm, 1), -float("inf"), dtype=ct.float32)
    l = ct.full((tm, 1), 0.0, dtype=ct.float32)
    acc = ct.full((tm, d), 0.0, dtype=ct.float32)
    for j in range(ct.num_tiles(K, axis=0, shape=(tn, d))):
        kt = ct.load(K, index=(0, j), shape=(d, tn), order=(1, 0))
        s = ct.mma(q, kt, ct.full((tm, tn), 0.0, dtype=ct.float32)) * scale
        m_new = ct.maximum(m, ct.max(s, axis=1, keepdims=True))
        p = ct.exp2(s - m_new)
        alpha = ct.exp2(m - m_new)
        l = l * alpha + ct.sum(p, axis=1, keepdims=True)
        v = ct.load(V, index=(j, 0), shape=(tn, d))
        acc = ct.mma(p.astype(ct.bfloat16), v, acc * alpha)
        m = m_new
    ct.store(O, index=(row, 0), tile=(acc / l).astype(O.dtype))


KERNEL = attention_head


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("attention_head", [array(bf16, 2), array(bf16, 2), array(bf16, 2), array(bf16, 2),
                                        ScalarConstraint(ct.float32), TM, TN, D])

"""Causal attention over packed variable-length sequences, as
FlashAttention's varlen API takes them: the sequences lie one after another
along the rows, Cu holds their starts (cu_seqlens), and every tile is
gathered by row with the rows past its sequence masked to zeros:

  Q, K, V, O: T x 64 bf16 (T the total length), Cu: B + 1 int32, scale: f32
  O[s_b + i] = softmax_j(scale Q[s_b + i] . K[s_b + j], j <= i < n_b) V

Grid (cdiv(max n_b, 64), B, 1); block (q, b) runs cdiv(min(64 (q + 1), n_b),
64) trips. The lowering reads each gathered tile with TMA at its row and
masks it in registers, a row over two lanes, before the MMAs read it back
from SMEM. On sm_90a those reads, the masks and the stores back sit in the
agent whose tiles lie in the fragment's rows, which refused them before
("a tile read with rows split over lanes ... is not translated")."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN, D = 64, 64, 64


@ct.kernel
def attention_varlen(Q, K, V, O, Cu, scale: float, tm: ct.Constant[int], tn: ct.Constant[int],
                     d: ct.Constant[int]):
    qb = ct.bid(0)
    seq = ct.bid(1)
    start = ct.gather(Cu, seq)
    end = ct.gather(Cu, seq + 1)
    n = end - start
    cols = ct.arange(d, dtype=ct.int32)
    qi = qb * tm + ct.arange(tm, dtype=ct.int32)
    qmask = qi < n
    q = ct.gather(Q, ((start + qi)[:, None], cols[None, :]), mask=qmask[:, None], padding_value=0)
    m = ct.full((tm, 1), -1.0e30, dtype=ct.float32)
    l = ct.zeros((tm, 1), dtype=ct.float32)
    o = ct.zeros((tm, d), dtype=ct.float32)
    for j in range(ct.cdiv(min((qb + 1) * tm, n), tn)):
        kj = j * tn + ct.arange(tn, dtype=ct.int32)
        kmask = kj < n
        k = ct.gather(K, ((start + kj)[:, None], cols[None, :]), mask=kmask[:, None], padding_value=0)
        v = ct.gather(V, ((start + kj)[:, None], cols[None, :]), mask=kmask[:, None], padding_value=0)
        s = ct.mma(q, ct.transpose(k), ct.zeros((tm, tn), dtype=ct.float32)) * scale
        s = ct.where((kj[None, :] <= qi[:, None]) & kmask[None, :], s, -1.0e30)
        mn = ct.maximum(m, ct.max(s, axis=1, keepdims=True))
        p = ct.exp(s - mn)
        a = ct.exp(m - mn)
        l = l * a + ct.sum(p, axis=1, keepdims=True)
        o = ct.mma(p.astype(ct.bfloat16), v, o * a)
        m = mn
    out = (o / l).astype(ct.bfloat16)
    ct.scatter(O, ((start + qi)[:, None], cols[None, :]), out, mask=qmask[:, None])


KERNEL = attention_varlen


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("attention_varlen", [array(bf16, 2)] * 4 + [array(ct.int32, 1), ScalarConstraint(ct.float32),
                                                                 TM, TN, D])

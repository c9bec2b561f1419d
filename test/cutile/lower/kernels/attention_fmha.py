"""Causal attention as cuTile's FMHA sample writes it: (batch, heads,
sequence, dim) arrays, grouped-query heads (two query heads read one K, V
head), K loaded as D x N through its order, and the causal mask applied by a
branch on the loop index, `if j >= mask_start:`, which cuTile compiles by
splitting the loop in two at mask_start (the lowering makes it one again:
docs/cuda-tile-lowering.md, "Loops cuTile split").

  Q, O: B x H x S x D bf16, K, V: B x H/G x S x D bf16 (D = 128, G = 2)
  O[b, h, i] = sum_{j <= i} p[i, j] V[b, h / G, j] / sum_j p[i, j],
  p[i, j] = exp(qk_scale Q[b, h, i] . K[b, h / G, j] - max)

Grid (cdiv(S, TM), B H, 1)."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN, D, G = 128, 128, 128, 2
INV_LOG_2 = 1.4426950408889634


@ct.kernel
def attention_fmha(Q, K, V, Out, qk_scale: float, tm: ct.Constant[int], tn: ct.Constant[int],
                   d: ct.Constant[int], group: ct.Constant[int]):
    bid_x = ct.bid(0)
    bid_y = ct.bid(1)
    heads = Q.shape[1]
    batch_idx = bid_y // heads
    head_idx = bid_y % heads
    kv_head = head_idx // group
    scale = qk_scale * INV_LOG_2
    offs_m = bid_x * tm + ct.arange(tm, dtype=ct.int32)
    offs_m = offs_m[:, None]
    offs_n_tile = ct.arange(tn, dtype=ct.int32)
    offs_n_tile = offs_n_tile[None, :]
    m_i = ct.full((tm, 1), -float("inf"), dtype=ct.float32)
    l_i = ct.full((tm, 1), 0.0, dtype=ct.float32)
    acc = ct.full((tm, d), 0.0, dtype=ct.float32)
    q = ct.load(Q, index=(batch_idx, head_idx, bid_x, 0), shape=(1, 1, tm, d)).reshape((tm, d))
    k_seqlen = K.shape[2]
    m_end = (bid_x + 1) * tm
    tc = ct.cdiv(min(m_end, k_seqlen), tn)
    mask_start = (bid_x * tm) // tn
    for j in range(0, tc):
        k = ct.load(K, index=(batch_idx, kv_head, 0, j), shape=(1, 1, d, tn), order=(0, 1, 3, 2))
        k = k.reshape((d, tn))
        qk = ct.full((tm, tn), 0.0, dtype=ct.float32)
        qk = ct.mma(q, k, qk)
        if j >= mask_start:
            offs_n = j * tn + offs_n_tile
            mask = offs_m >= offs_n
            qk = qk + ct.where(mask, 0.0, -float("inf"))
        m_ij = max(m_i, ct.max(qk, axis=-1, keepdims=True) * scale)
        qk = qk * scale - m_ij
        p = ct.exp2(qk, flush_to_zero=True)
        l_ij = ct.sum(p, axis=-1, keepdims=True)
        alpha = ct.exp2(m_i - m_ij, flush_to_zero=True)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha
        v = ct.load(V, index=(batch_idx, kv_head, j, 0), shape=(1, 1, tn, d)).reshape((tn, d))
        p = p.astype(Q.dtype)
        acc = ct.mma(p, v, acc)
        m_i = m_ij
    acc = ct.truediv(acc, l_i, flush_to_zero=True, rounding_mode=ct.RoundingMode.APPROX)
    acc = acc.reshape((1, 1, tm, d)).astype(Out.dtype)
    ct.store(Out, index=(batch_idx, head_idx, bid_x, 0), tile=acc)


KERNEL = attention_fmha


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("attention_fmha", [array(bf16, 4), array(bf16, 4), array(bf16, 4), array(bf16, 4),
                                        ScalarConstraint(ct.float32), TM, TN, D, G])

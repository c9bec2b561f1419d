"""Grouped-query attention with the group size read from the arrays: each
K/V head serves Q.shape[1] // K.shape[1] query heads, as a kernel written
for any head counts computes it. Non-causal, D = 64, keys past T masked with
ct.arange positions against T, so T is any length.

  Q, O: B x HQ x S x D bf16; K, V: B x HKV x T x D bf16
  O[b, h] = softmax(scale Q[b, h] K[b, g]^T) V[b, g], g = h // (HQ // HKV)

Grid (cdiv(S, TM), B * HQ, 1)."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN, D, HQ = 128, 64, 64, 6
LOG2E = 1.4426950408889634


@ct.kernel
def attention_gqa_shapes(Q, K, V, O, scale: float, tm: ct.Constant[int], tn: ct.Constant[int],
                         d: ct.Constant[int], q_heads: ct.Constant[int]):
    block = ct.bid(0)
    batch = ct.bid(1) // q_heads
    head = ct.bid(1) % q_heads
    group = Q.shape[1] // K.shape[1]
    kv_head = head // group
    keys = K.shape[2]
    q = ct.load(Q, index=(batch, head, block, 0), shape=(1, 1, tm, d),
                padding_mode=ct.PaddingMode.ZERO).reshape((tm, d))
    row_max = ct.full((tm, 1), -float("inf"), dtype=ct.float32)
    row_sum = ct.zeros((tm, 1), dtype=ct.float32)
    acc = ct.zeros((tm, d), dtype=ct.float32)
    offs = ct.arange(tn, dtype=ct.int32)[None, :]
    for j in range(ct.cdiv(keys, tn)):
        k = ct.load(K, index=(batch, kv_head, j, 0), shape=(1, 1, tn, d),
                    padding_mode=ct.PaddingMode.ZERO).reshape((tn, d))
        s = ct.mma(q, ct.transpose(k), ct.zeros((tm, tn), dtype=ct.float32))
        s = ct.where(j * tn + offs < keys, s * (scale * LOG2E), -float("inf"))
        new_max = ct.maximum(row_max, ct.max(s, axis=1, keepdims=True))
        p = ct.exp2(s - new_max)
        rescale = ct.exp2(row_max - new_max)
        row_sum = row_sum * rescale + ct.sum(p, axis=1, keepdims=True)
        v = ct.load(V, index=(batch, kv_head, j, 0), shape=(1, 1, tn, d),
                    padding_mode=ct.PaddingMode.ZERO).reshape((tn, d))
        acc = ct.mma(p.astype(ct.bfloat16), v, acc * rescale)
        row_max = new_max
    out = (acc / row_sum).astype(O.dtype).reshape((1, 1, tm, d))
    ct.store(O, index=(batch, head, block, 0), tile=out)


KERNEL = attention_gqa_shapes


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("attention_gqa_shapes", [array(bf16, 4)] * 4 + [ScalarConstraint(ct.float32), TM, TN, D, HQ])

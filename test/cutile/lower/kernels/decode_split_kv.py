"""Split-KV decoding attention computed transposed, as TileGym's flash
decode is: the 8 query heads that share a KV head are the columns of
S^T = K Q^T (128 x 8) and of O^T = V^T P (128 x 8); a split past the
sequence's end runs no trips (`if end > start:` around the loop); the last
block is masked under an `if` in the loop. Writes each split's partial
output and log2-sum-exp (-inf for an empty split) for a merge.

  Q: B x Hkv x 8 x 128 bf16, K, V: B x Hkv x S x 128 bf16,
  O: B x Hkv x 8 x NS x 128 bf16, L: B x Hkv x 8 x NS f32"""
import _path  # noqa: F401
import math

import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

G, D, TN, SPLIT = 8, 128, 128, 256


@ct.kernel
def decode_split_kv(Q, K, V, O, L, scale: float, S: int, g: ct.Constant[int], d: ct.Constant[int],
                 tn: ct.Constant[int], split: ct.Constant[int]):
    b = ct.bid(0)
    h = ct.bid(1)
    sp = ct.bid(2)
    q = ct.reshape(ct.load(Q, index=(b, h, 0, 0), shape=(1, 1, g, d)), (g, d))
    qt = ct.transpose(q)
    start = sp * split
    end = ct.minimum(start + split, S)
    m = ct.full((g,), -math.inf, dtype=ct.float32)
    l = ct.full((tn, g), 1.0, dtype=ct.float32)
    acc = ct.zeros((d, g), dtype=ct.float32)
    rows = ct.arange(tn, dtype=ct.int32)
    c = scale * 1.4426950408889634
    if end > start:
        for i in range(split // tn):
            blk = start // tn + i
            k = ct.reshape(ct.load(K, index=(b, h, blk, 0), shape=(1, 1, tn, d)), (tn, d))
            s = ct.matmul(k, qt)
            if blk * tn + tn > S:
                s = ct.where((blk * tn + rows)[:, None] < S, s, -1.0e6)
            s = s * c
            mn = ct.maximum(m, ct.max(s, 0))
            p = ct.exp2(s - mn[None, :])
            alpha = ct.exp2(m - mn)
            l = l * alpha[None, :] + p
            acc = acc * alpha[None, :]
            v = ct.reshape(ct.load(V, index=(b, h, blk, 0), shape=(1, 1, tn, d)), (tn, d))
            acc = ct.mma(ct.transpose(v), p.astype(Q.dtype), acc=acc)
            m = mn
    tot = ct.sum(l, 0)
    out = ct.transpose(acc / tot[None, :]).astype(O.dtype)
    ct.store(O, index=(b, h, 0, sp, 0), tile=ct.reshape(out, (1, 1, g, 1, d)))
    lse = m + ct.log2(tot)
    ct.scatter(L, (b, h, ct.arange(g, dtype=ct.int32), sp), lse)


KERNEL = decode_split_kv


def kernel_signature():
    bf16, f32, i32 = ct.bfloat16, ct.float32, ct.int32
    return signature("decode_split_kv", [array(bf16, 4), array(bf16, 4), array(bf16, 4), array(bf16, 5), array(f32, 4),
                                      ScalarConstraint(f32), ScalarConstraint(i32), G, D, TN, SPLIT])

"""Decoding attention for grouped queries on the tensor core: the 16 query
heads that share a KV head are the rows of one tile, so S = Q K^T and
O = P V are MMAs of 16 rows (as FlashDecoding and FlashInfer batch a
group), the keys in blocks of 64, masked past the sequence by positions.

  Q: BKV x 16 x 128 bf16, K, V: BKV x S x 128 bf16, O: BKV x 16 x 128 bf16,
     scale: f32 scalar parameter

Grid (BKV, 1, 1): block b takes KV head b; its loop runs cdiv(S, 64)
times. On sm_90a the 16-row wgmmas are issued as 64 rows
(docs/cuda.md, "Tiles of fewer than 64 rows"); tcgen05 has no 16-row form."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

G, TN, D = 16, 64, 128


@ct.kernel
def decode_gqa_mma(Q, K, V, O, scale: float, g: ct.Constant[int], tn: ct.Constant[int],
                   d: ct.Constant[int]):
    kv_head = ct.bid(0)
    seq = K.shape[1]
    q = ct.reshape(ct.load(Q, index=(kv_head, 0, 0), shape=(1, g, d)), (g, d))
    m = ct.full((g, 1), -1.0e30, dtype=ct.float32)
    l = ct.full((g, 1), 0.0, dtype=ct.float32)
    acc = ct.full((g, d), 0.0, dtype=ct.float32)
    for j in range(ct.cdiv(seq, tn)):
        k = ct.reshape(ct.load(K, index=(kv_head, j, 0), shape=(1, tn, d),
                               padding_mode=ct.PaddingMode.ZERO), (tn, d))
        s = ct.mma(q, ct.transpose(k), ct.full((g, tn), 0.0, dtype=ct.float32)) * scale
        keys = j * tn + ct.arange(tn, dtype=ct.int32)
        s = ct.where(keys[None, :] < seq, s, -1.0e30)
        m_new = ct.maximum(m, ct.max(s, axis=1, keepdims=True))
        p = ct.exp(s - m_new)
        alpha = ct.exp(m - m_new)
        l = l * alpha + ct.sum(p, axis=1, keepdims=True)
        v = ct.reshape(ct.load(V, index=(kv_head, j, 0), shape=(1, tn, d),
                               padding_mode=ct.PaddingMode.ZERO), (tn, d))
        acc = ct.mma(p.astype(ct.bfloat16), v, acc * alpha)
        m = m_new
    ct.store(O, index=(kv_head, 0, 0), tile=ct.reshape((acc / l).astype(ct.bfloat16), (1, g, d)))


KERNEL = decode_gqa_mma


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("decode_gqa_mma", [array(bf16, 3), array(bf16, 3), array(bf16, 3), array(bf16, 3),
                                        ScalarConstraint(ct.float32), G, TN, D])

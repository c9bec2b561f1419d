"""Decoding attention over a paged KV cache, as vLLM lays it out: the
keys and values of all sequences sit in pages of 64 rows, a block table
lists each sequence's pages in order, and each sequence's length is read
from memory. One query a sequence; the page of each step and the trip
count are read by every thread (a scalar `ct.gather`), the page as the
key and value boxes' coordinate.

  Q: B x 128 bf16, Kc, Vc: pages x 64 x 128 bf16, table: B x P i32,
  lengths: B i32, O: B x 128 bf16"""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

PAGE, D = 64, 128


@ct.kernel
def attention_paged_decode(Q, Kc, Vc, table, lengths, O, scale: float,
                           page: ct.Constant[int], d: ct.Constant[int]):
    seq = ct.bid(0)
    q = ct.load(Q, index=(seq, 0), shape=(1, d)).astype(ct.float32)
    n = ct.gather(lengths, seq)
    m = ct.full((1,), -1.0e30, dtype=ct.float32)
    l = ct.zeros((1,), dtype=ct.float32)
    acc = ct.zeros((1, d), dtype=ct.float32)
    for j in range(ct.cdiv(n, page)):
        p = ct.gather(table, (seq, j))
        k = ct.reshape(ct.load(Kc, index=(p, 0, 0), shape=(1, page, d)), (page, d)).astype(ct.float32)
        v = ct.reshape(ct.load(Vc, index=(p, 0, 0), shape=(1, page, d)), (page, d)).astype(ct.float32)
        s = ct.sum(k * q, axis=1) * scale
        pos = j * page + ct.arange(page, dtype=ct.int32)
        s = ct.where(pos < n, s, -1.0e30)
        m_new = ct.maximum(m, ct.max(s, axis=0, keepdims=True))
        e = ct.exp(s - m_new)
        alpha = ct.exp(m - m_new)
        l = l * alpha + ct.sum(e, axis=0, keepdims=True)
        acc = acc * alpha[:, None] + ct.sum(e[:, None] * v, axis=0, keepdims=True)
        m = m_new
    ct.store(O, index=(seq, 0), tile=(acc / l[:, None]).astype(O.dtype))


KERNEL = attention_paged_decode


def kernel_signature():
    bf16, i32 = ct.bfloat16, ct.int32
    return signature("attention_paged_decode", [array(bf16, 2), array(bf16, 3), array(bf16, 3), array(i32, 2),
                                                array(i32, 1), array(bf16, 2), ScalarConstraint(ct.float32),
                                                PAGE, D])

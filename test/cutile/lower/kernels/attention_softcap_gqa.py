"""Soft-capped grouped-query attention as Gemma 2 writes it, plainly
(session 51's fresh kernel for issue turns, docs/cuda.md, "Issue turns"):

  O[h] = softmax(cap tanh(scale Q[h] K[g]^T / cap)) V[g],  g = h // group

  Q: H x S x 128 bf16, K and V: H / group x T x 128 bf16 (T a multiple of
  128), O: H x S x 128 bf16; natural-base softmax, 128-row Q tiles and
  128-key blocks, grid (cdiv(S, 128), H)."""
import _path  # noqa: F401
import cuda.tile as ct
from constraints import array, signature

TM, TN, D, GROUP = 128, 128, 128, 4


@ct.kernel
def softcap_gqa(Q, K, V, O, scale: float, cap: float, group: ct.Constant[int],
                tm: ct.Constant[int], tn: ct.Constant[int], d: ct.Constant[int]):
    block = ct.bid(0)
    head = ct.bid(1)
    kv = head // group
    q = ct.reshape(ct.load(Q, index=(head, block, 0), shape=(1, tm, d),
                           padding_mode=ct.PaddingMode.ZERO), (tm, d))
    m = ct.full((tm, 1), -float("inf"), dtype=ct.float32)
    l = ct.full((tm, 1), 0, dtype=ct.float32)
    o = ct.full((tm, d), 0, dtype=ct.float32)
    for j in range(ct.num_tiles(K, axis=1, shape=(1, tn, d))):
        kt = ct.reshape(ct.load(K, index=(kv, 0, j), shape=(1, d, tn), order=(0, 2, 1)), (d, tn))
        s = ct.mma(q, kt, ct.full((tm, tn), 0, dtype=ct.float32))
        s = ct.tanh(s * (scale / cap)) * cap
        m_new = ct.maximum(m, ct.max(s, axis=1, keepdims=True))
        p = ct.exp(s - m_new)
        alpha = ct.exp(m - m_new)
        l = l * alpha + ct.sum(p, axis=1, keepdims=True)
        v = ct.reshape(ct.load(V, index=(kv, j, 0), shape=(1, tn, d)), (tn, d))
        o = ct.mma(p.astype(ct.bfloat16), v, o * alpha)
        m = m_new
    ct.store(O, index=(head, block, 0), tile=ct.reshape((o / l).astype(O.dtype), (1, tm, d)))


KERNEL = softcap_gqa


def kernel_signature():
    bf16 = ct.bfloat16
    keys = array(bf16, 3, shape_divisible_by=(1, TN, 1))
    f32 = ct.compilation.ScalarConstraint(ct.float32)
    return signature("softcap_gqa", [array(bf16, 3), keys, keys, array(bf16, 3), f32, f32,
                                     GROUP, TM, TN, D])

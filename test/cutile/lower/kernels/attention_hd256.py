"""Attention at head dim 256 (Gemma's), 64 x 64 tiles: the query block
shrunk so the accumulator fits, as FlashAttention's head-dim-256
configurations do. Keys past T are masked from ct.arange, so T is any
length. At the stages the scheduler places by default, K is read two stages
after its load and V four, and their rings need more SMEM than a CTA has;
`tilepipe compile` schedules the loop again for the fewest buffered bytes.

  Q, O: BH x S x 256 bf16, K, V: BH x T x 256 bf16
  O[b] = softmax(scale Q[b] K[b]^T) V[b]; grid (cdiv(S, 64), BH, 1)."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN, D = 64, 64, 256
LOG2E = 1.4426950408889634


@ct.kernel
def attention_hd256(Q, K, V, O, scale: float, tm: ct.Constant[int], tn: ct.Constant[int],
                    d: ct.Constant[int]):
    block, head = ct.bid(0), ct.bid(1)
    keys = K.shape[1]
    q = ct.load(Q, index=(head, block, 0), shape=(1, tm, d),
                padding_mode=ct.PaddingMode.ZERO).reshape((tm, d))
    top = ct.full((tm, 1), -float("inf"), dtype=ct.float32)
    total = ct.zeros((tm, 1), dtype=ct.float32)
    acc = ct.zeros((tm, d), dtype=ct.float32)
    key_offs = ct.arange(tn, dtype=ct.int32)[None, :]
    for j in range(ct.cdiv(keys, tn)):
        k = ct.load(K, index=(head, j, 0), shape=(1, tn, d),
                    padding_mode=ct.PaddingMode.ZERO).reshape((tn, d))
        s = ct.mma(q, ct.transpose(k), ct.zeros((tm, tn), dtype=ct.float32)) * (scale * LOG2E)
        s = ct.where(j * tn + key_offs < keys, s, -float("inf"))
        new_top = ct.maximum(top, ct.max(s, axis=1, keepdims=True))
        p = ct.exp2(s - new_top)
        shrink = ct.exp2(top - new_top)
        total = total * shrink + ct.sum(p, axis=1, keepdims=True)
        v = ct.load(V, index=(head, j, 0), shape=(1, tn, d),
                    padding_mode=ct.PaddingMode.ZERO).reshape((tn, d))
        acc = ct.mma(p.astype(ct.bfloat16), v, acc * shrink)
        top = new_top
    ct.store(O, index=(head, block, 0), tile=(acc / total).astype(O.dtype).reshape((1, tm, d)))


KERNEL = attention_hd256


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("attention_hd256", [array(bf16, 3)] * 4 + [ScalarConstraint(ct.float32), TM, TN, D])

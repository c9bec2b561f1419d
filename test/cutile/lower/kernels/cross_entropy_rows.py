"""Softmax cross-entropy loss per row over a vocabulary longer than a tile:
an online max / sum over 256-column chunks, the target's logit picked out
by comparing column positions with the row's target index; rows whose
target is negative (ignore_index) get loss 0. Tiles of 32 rows: each row is
split over 4 lanes, and the targets, a per-row vector read from memory (a
gather), are compared with column positions in the loop and select the loss
after it.

  Logits: M x V bf16, Target: M i32, Loss: M f32"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TV = 32, 256


@ct.kernel
def cross_entropy_rows(Logits, Target, Loss, tm: ct.Constant[int], tv: ct.Constant[int]):
    block = ct.bid(0)
    target = ct.load(Target, index=(block,), shape=(tm,))
    m = ct.full((tm,), float("-inf"), dtype=ct.float32)
    s = ct.zeros((tm,), dtype=ct.float32)
    picked = ct.zeros((tm,), dtype=ct.float32)
    for j in range(ct.cdiv(Logits.shape[1], tv)):
        x = ct.load(Logits, index=(block, j), shape=(tm, tv),
                    padding_mode=ct.PaddingMode.NEG_INF).astype(ct.float32)
        cols = j * tv + ct.arange(tv, dtype=ct.int32)
        hit = cols[None, :] == target[:, None]
        picked = picked + ct.sum(ct.where(hit, x, 0.0), axis=1)
        m_new = ct.maximum(m, ct.max(x, axis=1))
        s = s * ct.exp(m - m_new) + ct.sum(ct.exp(x - m_new[:, None]), axis=1)
        m = m_new
    loss = ct.log(s) + m - picked
    ct.store(Loss, index=(block,), tile=ct.where(target >= 0, loss, 0.0))


KERNEL = cross_entropy_rows


def kernel_signature():
    return signature("cross_entropy_rows", [array(ct.bfloat16, 2), array(ct.int32, 1), array(ct.float32, 1), TM, TV])

"""MLA-style prefill attention (DeepSeek's split query and key heads): the
scores are q_nope k_nope^T + q_pe k_pe^T, two MMAs summed in one iteration,
the 64-wide rope key shared by all heads; values 128 wide, 64-row blocks.
On sm_100a the second product is made in its own TMEM tile and the threads
add the two (tcgen05 would sum into the first's slot, which the loop hands
on as one value); on sm_90a the second wgmma accumulates in registers.

  Qn: H x S x 128 bf16, Qr: H x S x 64 bf16, Kn: H x S x 128 bf16,
  Kr: S x 64 bf16, V, O: H x S x 128 bf16"""
import _path  # noqa: F401
import math

import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN, DN, DR = 64, 64, 128, 64


@ct.kernel
def attention_mla(Qn, Qr, Kn, Kr, V, O, scale: float, tm: ct.Constant[int], tn: ct.Constant[int],
                  dn: ct.Constant[int], dr: ct.Constant[int]):
    i = ct.bid(0)
    h = ct.bid(1)
    S = Kn.shape[1]
    qn = ct.reshape(ct.load(Qn, index=(h, i, 0), shape=(1, tm, dn), padding_mode=ct.PaddingMode.ZERO), (tm, dn))
    qr = ct.reshape(ct.load(Qr, index=(h, i, 0), shape=(1, tm, dr), padding_mode=ct.PaddingMode.ZERO), (tm, dr))
    m = ct.full((tm, 1), -math.inf, dtype=ct.float32)
    l = ct.zeros((tm, 1), dtype=ct.float32)
    acc = ct.zeros((tm, dn), dtype=ct.float32)
    cols = ct.arange(tn, dtype=ct.int32)[None, :]
    for j in range(ct.cdiv(S, tn)):
        kn = ct.reshape(ct.load(Kn, index=(h, j, 0), shape=(1, tn, dn), padding_mode=ct.PaddingMode.ZERO), (tn, dn))
        kr = ct.load(Kr, index=(j, 0), shape=(tn, dr), padding_mode=ct.PaddingMode.ZERO)
        s = ct.mma(qn, ct.transpose(kn), ct.zeros((tm, tn), dtype=ct.float32))
        s = ct.mma(qr, ct.transpose(kr), s) * scale
        s = ct.where(j * tn + cols < S, s, -math.inf)
        mn = ct.maximum(m, ct.max(s, axis=1, keepdims=True))
        p = ct.exp(s - mn)
        a = ct.exp(m - mn)
        l = l * a + ct.sum(p, axis=1, keepdims=True)
        v = ct.reshape(ct.load(V, index=(h, j, 0), shape=(1, tn, dn), padding_mode=ct.PaddingMode.ZERO), (tn, dn))
        acc = ct.mma(p.astype(ct.bfloat16), v, acc * a)
        m = mn
    ct.store(O, index=(h, i, 0), tile=ct.reshape((acc / l).astype(O.dtype), (1, tm, dn)))


KERNEL = attention_mla


def kernel_signature():
    bf16, f32 = ct.bfloat16, ct.float32
    return signature("attention_mla", [array(bf16, 3), array(bf16, 3), array(bf16, 3), array(bf16, 2),
                                       array(bf16, 3), array(bf16, 3), ScalarConstraint(f32), TM, TN, DN, DR])

"""Flash-decoding's second step: the partial outputs of NS key splits merged
by their log2-sum-exps, gathered as a vector of 16 (-inf past NS), reduced
whole (ct.max, ct.sum over 16 values each held by 8 threads) and spread over
the partials' rows.

  Op: B x H x NS x 64 f32, Lse: B x H x NS f32, O: B x H x 64 bf16"""
import _path  # noqa: F401
import math

import cuda.tile as ct

from constraints import array, signature

NS, D = 16, 64


@ct.kernel
def splitk_merge(Op, Lse, O, ns: ct.Constant[int], d: ct.Constant[int]):
    b = ct.bid(0)
    h = ct.bid(1)
    lse = ct.gather(Lse, (b, h, ct.arange(ns, dtype=ct.int32)), padding_value=-math.inf)
    top = ct.max(lse)
    w = ct.exp2(lse - top)
    tot = ct.sum(w)
    o = ct.reshape(ct.load(Op, index=(b, h, 0, 0), shape=(1, 1, ns, d), padding_mode=ct.PaddingMode.ZERO), (ns, d))
    num = ct.sum(o * ct.reshape(w, (ns, 1)), axis=0)
    ct.store(O, index=(b, h, 0), tile=ct.reshape((num / tot).astype(O.dtype), (1, 1, d)))


KERNEL = splitk_merge


def kernel_signature():
    bf16, f32 = ct.bfloat16, ct.float32
    return signature("splitk_merge", [array(f32, 4), array(f32, 3), array(bf16, 3), NS, D])

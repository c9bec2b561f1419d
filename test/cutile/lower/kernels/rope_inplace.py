"""RoPE in place, as Hugging Face's Llama applies it (the rotate-half form):
one token a block rotates all its query and key heads, the halves of the
head dimension loaded as tile columns 0 and 1 of (1, H, 1, R) boxes, a unit
dimension between the heads and the head dimension (the box lands as an
H x R tile); cos and sin rows shared by the batch.

  Q: B x 16 x S x 128 bf16, K: B x 4 x S x 128 bf16 (both read and
  written), C, Sn: S x 64 f32"""
import _path  # noqa: F401

import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

HQ, HK, R = 16, 4, 64


@ct.kernel
def rope_inplace(Q, K, C, Sn, S: int, hq: ct.Constant[int], hk: ct.Constant[int], r: ct.Constant[int]):
    t = ct.bid(0)
    b = t // S
    s = t % S
    cs = ct.load(C, index=(s, 0), shape=(1, r)).astype(ct.float32)
    sn = ct.load(Sn, index=(s, 0), shape=(1, r)).astype(ct.float32)
    x1 = ct.reshape(ct.load(Q, index=(b, 0, s, 0), shape=(1, hq, 1, r)), (hq, r)).astype(ct.float32)
    x2 = ct.reshape(ct.load(Q, index=(b, 0, s, 1), shape=(1, hq, 1, r)), (hq, r)).astype(ct.float32)
    ct.store(Q, index=(b, 0, s, 0), tile=ct.reshape((x1 * cs - x2 * sn).astype(Q.dtype), (1, hq, 1, r)))
    ct.store(Q, index=(b, 0, s, 1), tile=ct.reshape((x2 * cs + x1 * sn).astype(Q.dtype), (1, hq, 1, r)))
    y1 = ct.reshape(ct.load(K, index=(b, 0, s, 0), shape=(1, hk, 1, r)), (hk, r)).astype(ct.float32)
    y2 = ct.reshape(ct.load(K, index=(b, 0, s, 1), shape=(1, hk, 1, r)), (hk, r)).astype(ct.float32)
    ct.store(K, index=(b, 0, s, 0), tile=ct.reshape((y1 * cs - y2 * sn).astype(K.dtype), (1, hk, 1, r)))
    ct.store(K, index=(b, 0, s, 1), tile=ct.reshape((y2 * cs + y1 * sn).astype(K.dtype), (1, hk, 1, r)))


KERNEL = rope_inplace


def kernel_signature():
    bf16, f32, i32 = ct.bfloat16, ct.float32, ct.int32
    return signature("rope_inplace", [array(bf16, 4), array(bf16, 4), array(f32, 2), array(f32, 2),
                                      ScalarConstraint(i32), HQ, HK, R])

"""A split-K GEMM at 64-row tiles: each block multiplies its share of the K
tiles and adds its 64 x 128 product into C by atomics. A 64-row tile's row
is held by two threads on sm_100a (threads t and t + 16 of a warp), so the
first adds it; in the wgmma fragment's rows (sm_90a) each element has one
holder.

  A: M x K bf16, B: K x N bf16, C: M x N f32 (read and written),
  per: K tiles a block"""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN, TK = 64, 128, 64


@ct.kernel
def split_k_gemm64(A, B, C, per: int, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    z = ct.bid(2)
    acc = ct.zeros((tm, tn), dtype=ct.float32)
    for k in range(per):
        a = ct.load(A, index=(bm, z * per + k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(z * per + k, bn), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    rows = bm * tm + ct.arange(tm, dtype=ct.int32)
    cols = bn * tn + ct.arange(tn, dtype=ct.int32)
    ct.atomic_add(C, (rows[:, None], cols[None, :]), acc)


KERNEL = split_k_gemm64


def kernel_signature():
    bf16, f32, i32 = ct.bfloat16, ct.float32, ct.int32
    return signature("split_k_gemm64", [array(bf16, 2), array(bf16, 2), array(f32, 2), ScalarConstraint(i32), TM, TN, TK])

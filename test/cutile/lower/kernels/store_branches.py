"""Stores under an `if` on the block index: block 0 also writes its tile
plus one to a second array, even blocks write twice their tile and odd
blocks three times, and block 1 adds its tile's sum to a total (one
element, atomically). A branch that stores is kept from writing when not
taken: TMA stores with their box moved out of the tensor, element stores
and atomics under the condition.

  X: M x 64 f32, Y: M x 64 f32, First: 128 x 64 f32, Total: 1 f32"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN = 128, 64


@ct.kernel
def store_branches(X, Y, First, Total, tm: ct.Constant[int], tn: ct.Constant[int]):
    block = ct.bid(0)
    x = ct.load(X, index=(block, 0), shape=(tm, tn), padding_mode=ct.PaddingMode.ZERO)
    if block == 0:
        ct.store(First, index=(0, 0), tile=x + 1.0)
    if block % 2 == 0:
        ct.store(Y, index=(block, 0), tile=x * 2.0)
    else:
        ct.store(Y, index=(block, 0), tile=x * 3.0)
    if block == 1:
        ct.atomic_add(Total, 0, ct.sum(ct.sum(x, axis=1), axis=0))


KERNEL = store_branches


def kernel_signature():
    f32 = ct.float32
    return signature("store_branches", [array(f32, 2), array(f32, 2), array(f32, 2), array(f32, 1), TM, TN])

"""A dot product over the whole grid: each block sums its products to one
value and adds it to the single output element with ct.atomic_add (one
thread of the block adds; cuTile's reduction-by-atomics pattern), and the
squared norm of X the same way into the second element.

  X, Y: N f32, Out: 2 f32 (zeroed by the caller)"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

T = 1024


@ct.kernel
def dot_product(X, Y, Out, t: ct.Constant[int]):
    block = ct.bid(0)
    x = ct.load(X, index=(block,), shape=(t,), padding_mode=ct.PaddingMode.ZERO)
    y = ct.load(Y, index=(block,), shape=(t,), padding_mode=ct.PaddingMode.ZERO)
    ct.atomic_add(Out, 0, ct.sum(x * y))
    ct.atomic_add(Out, 1, ct.sum(x * x))


KERNEL = dot_product


def kernel_signature():
    f32 = ct.float32
    return signature("dot_product", [array(f32, 1), array(f32, 1), array(f32, 1), T])

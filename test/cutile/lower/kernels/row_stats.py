"""Per-row statistics stored one element a row: the maximum and the sum of
squares of each (1, 1024) row of X, a row a block, no loop (Triton's and
cuTile's row kernels store a row's scalars this way).

  X: M x N f32 (columns past N read as zero); Mx, Ss: M f32

Each result is a tile of one element, stored by one thread through the
array's pointer. Grid (M, 1, 1)."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TN = 1024


@ct.kernel
def row_stats(X, Mx, Ss, tn: ct.Constant[int]):
    r = ct.bid(0)
    x = ct.load(X, index=(r, 0), shape=(1, tn), padding_mode=ct.PaddingMode.ZERO)
    ct.store(Mx, index=(r,), tile=ct.max(x, axis=1))
    ct.store(Ss, index=(r,), tile=ct.sum(x * x, axis=1))


KERNEL = row_stats


def kernel_signature():
    f32 = ct.float32
    return signature("row_stats", [array(f32, 2), array(f32, 1), array(f32, 1), TN])

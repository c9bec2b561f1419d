"""cuTile's transpose sample at its 16-bit tile size: Y = X^T, X M x N f16,
one 128 x 128 tile a block, grid (cdiv(M, 128), cdiv(N, 128), 1).

The transposed tile is the loaded one read the other way: the threads read
the SMEM tile TMA filled column by column (smem_load transposed, docs/
cuda-tile-lowering.md, "Transposed tiles"), and store it at the swapped
tile index; TMA clips the ragged edges."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN = 128, 128


@ct.kernel
def transpose(x, y, tm: ct.Constant[int], tn: ct.Constant[int]):
    bidx = ct.bid(0)
    bidy = ct.bid(1)
    tile = ct.load(x, index=(bidx, bidy), shape=(tm, tn))
    ct.store(y, index=(bidy, bidx), tile=ct.transpose(tile))


KERNEL = transpose


def kernel_signature():
    f16 = ct.float16
    return signature("transpose", [array(f16, 2), array(f16, 2), TM, TN])

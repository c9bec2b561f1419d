"""Y = (2 X + 1)^T: `ct.transpose` of a tile in registers (after math),
128 x 64 tiles; grid (cdiv(M, 128), cdiv(N, 64), 1).

  X: M x N f32, Y: N x M f32

The threads write 2 X + 1 to SMEM as it is and read it back transposed;
the 64 x 128 result has its rows split over 2 lanes each."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN = 128, 64


@ct.kernel
def transpose_scaled(x, y, tm: ct.Constant[int], tn: ct.Constant[int]):
    t = ct.load(x, index=(ct.bid(0), ct.bid(1)), shape=(tm, tn))
    ct.store(y, index=(ct.bid(1), ct.bid(0)), tile=ct.transpose(t * 2.0 + 1.0))


KERNEL = transpose_scaled


def kernel_signature():
    f32 = ct.float32
    return signature("transpose_scaled", [array(f32, 2), array(f32, 2), TM, TN])

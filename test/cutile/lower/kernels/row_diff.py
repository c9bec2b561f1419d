"""A forward difference along rows: y[r, c] = x[r, c + 1] - x[r, c], zero
past a row's end, over 8 x 128 tiles; grid (cdiv(M, 8), cdiv(N, 128), 1).

  x, y: M x N f32

`cols + 1` starts off the 16-byte grid, so the threads read that tile
element by element (tileas.global_gather); the tile has 8 rows, which are
split over 16 lanes each (SplitRows), its row and column indices with
them. A read past a row's end that skipped the bound would take the next
row's first element."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN = 8, 128


@ct.kernel
def row_diff(x, y, tm: ct.Constant[int], tn: ct.Constant[int]):
    rows = ct.bid(0) * tm + ct.arange(tm, dtype=ct.int32)
    cols = ct.bid(1) * tn + ct.arange(tn, dtype=ct.int32)
    nxt = ct.gather(x, (rows[:, None], cols[None, :] + 1))
    cur = ct.gather(x, (rows[:, None], cols[None, :]))
    ct.scatter(y, (rows[:, None], cols[None, :]), nxt - cur)


KERNEL = row_diff


def kernel_signature():
    f32 = ct.float32
    return signature("row_diff", [array(f32, 2), array(f32, 2), TM, TN])

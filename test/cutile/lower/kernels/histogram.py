"""A histogram: hist[v] += 1 for each value v of x, 1024 values a block,
counted with `ct.atomic_add` (i32). Values outside [0, bins) are not
counted (the atomic's bounds check), and the last block's elements past
x's end read -1, so they count nowhere.

  x: L i32, hist: bins i32 (its initial counts kept)"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TILE = 1024


@ct.kernel
def histogram(x, hist, tile: ct.Constant[int]):
    offs = ct.bid(0) * tile + ct.arange(tile, dtype=ct.int32)
    values = ct.gather(x, offs, padding_value=-1)
    ct.atomic_add(hist, values, 1)


KERNEL = histogram


def kernel_signature():
    return signature("histogram", [array(ct.int32, 1), array(ct.int32, 1), TILE])

"""An embedding lookup, out[i, :] = table[ids[i], :]: 128 ids a block, rows
of 64. The row index is loaded from memory, not computed from positions:
the threads read the ids (an i32 view's load) where the table's gather
reads them as its row index (gather-indices.test)."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, D = 128, 64


@ct.kernel
def embedding(ids, table, out, tm: ct.Constant[int], d: ct.Constant[int]):
    i = ct.load(ids, index=(ct.bid(0),), shape=(tm,))
    cols = ct.arange(d, dtype=ct.int32)
    ct.store(out, index=(ct.bid(0), 0), tile=ct.gather(table, (i[:, None], cols[None, :])))


KERNEL = embedding


def kernel_signature():
    return signature("embedding", [array(ct.int32, 1), array(ct.float32, 2), array(ct.float32, 2), TM, D])

"""Squared column norms of 128 x 128 tiles, S[j] = sum_i X[i, j]^2: a sum
down the columns of X * X, a register tile whose columns lie across the
threads (a row each). Refused until session 37; now the threads write X * X
to SMEM and read it back transposed (smem_load transposed, after a barrier),
and reduce its rows. column_sums.py reduces a loaded tile the same way."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN = 128, 128


@ct.kernel
def column_norms(X, S, tm: ct.Constant[int], tn: ct.Constant[int]):
    col = ct.bid(0)
    x = ct.load(X, index=(0, col), shape=(tm, tn), padding_mode=ct.PaddingMode.ZERO)
    ct.store(S, index=(col,), tile=ct.sum(x * x, axis=0))


KERNEL = column_norms


def kernel_signature():
    return signature("column_norms", [array(ct.float32, 2), array(ct.float32, 1), TM, TN])

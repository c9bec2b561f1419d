"""Each row's maximum per chunk of 256 columns, stored from inside the loop
as a (1, 1) tile of a 2-D M x C array, and the row's sum stored as bf16.

  X: M x N f32 (columns past N read as zero); CM: M x cdiv(N, 256) f32;
  RS: M bf16

A (1, 256) f32 piece is 1 KB: the loop's II is short beside its TMA
latency, and the first schedule reads a piece 33 stages after its load,
more than a pipe's 32 slots hold; the scheduler searches again from a
larger II (docs/generators.md, "Ring depth"). Each maximum is an element a
thread stores through the array's pointer, at the row stride the array
has (docs/cuda-tile-lowering.md, "A tile of one element"). Grid (M, 1, 1)."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TN = 256


@ct.kernel
def chunk_maxima(X, CM, RS, tn: ct.Constant[int]):
    r = ct.bid(0)
    total = ct.full((1, tn), 0.0, dtype=ct.float32)
    for j in range(ct.num_tiles(X, axis=1, shape=(1, tn))):
        x = ct.load(X, index=(r, j), shape=(1, tn), padding_mode=ct.PaddingMode.ZERO)
        ct.store(CM, index=(r, j), tile=ct.max(x, axis=1, keepdims=True))
        total += x
    ct.store(RS, index=(r,), tile=ct.sum(total, axis=1).astype(RS.dtype))


KERNEL = chunk_maxima


def kernel_signature():
    return signature("chunk_maxima", [array(ct.float32, 2), array(ct.float32, 2), array(ct.bfloat16, 1), TN])

"""A linear layer for a few tokens: Y = X W^T + b with 8-row tiles (the
batch of a decode step), W as nn.Linear stores it (N x K, its tile
transposed by ct.transpose), bf16 in and out, f32 accumulation.

  X: M x K bf16, W: N x K bf16, Bias: N bf16, Y: M x N bf16

Grid (cdiv(M, 8), cdiv(N, 64), 1); the K loop in steps of 64. On sm_90a
the 8-row wgmma is issued as 64 rows (docs/cuda.md, "Tiles of fewer than
64 rows")."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 8, 64, 64


@ct.kernel
def linear_few_rows(X, W, Bias, Y, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.full((tm, tn), 0.0, dtype=ct.float32)
    for k in range(ct.num_tiles(X, axis=1, shape=(tm, tk))):
        x = ct.load(X, index=(bm, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        w = ct.load(W, index=(bn, k), shape=(tn, tk), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(x, ct.transpose(w), acc)
    b = ct.load(Bias, index=(bn,), shape=(tn,), padding_mode=ct.PaddingMode.ZERO)
    ct.store(Y, index=(bm, bn), tile=(acc + b[None, :].astype(ct.float32)).astype(ct.bfloat16))


KERNEL = linear_few_rows


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("linear_few_rows", [array(bf16, 2), array(bf16, 2), array(bf16, 1), array(bf16, 2), TM, TN, TK])

"""A mixture-of-experts GEMM in the form of cuTile's MoE sample: the rows
of a block are tokens routed to one expert, listed in `order` (padded with
an index past the tokens); each block multiplies its tokens' rows of X by
its expert's weight and scales each row by its routing weight.

  X: T x K bf16 (tokens), W: E x N x K bf16 (experts' weights, K inner),
  order: P i32 (P a multiple of 128; entries >= rows(Y) are padding),
  expert: P / 128 i32 (the expert of each block of 128 entries),
  weight: R f32 (per routed row), Y: R x N bf16;
  Y[order[i], :] = weight[order[i]] * X[order[i] // replicas, :] W[e]^T

The indices are read from memory: the rows of X by the threads, the
expert as the B box's coordinate."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN, TK = 128, 128, 64


@ct.kernel
def moe_gemm(X, W, Y, weight, order, expert, replicas: int, tm: ct.Constant[int],
             tn: ct.Constant[int], tk: ct.Constant[int]):
    blk_m = ct.bid(0)
    blk_n = ct.bid(1)
    slots = blk_m * tm + ct.arange(tm, dtype=ct.int32)
    routed = ct.gather(order, slots)
    tokens = routed // replicas
    e = ct.load(expert, index=blk_m, shape=())
    acc = ct.full((tm, tn), 0.0, dtype=ct.float32)
    for k in range(ct.cdiv(W.shape[2], tk)):
        ks = k * tk + ct.arange(tk, dtype=ct.int32)
        x = ct.gather(X, (tokens[:, None], ks[None, :]))
        w = ct.load(W, (e, k, blk_n), shape=(1, tk, tn), order=(0, 2, 1),
                    padding_mode=ct.PaddingMode.ZERO).reshape((tk, tn))
        acc = ct.mma(x, w, acc)
    acc = acc * ct.gather(weight, routed)[:, None]
    cols = blk_n * tn + ct.arange(tn, dtype=ct.int32)
    ct.scatter(Y, (routed[:, None], cols[None, :]), ct.astype(acc, Y.dtype))


KERNEL = moe_gemm


def kernel_signature():
    bf16, i32 = ct.bfloat16, ct.int32
    return signature("moe_gemm", [array(bf16, 2), array(bf16, 3), array(bf16, 2),
                                  array(ct.float32, 1), array(i32, 1), array(i32, 1),
                                  ScalarConstraint(i32), TM, TN, TK])

"""GEMM with an epilogue: D = leaky_relu(A B + bias), bf16 out.

  A:    M x K bf16, row-major
  B:    K x N bf16, row-major (N contiguous)
  bias: N f32, one value per output column
  D:    M x N bf16,
        y[m, n] = sum_k A[m, k] B[k, n] + bias[n]   (f32)
        D[m, n] = bf16(max(y[m, n], ALPHA y[m, n]))  (leaky ReLU, ALPHA = 1/8)

Grid (cdiv(M, TM) cdiv(N, TN), 1, 1), one block per tile of D, in grouped
order for L2 reuse: the tiles are taken GROUP tile rows at a time, down a
group's column before the next column, so block b computes the tile at

  per_group = GROUP tiles_n,  first = (b / per_group) GROUP,
  rows = min(tiles_m - first, GROUP),
  tile row = first + (b mod per_group) mod rows,
  tile column = (b mod per_group) / rows

(integer division; tiles_m = cdiv(M, TM), tiles_n = cdiv(N, TN)). The K
loop runs cdiv(K, TK) times. Loads past an edge read zeros (A, B and the
bias), stores past an edge are dropped. ALPHA = 0.125 is exact in every float format, so the activation
adds no rounding of its own."""
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 128, 64
GROUP = 8
ALPHA = 0.125


@ct.kernel
def matmul_bias_act(A, B, bias, D, tm: ct.Constant[int], tn: ct.Constant[int],
                    tk: ct.Constant[int], group: ct.Constant[int], alpha: ct.Constant[float]):
    block = ct.bid(0)
    tiles_m = ct.num_tiles(D, axis=0, shape=(tm, tn))
    tiles_n = ct.num_tiles(D, axis=1, shape=(tm, tn))
    per_group = group * tiles_n
    first = (block // per_group) * group
    rows = ct.minimum(tiles_m - first, group)
    row = first + (block % per_group) % rows
    col = (block % per_group) // rows
    steps = ct.num_tiles(A, axis=1, shape=(tm, tk))
    acc = ct.full((tm, tn), 0, dtype=ct.float32)
    for k in range(steps):
        a = ct.load(A, index=(row, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, col), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    shift = ct.load(bias, index=(col,), shape=(tn,), padding_mode=ct.PaddingMode.ZERO)
    y = acc + ct.reshape(shift, (1, tn))
    y = ct.maximum(y, y * alpha)
    ct.store(D, index=(row, col), tile=y.astype(D.dtype))


KERNEL = matmul_bias_act


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("matmul_bias_act", [array(bf16, 2), array(bf16, 2), array(ct.float32, 1),
                                         array(bf16, 2), TM, TN, TK, GROUP, ALPHA])


def reference(a, b, bias):
    """D in float64 (before the bf16 rounding of the store)."""
    import numpy as np
    y = np.asarray(a, np.float64) @ np.asarray(b, np.float64) + np.asarray(bias, np.float64)[None, :]
    return np.maximum(y, ALPHA * y)

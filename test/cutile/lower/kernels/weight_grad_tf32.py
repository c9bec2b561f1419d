"""A linear layer's weight gradient in f32 on tf32 tensor cores:
dW = X^T dY, summed over the tokens.

  X: T x K f32 (the layer's input, K contiguous), dY: T x N f32 (the
     output's gradient, N contiguous), both converted with
     astype(ct.tfloat32); X's tile transposed with ct.transpose
  dW: K x N f32

Both operands reach the MMA MN-major (A as T x K, B as T x N, T the
reduction): on sm_90a the consumer transposes each slot into a K-major
staging tile (docs/cuda.md, "Operands given MN-major"). Grid
(cdiv(K, TM), cdiv(N, TN), 1); the token step is 32."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TT = 128, 128, 32


@ct.kernel
def weight_grad_tf32(X, dY, dW, tm: ct.Constant[int], tn: ct.Constant[int], tt: ct.Constant[int]):
    row = ct.bid(0)
    col = ct.bid(1)
    acc = ct.full((tm, tn), 0, dtype=ct.float32)
    for t in range(ct.num_tiles(X, axis=0, shape=(tt, tm))):
        x = ct.load(X, index=(t, row), shape=(tt, tm), padding_mode=ct.PaddingMode.ZERO)
        dy = ct.load(dY, index=(t, col), shape=(tt, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(ct.transpose(x).astype(ct.tfloat32), dy.astype(ct.tfloat32), acc)
    ct.store(dW, index=(row, col), tile=acc)


KERNEL = weight_grad_tf32


def kernel_signature():
    f32 = ct.float32
    return signature("weight_grad_tf32", [array(f32, 2), array(f32, 2), array(f32, 2), TM, TN, TT])

"""A linear layer as PyTorch stores it, with a GELU: Y = gelu(X W^T + b).

  X: M x K bf16 (K contiguous)
  W: N x K bf16 (nn.Linear's weight: K contiguous), read as W^T with
     ct.transpose after its load
  b: N bf16
  Y: M x N bf16, Y = gelu(h), h = X W^T + b accumulated in f32, GELU's tanh
     form 0.5 h (1 + tanh(sqrt(2 / pi) (h + 0.044715 h^3)))

The transposed tile is W's tile as loaded, N x K: the tensor core reads it
K-major, as it reads attention's K^T. Grid (cdiv(M, TM), cdiv(N, TN), 1);
edges read zeros and stores past them are dropped."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 128, 64
SQRT_2_OVER_PI = 0.7978845608028654


@ct.kernel
def linear_gelu(X, W, Bias, Y, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    row = ct.bid(0)
    col = ct.bid(1)
    acc = ct.full((tm, tn), 0.0, dtype=ct.float32)
    for k in range(ct.num_tiles(X, axis=1, shape=(tm, tk))):
        x = ct.load(X, index=(row, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        w = ct.load(W, index=(col, k), shape=(tn, tk), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(x, ct.transpose(w), acc)
    bias = ct.load(Bias, index=(col,), shape=(tn,), padding_mode=ct.PaddingMode.ZERO)
    h = acc + ct.reshape(bias.astype(ct.float32), (1, tn))
    g = 0.5 * h * (1.0 + ct.tanh(SQRT_2_OVER_PI * (h + 0.044715 * h * h * h)))
    ct.store(Y, index=(row, col), tile=g.astype(Y.dtype))


KERNEL = linear_gelu


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("linear_gelu", [array(bf16, 2), array(bf16, 2), array(bf16, 1), array(bf16, 2),
                                     TM, TN, TK])

"""A back-to-back GEMM, two linear layers in one kernel: the first product
is summed over K in the loop, made non-negative (ReLU) and rounded to bf16
in registers, and multiplied by a second weight after the loop, which an
MMA after the loop does (on sm_100a from tensor memory: the code after the
loop runs as a loop of one trip of its own).

  X: M x K bf16, W0: K x 64 bf16, W1: 64 x 128 bf16, Y: M x 128 bf16;
  Y = bf16(relu(X W0)) W1"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, HIDDEN, OUT, TK = 128, 64, 128, 64


@ct.kernel
def gemm_b2b(X, W0, W1, Y, tm: ct.Constant[int], hidden: ct.Constant[int],
             out: ct.Constant[int], tk: ct.Constant[int]):
    row_block = ct.bid(0)
    h = ct.zeros((tm, hidden), dtype=ct.float32)
    for k in range(ct.cdiv(X.shape[1], tk)):
        x = ct.load(X, index=(row_block, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        w0 = ct.load(W0, index=(k, 0), shape=(tk, hidden), padding_mode=ct.PaddingMode.ZERO)
        h = ct.mma(x, w0, h)
    act = ct.maximum(h, 0.0).astype(ct.bfloat16)
    w1 = ct.load(W1, index=(0, 0), shape=(hidden, out), padding_mode=ct.PaddingMode.ZERO)
    y = ct.mma(act, w1, ct.zeros((tm, out), dtype=ct.float32))
    ct.store(Y, index=(row_block, 0), tile=y.astype(Y.dtype))


KERNEL = gemm_b2b


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("gemm_b2b", [array(bf16, 2), array(bf16, 2), array(bf16, 2), array(bf16, 2),
                                  TM, HIDDEN, OUT, TK])

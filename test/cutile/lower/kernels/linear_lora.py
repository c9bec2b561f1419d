"""A linear layer with a LoRA adapter, as PEFT merges none: the low-rank
product X A^T (rank 16) is summed in the same K loop as X W^T, then scaled,
rounded to bf16 and multiplied by B^T into the same accumulator after the
loop:

  Y = X W^T + bf16(s X A^T) B^T
  X: M x K, W: N x K, A: 16 x K, B: N x 16, Y: M x N, all bf16; s: f32

128 x 128 tiles, K step 64; grid (cdiv(M, 128), cdiv(N, 128), 1). The MMA
after the loop is a 16-deep one (K = 16) with its A from registers. On
sm_100a the lowering sums it into a fresh accumulator and the threads add
the two (the stage code hands a TMEM accumulator on to no later MMA); it
failed its protocol check before."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN, TK, R = 128, 128, 64, 16


@ct.kernel
def linear_lora(X, W, A, B, Y, s: float, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int],
                r: ct.Constant[int]):
    bm, bn = ct.bid(0), ct.bid(1)
    acc = ct.zeros((tm, tn), dtype=ct.float32)
    xa = ct.zeros((tm, r), dtype=ct.float32)
    for k in range(ct.cdiv(X.shape[1], tk)):
        x = ct.load(X, index=(bm, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        w = ct.load(W, index=(bn, k), shape=(tn, tk), padding_mode=ct.PaddingMode.ZERO)
        a = ct.load(A, index=(0, k), shape=(r, tk), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(x, ct.transpose(w), acc)
        xa = ct.mma(x, ct.transpose(a), xa)
    b = ct.load(B, index=(bn, 0), shape=(tn, r), padding_mode=ct.PaddingMode.ZERO)
    acc = ct.mma((xa * s).astype(ct.bfloat16), ct.transpose(b), acc)
    ct.store(Y, index=(bm, bn), tile=acc.astype(ct.bfloat16))


KERNEL = linear_lora


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("linear_lora", [array(bf16, 2)] * 5 + [ScalarConstraint(ct.float32), TM, TN, TK, R])

"""W8A8 linear: int8 activations and weights, int32 accumulation, dequantized by a per-row (token) and
per-column (channel) f32 scale, plus a bf16 bias, stored bf16. 128 x 128 x 128 tiles, W given N x K
(numeric-int8-mma.test)."""
import _path  # noqa: F401
import cuda.tile as ct
from constraints import array, signature

TM, TN, TK = 128, 128, 128


@ct.kernel
def linear_w8a8(X, W, SX, SW, Bias, Y, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    bm = ct.bid(0)
    bn = ct.bid(1)
    acc = ct.zeros((tm, tn), dtype=ct.int32)
    for k in range(ct.cdiv(X.shape[1], tk)):
        x = ct.load(X, index=(bm, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        w = ct.load(W, index=(bn, k), shape=(tn, tk), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(x, ct.transpose(w), acc)
    sx = ct.load(SX, index=(bm,), shape=(tm,), padding_mode=ct.PaddingMode.ZERO)
    sw = ct.load(SW, index=(bn,), shape=(tn,), padding_mode=ct.PaddingMode.ZERO)
    bias = ct.load(Bias, index=(bn,), shape=(tn,), padding_mode=ct.PaddingMode.ZERO)
    y = acc.astype(ct.float32) * sx[:, None] * sw[None, :] + bias.astype(ct.float32)[None, :]
    ct.store(Y, index=(bm, bn), tile=y.astype(ct.bfloat16))


KERNEL = linear_w8a8


def kernel_signature():
    i8, f32, bf16 = ct.int8, ct.float32, ct.bfloat16
    return signature("linear_w8a8", [array(i8, 2), array(i8, 2), array(f32, 1), array(f32, 1), array(bf16, 1),
                              array(bf16, 2), TM, TN, TK])

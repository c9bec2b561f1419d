"""FP8 attention forward as FlashAttention-3 runs it on Hopper: Q, K and V
in e4m3, P converted to e4m3 for P V, O in bf16 scaled by V's descale:

  Q: Lq x 128, K, V: Lk x 128 e4m3; qk_scale, v_scale: f32 scalars
  O: Lq x 128 bf16, O = v_scale softmax(qk_scale Q K^T) V, keys past Lk masked

128 x 128 tiles; grid (cdiv(Lq, 128), 1, 1). On sm_90a P V is a wgmma
with an 8-bit A from registers: it takes P's K (the keys) in another order
than the fragment's rows hold them, and V, given keys x d (MN-major, which
wgmma reads K-major only for 8-bit types), is staged K-major in that order
(docs/cuda.md, "An 8-bit A from the rows"). Refused before: "expects no
MN-major B here (e4m3/e5m2)"."""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature

TM, TN, D = 128, 128, 128


@ct.kernel
def attention_fp8(Q, K, V, O, qk_scale: float, v_scale: float, tm: ct.Constant[int], tn: ct.Constant[int],
                  d: ct.Constant[int]):
    qb = ct.bid(0)
    n = K.shape[0]
    q = ct.load(Q, index=(qb, 0), shape=(tm, d), padding_mode=ct.PaddingMode.ZERO)
    m = ct.full((tm, 1), -1.0e30, dtype=ct.float32)
    l = ct.zeros((tm, 1), dtype=ct.float32)
    o = ct.zeros((tm, d), dtype=ct.float32)
    for j in range(ct.cdiv(n, tn)):
        k = ct.load(K, index=(j, 0), shape=(tn, d), padding_mode=ct.PaddingMode.ZERO)
        s = ct.mma(q, ct.transpose(k), ct.zeros((tm, tn), dtype=ct.float32)) * qk_scale
        keys = j * tn + ct.arange(tn, dtype=ct.int32)
        s = ct.where(keys[None, :] < n, s, -1.0e30)
        mn = ct.maximum(m, ct.max(s, axis=1, keepdims=True))
        p = ct.exp(s - mn)
        alpha = ct.exp(m - mn)
        l = l * alpha + ct.sum(p, axis=1, keepdims=True)
        v = ct.load(V, index=(j, 0), shape=(tn, d), padding_mode=ct.PaddingMode.ZERO)
        o = ct.mma(p.astype(ct.float8_e4m3fn), v, o * alpha)
        m = mn
    ct.store(O, index=(qb, 0), tile=(o * v_scale / l).astype(ct.bfloat16))


KERNEL = attention_fp8


def kernel_signature():
    e4, bf16, f32 = ct.float8_e4m3fn, ct.bfloat16, ct.float32
    return signature("attention_fp8", [array(e4, 2), array(e4, 2), array(e4, 2), array(bf16, 2),
                                  ScalarConstraint(f32), ScalarConstraint(f32), TM, TN, D])

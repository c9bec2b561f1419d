"""decode_alibi.py's kernel for multi-query attention: the 64 query heads
of one KV head in one 64-row tile, so both targets take it (tcgen05 has no
16-row MMA). The key positions are a per-column vector, made in each column
piece of the scores on sm_100a and as the thread's columns of the
fragment's rows on sm_90a.

  Q: BKV x 64 x 128 bf16, K, V: BKV x S x 128 bf16, Slopes: 64 f32,
  O: BKV x 64 x 128 bf16, scale: f32 scalar parameter"""
import _path  # noqa: F401
import cuda.tile as ct
from cuda.tile.compilation import ScalarConstraint

from constraints import array, signature
from decode_alibi import TN, D, decode_alibi

G = 64

KERNEL = decode_alibi


def kernel_signature():
    bf16, f32 = ct.bfloat16, ct.float32
    return signature("decode_alibi_mqa", [array(bf16, 3), array(bf16, 3), array(bf16, 3), array(f32, 1),
                                          array(bf16, 3), ScalarConstraint(f32), G, TN, D])

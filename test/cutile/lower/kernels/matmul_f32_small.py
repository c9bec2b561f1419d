"""cuTile's matmul sample as it runs on float32 arrays: C = A B with the
sample's f32 tiles, 32 x 32 x 32, both operands converted with
astype(ct.tfloat32).

  A: M x K f32 (K contiguous), B: K x N f32 (N contiguous), C: M x N f32

Two things wgmma does not take as they are: B reaches it MN-major (staged
K-major by the consumer), and the tile has 32 rows where wgmma computes 64 a
warpgroup: the instruction is issued as 64 rows, the 32 after the A tile in
SMEM fill rows 32-63, and the epilogue keeps rows 0-31, staged through SMEM
a row a thread in the first warp (docs/cuda.md, "32-row tiles"). sm_90a
only. Grid (cdiv(M, 32), cdiv(N, 32), 1)."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 32, 32, 32


@ct.kernel
def matmul_f32_small(A, B, C, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    bidx = ct.bid(0)
    bidy = ct.bid(1)
    acc = ct.full((tm, tn), 0, dtype=ct.float32)
    dtype = ct.tfloat32 if A.dtype == ct.float32 else A.dtype
    for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):
        a = ct.load(A, index=(bidx, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO).astype(dtype)
        b = ct.load(B, index=(k, bidy), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO).astype(dtype)
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(bidx, bidy), tile=ct.astype(acc, C.dtype))


KERNEL = matmul_f32_small


def kernel_signature():
    f32 = ct.float32
    return signature("matmul_f32_small", [array(f32, 2), array(f32, 2), array(f32, 2), TM, TN, TK])

"""A GEMM written with positions, as Triton's tutorial addresses its tiles:
C = A B with 128 x 128 tiles, K step 64, the A and B tiles gathered at
(rows, k * 64 + arange) and (k * 64 + arange, cols) in the K loop, C
scattered; bf16 in, f32 accumulation, bf16 out.

  A: M x K, B: K x N, C: M x N (bf16)

Each gather is a box, so each is a TMA load an MMA reads from SMEM, as a
view's load would be."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 128, 64


@ct.kernel
def gather_gemm(A, B, C, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int]):
    rows = ct.bid(0) * tm + ct.arange(tm, dtype=ct.int32)
    cols = ct.bid(1) * tn + ct.arange(tn, dtype=ct.int32)
    acc = ct.zeros((tm, tn), dtype=ct.float32)
    for k in range(ct.cdiv(A.shape[1], tk)):
        ks = k * tk + ct.arange(tk, dtype=ct.int32)
        a = ct.gather(A, (rows[:, None], ks[None, :]))
        b = ct.gather(B, (ks[:, None], cols[None, :]))
        acc = ct.mma(a, b, acc)
    ct.scatter(C, (rows[:, None], cols[None, :]), ct.astype(acc, C.dtype))


KERNEL = gather_gemm


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("gather_gemm", [array(bf16, 2), array(bf16, 2), array(bf16, 2), TM, TN, TK])

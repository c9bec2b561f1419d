"""A GEMM whose B rows are gathered by indices read from memory: C = A
B[perm], 128 x 128 tiles, K step 64; each K step's 64 rows of B are
`perm[k * 64 + arange(64)]` (-1 past perm's end: no row, zeros), read by the
threads and written to SMEM for the MMA (a paged or permuted operand).

  A: M x K bf16, B: K x N bf16, perm: K i32, C: M x N bf16"""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK = 128, 128, 64


@ct.kernel
def gemm_gather_b(A, B, perm, C, tm: ct.Constant[int], tn: ct.Constant[int],
                  tk: ct.Constant[int]):
    cols = ct.bid(1) * tn + ct.arange(tn, dtype=ct.int32)
    acc = ct.zeros((tm, tn), dtype=ct.float32)
    for k in range(ct.cdiv(A.shape[1], tk)):
        ks = k * tk + ct.arange(tk, dtype=ct.int32)
        a = ct.load(A, index=(ct.bid(0), k), shape=(tm, tk))
        src = ct.gather(perm, ks, padding_value=-1)
        b = ct.gather(B, (src[:, None], cols[None, :]))
        acc = ct.mma(a, b, acc)
    ct.store(C, index=(ct.bid(0), ct.bid(1)), tile=ct.astype(acc, C.dtype))


KERNEL = gemm_gather_b


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("gemm_gather_b", [array(bf16, 2), array(bf16, 2), array(ct.int32, 1),
                                       array(bf16, 2), TM, TN, TK])

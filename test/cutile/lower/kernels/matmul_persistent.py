"""A persistent GEMM as Triton's persistent-matmul tutorial and cuTile's
test kernels write it: C = A B, each block walking output tiles bid,
bid + blocks, ... in grouped order (GROUP_M tile rows share B's columns).

  A: M x K bf16, B: K x N bf16 (N contiguous), C: M x N bf16, accumulated
     in f32 and rounded once

The grid is the CTAs (one per SM on a GPU), not the tiles: the kernel
counts its tiles from the shapes. tilepipe lowers the tile loop's body as
one tile of a kernel that walks its own tiles (tileas.tile_count) and makes
it persistent (docs/cuda-tile-lowering.md, "Persistent tile loops")."""
import _path  # noqa: F401
import cuda.tile as ct

from constraints import array, signature

TM, TN, TK, GROUP_M = 128, 128, 64, 8


@ct.kernel
def matmul_persistent(A, B, C, tm: ct.Constant[int], tn: ct.Constant[int], tk: ct.Constant[int],
                      group_m: ct.Constant[int]):
    tiles_m = ct.cdiv(A.shape[0], tm)
    tiles_n = ct.cdiv(B.shape[1], tn)
    in_group = group_m * tiles_n
    for tile in range(ct.bid(0), tiles_m * tiles_n, ct.num_blocks(0)):
        first_m = (tile // in_group) * group_m
        rows = min(tiles_m - first_m, group_m)
        row = first_m + (tile % in_group) % rows
        col = (tile % in_group) // rows
        acc = ct.full((tm, tn), 0.0, dtype=ct.float32)
        for k in range(ct.num_tiles(A, axis=1, shape=(tm, tk))):
            a = ct.load(A, index=(row, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
            b = ct.load(B, index=(k, col), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
            acc = ct.mma(a, b, acc)
        ct.store(C, index=(row, col), tile=acc.astype(C.dtype))


KERNEL = matmul_persistent


def kernel_signature():
    bf16 = ct.bfloat16
    return signature("matmul_persistent", [array(bf16, 2), array(bf16, 2), array(bf16, 2), TM, TN, TK, GROUP_M])

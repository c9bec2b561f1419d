"""A cuTile kernel written for the cuTile launcher's test, not among the
`cutile` helper's kernels: C = alpha (A B) + bias[n], with alpha a runtime
f32 scalar (a parameter slot of its own) and B given K x N.

  A: M x K bf16, B: K x N bf16, bias: N f32, C: M x N bf16; 128 x 128 tiles,
  K step 64, grid (cdiv(M, 128), cdiv(N, 128), 1).

It has the parameters, in order, of Inputs/launch-gemm-bias.mlir (A, B,
bias, C, alpha), so Inputs/launch_host.cpp launches either.

  python launch_gemm_bias.py OUT.tileirbc   (no GPU needed)"""
import sys

import cuda.tile as ct
from cuda.tile.compilation import (ArrayConstraint, CallingConvention, KernelSignature,
                                   ScalarConstraint, export_kernel)

TM, TN, TK = 128, 128, 64


@ct.kernel
def gemm_bias(A, B, bias, C, alpha: float, tm: ct.Constant[int], tn: ct.Constant[int],
              tk: ct.Constant[int]):
    row = ct.bid(0)
    col = ct.bid(1)
    steps = ct.num_tiles(A, axis=1, shape=(tm, tk))
    acc = ct.full((tm, tn), 0, dtype=ct.float32)
    for k in range(steps):
        a = ct.load(A, index=(row, k), shape=(tm, tk), padding_mode=ct.PaddingMode.ZERO)
        b = ct.load(B, index=(k, col), shape=(tk, tn), padding_mode=ct.PaddingMode.ZERO)
        acc = ct.mma(a, b, acc)
    shift = ct.load(bias, index=(col,), shape=(tn,), padding_mode=ct.PaddingMode.ZERO)
    y = acc * alpha + ct.reshape(shift, (1, tn))
    ct.store(C, index=(row, col), tile=y.astype(C.dtype))


def array(dtype, ndim):
    """A contiguous array with 16-byte aligned base and rows, as a tensor
    library's arrays are (what TMA needs)."""
    per_align = 128 // dtype.bitwidth
    return ArrayConstraint(dtype, ndim, index_dtype=ct.int32, stride_lower_bound_incl=0,
                           alias_groups=[], may_alias_internally=False,
                           base_addr_divisible_by=16,
                           stride_constant=(None,) * (ndim - 1) + (1,),
                           stride_divisible_by=(per_align,) * (ndim - 1) + (1,))


def main():
    bf16 = ct.bfloat16
    signature = KernelSignature([array(bf16, 2), array(bf16, 2), array(ct.float32, 1), array(bf16, 2),
                                 ScalarConstraint(ct.float32), TM, TN, TK],
                                CallingConvention.cutile_python_v1(), symbol="gemm_bias")
    export_kernel(gemm_bias, [signature], sys.argv[1], output_format="tileir_bytecode",
                  bytecode_version="13.4", gpu_code="sm_100")


if __name__ == "__main__":
    main()

"""What every kernel here states about its array parameters when it is
exported without live arrays (cuda.tile.compilation.ArrayConstraint).
cuTile derives these facts from live arrays only through the CUDA driver,
so a GPU-less export spells them out; they are what a contiguous array
from a tensor library gives:

  - shapes, strides and indices are 32-bit (index_dtype int32);
  - strides are never negative, and no parameter aliases another or itself;
  - rows are contiguous (the last stride is the constant 1);
  - the base address and every other stride are multiples of 16 bytes.

The last two are what TMA needs: without them tileiras loads through
registers (LDG and STS, no UTMALDG; measured with cuda-tile 1.7.0 and
tileiras 13.5 on the 128x256x64 GEMM), and a launcher must refuse arrays
that break them (a row length that is not a multiple of 16 bytes, an
unaligned base)."""
import cuda.tile as ct
from cuda.tile.compilation import ArrayConstraint, CallingConvention, KernelSignature

ALIGN_BYTES = 16


def array(dtype, ndim, **assumptions):
    """An array parameter of `ndim` dimensions and element type `dtype`;
    `assumptions` adds or overrides ArrayConstraint's optional facts (for
    example shape_divisible_by)."""
    per_align = ALIGN_BYTES * 8 // dtype.bitwidth
    facts = {"base_addr_divisible_by": ALIGN_BYTES,
             "stride_constant": (None,) * (ndim - 1) + (1,),
             "stride_divisible_by": (per_align,) * (ndim - 1) + (1,)}
    facts.update(assumptions)
    return ArrayConstraint(dtype, ndim, index_dtype=ct.int32, stride_lower_bound_incl=0,
                           alias_groups=[], may_alias_internally=False, **facts)


def signature(symbol, params):
    """The kernel's signature under cuTile Python's calling convention: each
    array parameter becomes (pointer, shape[0..n), strides[0..n)) of i32."""
    return KernelSignature(params, CallingConvention.cutile_python_v1(), symbol=symbol)

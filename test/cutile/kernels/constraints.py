"""What every kernel here states about its array parameters when it is
exported without live arrays (cuda.tile.compilation.ArrayConstraint): 32-bit
shapes, strides and indices; strides never negative; no parameter aliases
another or itself. cuTile derives these from live arrays only through the
CUDA driver, so a GPU-less export spells them out."""
import cuda.tile as ct
from cuda.tile.compilation import ArrayConstraint, CallingConvention, KernelSignature


def array(dtype, ndim, **assumptions):
    """An array parameter of `ndim` dimensions and element type `dtype`;
    `assumptions` adds ArrayConstraint's optional facts (for example
    shape_divisible_by)."""
    return ArrayConstraint(dtype, ndim, index_dtype=ct.int32, stride_lower_bound_incl=0,
                           alias_groups=[], may_alias_internally=False, **assumptions)


def signature(symbol, params):
    """The kernel's signature under cuTile Python's calling convention: each
    array parameter becomes (pointer, shape[0..n), strides[0..n)) of i32."""
    return KernelSignature(params, CallingConvention.cutile_python_v1(), symbol=symbol)

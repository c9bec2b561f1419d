//===- TileASOps.td - tileas operations --------------------*- tablegen -*-===//
//
// Copies (TMA, cp.async, TMEM/SMEM moves), the tensor-core MMA, SIMT tile
// math and buffer allocation. Everything but allocation is schedulable.
//
// Global memory is modeled as MLIR's default resource, so TMA traffic is
// ordered against memref ops; shared and tensor memory get their own
// resources, so on-chip traffic does not alias with global memory.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_IR_TILEASOPS_TD
#define TILEPIPE_IR_TILEASOPS_TD

include "ir/TileASDialect.td"
include "ir/TileASInterfaces.td"
include "ir/TileASTypes.td"
include "mlir/IR/EnumAttr.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def TileAS_SharedMemory : Resource<"::mlir::tileas::SharedMemoryResource">;
def TileAS_TensorMemory : Resource<"::mlir::tileas::TensorMemoryResource">;

/// An op the scheduler places. `opClass` is the target op class it reports;
/// an op whose class depends on its operands clears extraClassDefinition
/// and implements getOpClass() in C++.
class TileAS_SchedulableOp<string mnemonic, string opClass,
                           list<Trait> traits = [],
                           list<string> overridden = []>
    : TileAS_Op<mnemonic, !listconcat(traits,
        [DeclareOpInterfaceMethods<TileAS_SchedulableOpInterface,
                                   overridden>])> {
  let extraClassDefinition = [{
    ::llvm::StringRef $cppClass::getOpClass() { return "}] # opClass # [{"; }
  }];
}

//===----------------------------------------------------------------------===//
// Copies.
//===----------------------------------------------------------------------===//

/// A producer that writes a whole tile. Without `into` the result is a new
/// buffer; with `into %slot` the op writes that buffer (a pipe slot the
/// materializer acquired) and its result is the slot. The write is a
/// declared effect, so cleanups never drop a producer whose result is unused.
class TileAS_IntoMatches<string what>
    : OptionalTypesMatchWith<"the " # what # " is the result's buffer",
                             "result", "dst", "$_self">;

def TileAS_TmaLoadOp : TileAS_SchedulableOp<"tma_load", "tma_load",
    [MemoryEffects<[MemRead, MemWrite<TileAS_SharedMemory>]>,
     AttrSizedOperandSegments, TileAS_IntoMatches<"destination">]> {
  let summary = "copies one descriptor box from global to shared memory";
  let description = [{
    `%a = tileas.tma_load %desc[%i, %j] : !tileas.tma_desc<128x64xbf16>
        -> !tileas.smem<128x64xbf16>`

    One coordinate per descriptor dimension; the result is the box.
    `tileas.tma_load %desc[%i, %j] into %slot` writes the box into `%slot`
    (a pipe slot) and returns it.

    Where the bytes come from (both optional, both at least 1; the target
    charges HBM and L2 by them, docs/target.md):
    - `l2_reuse = R`: R CTAs (or clusters) read the same box while it is in
      L2, so HBM supplies 1/R of the bytes this CTA fetches and L2 the rest.
      Absent: the target's `default_l2_reuse`.
    - `multicast = M`: one fetch serves M CTAs of a cluster
      (`.multicast::cluster`), so this CTA fetches 1/M of the box.
      Absent: 1.
  }];
  let arguments = (ins TileAS_TmaDescType:$desc, Variadic<Index>:$coords,
                       Optional<TileAS_SmemType>:$dst,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$l2_reuse,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$multicast);
  let results = (outs TileAS_SmemType:$result);
  let assemblyFormat = [{
    $desc `[` $coords `]` (`into` $dst^)? attr-dict `:`
    qualified(type($desc)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TileAS_TmaStoreOp : TileAS_SchedulableOp<"tma_store", "tma_store",
    [MemoryEffects<[MemRead<TileAS_SharedMemory>, MemWrite]>]> {
  let summary = "copies a shared-memory tile to one descriptor box";
  let description = [{
    `tileas.tma_store %buf, %desc[%i, %j] : !tileas.smem<128x64xbf16>,
        !tileas.tma_desc<128x64xbf16>`
  }];
  let arguments = (ins TileAS_SmemType:$buffer, TileAS_TmaDescType:$desc,
                       Variadic<Index>:$coords);
  let assemblyFormat = [{
    $buffer `,` $desc `[` $coords `]` attr-dict `:` qualified(type($buffer))
    `,` qualified(type($desc))
  }];
  let hasVerifier = 1;
}

def TileAS_CpAsyncOp : TileAS_SchedulableOp<"cp_async", "cp_async", [
    MemoryEffects<[MemWrite<TileAS_SharedMemory>]>, AttrSizedOperandSegments,
    TileAS_IntoMatches<"destination">]> {
  let summary = "copies a tile from a global memref to shared memory";
  let description = [{
    `%s = tileas.cp_async %src[%i, %j] : memref<?x?xbf16>
        -> !tileas.smem<64x64xbf16>`
    The coordinates index the tile's first element in `src`; `into %slot`
    writes a given buffer as tma_load does.
  }];
  let arguments = (ins Arg<AnyMemRef, "global source", [MemRead]>:$src,
                       Variadic<Index>:$coords,
                       Optional<TileAS_SmemType>:$dst);
  let results = (outs TileAS_SmemType:$result);
  let assemblyFormat = [{
    $src `[` $coords `]` (`into` $dst^)? attr-dict `:` type($src) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

/// A copy of one whole tile between two storage kinds with identical shape
/// and element type; getWork() reports the tile's bytes.
class TileAS_TileMoveOp<string mnemonic, Type sourceType, Type resultType,
                        list<Trait> traits>
    : TileAS_SchedulableOp<mnemonic, mnemonic, traits> {
  let arguments = (ins sourceType:$source);
  let results = (outs resultType:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def TileAS_TmemLoadOp : TileAS_TileMoveOp<"tmem_load", TileAS_TmemType,
    TileAS_RegisterTile, [MemoryEffects<[MemRead<TileAS_TensorMemory>]>]> {
  let summary = "reads a tensor-memory tile into registers";
}

/// A register tile written to on-chip memory, optionally `into` a given
/// buffer (a pipe slot, or an alias of another tile's columns).
///
/// `into %buf` names the buffer written: a pipe slot of the result's type,
/// or (TMEM) another tile whose columns hold the result, printed with its
/// type: `tmem_store %p into %s as !tileas.tmem<128x128xf32> : ...` writes P
/// over S's columns in place.
class TileAS_TileStoreOp<string mnemonic, Type resultType, list<Trait> traits>
    : TileAS_SchedulableOp<mnemonic, mnemonic, traits> {
  let arguments = (ins TileAS_RegisterTile:$source,
                       Optional<resultType>:$dst);
  let results = (outs resultType:$result);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TileAS_TmemStoreOp : TileAS_TileStoreOp<"tmem_store", TileAS_TmemType,
    [MemoryEffects<[MemWrite<TileAS_TensorMemory>]>]> {
  let summary = "writes a register tile to tensor memory";
}

/// A float of any width (a padding value in the tile's element type).
def TileAS_FloatValueAttr : Attr<CPred<"::llvm::isa<::mlir::FloatAttr>($_self)">,
                                 "float attribute"> {
  let storageType = "::mlir::FloatAttr";
  let returnType = "::mlir::FloatAttr";
  let convertFromStorage = "$_self";
}

/// A float or an integer (an element access's padding: an index read from
/// memory is an i32).
def TileAS_ElementValueAttr : Attr<CPred<
    "::llvm::isa<::mlir::FloatAttr, ::mlir::IntegerAttr>($_self)">,
    "float or integer attribute"> {
  let storageType = "::mlir::TypedAttr";
  let returnType = "::mlir::TypedAttr";
  let convertFromStorage = "::llvm::cast<::mlir::TypedAttr>($_self)";
}

def TileAS_SmemLoadOp : TileAS_TileMoveOp<"smem_load", TileAS_SmemType,
    TileAS_RegisterTile, [MemoryEffects<[MemRead<TileAS_SharedMemory>]>]> {
  let summary = "reads a shared-memory tile into registers";
  let description = [{
    `%r = tileas.smem_load %s : !tileas.smem<128x64xf32> -> tensor<128x64xf32>`
    reads the tile as it is. With `lanes = L` a row of the source is split
    over L consecutive rows of the result (docs/dialect.md, "Rows split over
    lanes"):
    - an R x C source with R * L = 128 becomes 128 x (C / L): result row
      q is columns (q % L) * C / L .. of source row q / L, the same bytes
      in the same order (a row-major tile read as 128 shorter rows);
    - a vector of C becomes 128 x (C / L): result row q is elements
      (q % L) * C / L .. of the vector, every L-th row alike (a per-column
      vector read for a split tile).
    With `valid(%rows, %cols)` (one extent per source dimension) and
    `padding = V`, the elements of the source at or past those extents read
    as V: a tile TMA filled with zeros past the tensor's edge, read with the
    padding its program asked for (cuTile's `padding_value = neg_inf`).
    `transposed` reads a 2-D R x C source as its C x R transpose: register
    element (i, j) is source element (j, i) (cuTile's `ct.transpose` of a
    loaded tile read by SIMT work); with `lanes = L` the C x R transpose is
    what is split over lanes. A transposed read takes no padding.
  }];
  let arguments = (ins TileAS_SmemType:$source, Variadic<Index>:$valid,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<2>]>>:$lanes,
                       OptionalAttr<TileAS_FloatValueAttr>:$padding,
                       UnitAttr:$transposed);
  let assemblyFormat = [{
    $source (`transposed` $transposed^)? (`valid` `(` $valid^ `)`)? attr-dict
    `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let builders = [
    OpBuilder<(ins "Type":$result, "Value":$source), [{
      build($_builder, $_state, result, source, ValueRange(), IntegerAttr(),
            FloatAttr(), UnitAttr());
    }]>,
    OpBuilder<(ins "Type":$result, "Value":$source, "IntegerAttr":$lanes), [{
      build($_builder, $_state, result, source, ValueRange(), lanes,
            FloatAttr(), UnitAttr());
    }]>];
}

def TileAS_SmemStoreOp : TileAS_TileStoreOp<"smem_store", TileAS_SmemType,
    [MemoryEffects<[MemWrite<TileAS_SharedMemory>]>]> {
  let summary = "writes a register tile to shared memory";
  let description = [{
    With `lanes = L` the register tile is 128 x (C / L) rows split over
    lanes (smem_load's `lanes`), written as the R x C tile they are.
  }];
  let arguments = (ins TileAS_RegisterTile:$source,
                       Optional<TileAS_SmemType>:$dst,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<2>]>>:$lanes);
  let builders = [OpBuilder<(ins "Type":$result, "Value":$source,
                                 "Value":$dst), [{
    build($_builder, $_state, result, source, dst, IntegerAttr());
  }]>];
}

def TileAS_TmemCopyOp : TileAS_SchedulableOp<"tmem_copy", "tmem_copy", [
    MemoryEffects<[MemRead<TileAS_SharedMemory>,
                   MemWrite<TileAS_TensorMemory>]>,
    TileAS_IntoMatches<"destination">]> {
  let summary = "copies a shared-memory tile to tensor memory (tcgen05.cp)";
  let description = [{
    `%t = tileas.tmem_copy %s : !tileas.smem<128x4xf8E8M0FNU>
        -> !tileas.tmem<128x4xf8E8M0FNU>`
    Issued by the MMA issuer and ordered with its UMMAs in the tensor
    core's queue (block-scale factors go to TMEM this way).
  }];
  let arguments = (ins TileAS_SmemType:$source,
                       Optional<TileAS_TmemType>:$dst);
  let results = (outs TileAS_TmemType:$result);
  let assemblyFormat = [{
    $source (`into` $dst^)? attr-dict `:` qualified(type($source)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Tensor-core MMA.
//===----------------------------------------------------------------------===//

def TileAS_UmmaOp : TileAS_SchedulableOp<"umma", "", [
    MemoryEffects<[MemRead<TileAS_SharedMemory>, MemRead<TileAS_TensorMemory>,
                   MemWrite<TileAS_TensorMemory>]>,
    AttrSizedOperandSegments],
    ["isAccumulatorOperand"]> {
  let summary = "tensor-core MMA into a tensor-memory accumulator";
  let description = [{
    `%d = tileas.umma %a, %b, %acc {accumulate} : !tileas.smem<128x64xbf16>,
        !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32>
        -> !tileas.tmem<128x128xf32>`

    D = A * B^T (+ acc when `accumulate` is set). A is MxK in shared memory
    (class `umma`) or tensor memory (class `umma_ts`), B is NxK (K-major) in
    shared memory, and the accumulator and result are MxN in tensor memory.
    FP8/FP6/INT8 operands use the `_f8` classes, block-scaled FP4 the `_f4`
    ones (their K per instruction is 2x and 4x BF16's).

    MN-major operands (`b_mn_major`, `a_mn_major` for an SMEM A): the tile
    is given as it lies in a row-major global tensor with M or N contiguous,
    i.e. B as KxN (A as KxM), and the tensor core reads it transposed (the
    instruction descriptor's major bits). Attention's O += P V uses V this
    way: a TMA box of V[kv, d] is B = V^T without a transposed copy in global
    memory. 8- and 16-bit types only.

    8-bit integer operands (kind::i8, an i32 accumulator) are signed unless
    `a_unsigned` / `b_unsigned` says the operand is u8 (integer types in the
    IR are signless; cuTile's mmai names each operand's signedness).

    Block scaling (tcgen05.mma kind::mxf8f6f4 / kind::mxf4):

    `%d = tileas.umma %a, %b, %acc scale(%sfa, %sfb) {accumulate}
        : !tileas.smem<128x128xf8E4M3FN>, !tileas.smem<256x128xf8E4M3FN>,
          !tileas.tmem<128x256xf32>
          scale(!tileas.tmem<128x4xui8>, !tileas.tmem<128x8xui8>)
        -> !tileas.tmem<128x256xf32>`

    computes (A * scale_a) * (B * scale_b)^T: one UE8M0 factor (written
    `ui8`, the biased exponent byte) per 32 elements of K per row, read from
    tensor memory. scale_a is M x K/32; scale_b is N x K/32, with rows above
    the 128 lanes folded into further column blocks (N = 256: 128 x 2K/32).
  }];
  let arguments = (ins TileAS_MmaOperand:$a, TileAS_SmemType:$b,
                       TileAS_TmemType:$acc,
                       Optional<TileAS_TmemType>:$scale_a,
                       Optional<TileAS_TmemType>:$scale_b,
                       UnitAttr:$accumulate, UnitAttr:$a_mn_major,
                       UnitAttr:$b_mn_major, UnitAttr:$a_unsigned,
                       UnitAttr:$b_unsigned);
  let results = (outs TileAS_TmemType:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc (`scale` `(` $scale_a^ `,` $scale_b `)`)? attr-dict `:`
    qualified(type($a)) `,` qualified(type($b)) `,` qualified(type($acc))
    (`scale` `(` qualified(type($scale_a))^ `,` qualified(type($scale_b))
    `)`)? `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The MMA's M, N and K, whichever way A and B are given.
    int64_t getMmaM() {
      auto a = ::llvm::cast<::mlir::ShapedType>(getA().getType());
      return a.getDimSize(getAMnMajor() ? 1 : 0);
    }
    int64_t getMmaN() { return getB().getType().getDimSize(getBMnMajor() ? 1 : 0); }
    int64_t getMmaK() {
      auto a = ::llvm::cast<::mlir::ShapedType>(getA().getType());
      return a.getDimSize(getAMnMajor() ? 0 : 1);
    }
  }];
  let extraClassDefinition = "";
}

/// Hopper's warpgroup MMA (docs/dialect.md, "Warpgroup MMA"; PTX
/// wgmma.mma_async): the accumulator is a register tile, so the op is SSA on
/// tensors and a loop carries it as an iter_arg.
def TileAS_WgmmaOp : TileAS_SchedulableOp<"wgmma", "", [
    MemoryEffects<[MemRead<TileAS_SharedMemory>]>],
    ["isAccumulatorOperand"]> {
  let summary = "warpgroup tensor-core MMA into a register accumulator (sm_90a)";
  let description = [{
    `%d = tileas.wgmma %a, %b, %acc {accumulate} : !tileas.smem<128x64xbf16>,
        !tileas.smem<256x64xbf16>, tensor<128x256xf32> -> tensor<128x256xf32>`

    D = A * B^T (+ acc when `accumulate` is set), Hopper's counterpart of
    `tileas.umma`: A is MxK in shared memory (class `wgmma`) or a register
    tile (class `wgmma_rs`, attention's P V), B is NxK (K-major) in shared
    memory, and the accumulator and result are MxN register tiles. tf32
    operands (written f32) use the `_tf32` classes and 8-bit ones the `_f8`
    classes, at their own rates (target data).

    The verifier holds the tile to PTX's wgmma rules: M is 64 per
    warpgroup (a multiple of 64 up to 256, one warpgroup per 64 rows); N a
    multiple of 8 from 8 to 256 (8-bit integers: 8, 16, 24, or a multiple of
    16 up to 256); K a multiple of the instruction's K (16 for f16 and bf16,
    8 for tf32, 32 for 8-bit types); the accumulator f32 or f16 for float
    operands (f16 only for f16 and 8-bit floats) and i32 for integers.
    `a_mn_major` / `b_mn_major` (the tile given KxM / KxN, read transposed)
    are allowed only for f16 and bf16 in shared memory; a register A is
    always MxK. `a_unsigned` / `b_unsigned`: a u8 operand, as for
    `tileas.umma` (8-bit integers only).
  }];
  let arguments = (ins AnyTypeOf<[TileAS_SmemType, TileAS_RegisterTile]>:$a,
                       TileAS_SmemType:$b, TileAS_RegisterTile:$acc,
                       UnitAttr:$accumulate, UnitAttr:$a_mn_major,
                       UnitAttr:$b_mn_major, UnitAttr:$a_unsigned,
                       UnitAttr:$b_unsigned);
  let results = (outs TileAS_RegisterTile:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` qualified(type($a)) `,`
    qualified(type($b)) `,` type($acc) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    int64_t getMmaM() {
      auto a = ::llvm::cast<::mlir::ShapedType>(getA().getType());
      return a.getDimSize(getAMnMajor() ? 1 : 0);
    }
    int64_t getMmaN() { return getB().getType().getDimSize(getBMnMajor() ? 1 : 0); }
    int64_t getMmaK() {
      auto a = ::llvm::cast<::mlir::ShapedType>(getA().getType());
      return a.getDimSize(getAMnMajor() ? 0 : 1);
    }
    /// The consumer warpgroups that issue it and hold its accumulator: the
    /// fewest that split its 64-row bands evenly with at most 128 f32
    /// registers a thread each (M N / (128 groups)): one up to 128 x 128,
    /// two for 128 x 256 (a band each) and 256 x 128 (two bands each), as
    /// CUTLASS's cooperative consumers split them (docs/cuda.md, "Hopper").
    int64_t getWarpgroups() {
      int64_t m = getMmaM(), n = getMmaN(), bands = (m + 63) / 64;
      for (int64_t groups = 1; groups < bands; ++groups)
        if (bands % groups == 0 && m * n <= 128 * 128 * groups)
          return groups;
      return bands;
    }
  }];
  let extraClassDefinition = "";
}

//===----------------------------------------------------------------------===//
// SIMT tile math on register tiles.
//===----------------------------------------------------------------------===//

def TileAS_Exp2Op : TileAS_SchedulableOp<"exp2", "exp2",
    [Pure, SameOperandsAndResultType]> {
  let summary = "elementwise base-2 exponential";
  let arguments = (ins TileAS_FloatTensor:$input);
  let results = (outs TileAS_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

/// `lhs op rhs`, where rhs is lhs's type, a rank-1 tensor broadcast along
/// rows (matching lhs's dimension 0) or a scalar of lhs's element type.
class TileAS_BinaryOp<string mnemonic, string what>
    : TileAS_SchedulableOp<mnemonic, "fma",
        [Pure, AllTypesMatch<["lhs", "result"]>]> {
  let summary = "elementwise " # what # " with row or scalar broadcast";
  let arguments = (ins TileAS_FloatTensor:$lhs,
                       TileAS_FloatTensorOrScalar:$rhs);
  let results = (outs TileAS_FloatTensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs)";
  let hasVerifier = 1;
}

def TileAS_AddOp : TileAS_BinaryOp<"add", "addition">;
def TileAS_SubOp : TileAS_BinaryOp<"sub", "subtraction">;
def TileAS_MulOp : TileAS_BinaryOp<"mul", "multiplication">;
def TileAS_MaxOp : TileAS_BinaryOp<"max", "maximum">;

def TileAS_FmaOp : TileAS_SchedulableOp<"fma", "fma",
    [Pure, AllTypesMatch<["a", "result"]>]> {
  let summary = "elementwise fused multiply-add a * b + c";
  let description = [{
    `b` and `c` may each be `a`'s type, a rank-1 row broadcast or a scalar.
  }];
  let arguments = (ins TileAS_FloatTensor:$a, TileAS_FloatTensorOrScalar:$b,
                       TileAS_FloatTensorOrScalar:$c);
  let results = (outs TileAS_FloatTensor:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $c attr-dict `:` type($a) `,` type($b) `,` type($c)
  }];
  let hasVerifier = 1;
}

/// A vector (or tile) repeated along new dimensions, as linalg.broadcast:
/// `dimensions` lists the result dimensions the input does not have, and the
/// input's dimensions are the others, in order. A bias per output column,
/// `bias[n]` over an MxN tile, is `dimensions = [0]`; a value per row is
/// `dimensions = [1]`.
def TileAS_BroadcastOp : TileAS_SchedulableOp<"broadcast", "generic",
    [Pure]> {
  let summary = "broadcasts a register vector along new dimensions";
  let description = [{
    `%t = tileas.broadcast %bias dimensions = [0] : tensor<128xf32> ->
    tensor<128x128xf32>` gives `%t[i][j] = %bias[j]`: every row of the tile
    is the vector. With `dimensions = [1]` every column is, `%t[i][j] =
    %v[i]`. The result feeds any elementwise op (tileas or arith/math) as a
    tile of the same shape; the translation never materializes it unless a
    reader needs it whole (docs/cuda.md, "Broadcasts").
  }];
  let arguments = (ins TileAS_FloatTensor:$input,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs TileAS_FloatTensor:$result);
  let assemblyFormat = [{
    $input `dimensions` `=` $dimensions attr-dict `:` type($input) `->`
    type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether the input runs along the result's columns (dimension 0 is
    /// added: one value per column, the same in every row).
    bool isColumnBroadcast() {
      return getDimensions().size() == 1 && getDimensions()[0] == 0 &&
             getResult().getType().getRank() == 2;
    }
    /// Whether the input runs along the rows (one value per row).
    bool isRowBroadcast() {
      return getDimensions().size() == 1 && getDimensions()[0] == 1 &&
             getResult().getType().getRank() == 2;
    }
  }];
}

/// Element positions, as stablehlo.iota: the index along one dimension.
/// Causal and ragged-edge masks compare them (arith.cmpi) with offsets.
def TileAS_IotaOp : TileAS_SchedulableOp<"iota", "generic", [Pure]> {
  let summary = "a register tile of each element's index along a dimension";
  let description = [{
    `%cols = tileas.iota dimension = 1 : tensor<128x128xi32>` gives
    `%cols[i][j] = j`; `dimension = 0` gives `i`. A mask is arith on such
    tiles: `arith.cmpi sle, (%cols + splat(k0)), (%rows + splat(q0))` is
    the causal mask of a query block at q0 against a key block at k0. The
    translation computes each thread's positions from the register layout
    (docs/cuda.md, "Positions"); the materializer recomputes them in every
    agent that reads them, as it does scalar index arithmetic.
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntNonNegative]>:$dimension);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "`dimension` `=` $dimension attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def TileAS_CvtOp : TileAS_SchedulableOp<"cvt", "cvt", [Pure]> {
  let summary = "elementwise float conversion";
  let arguments = (ins TileAS_FloatTensor:$input);
  let results = (outs TileAS_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

/// Reduces the last dimension: tensor<128x128xf32> -> tensor<128xf32>.
class TileAS_ReduceOp<string mnemonic, string what>
    : TileAS_SchedulableOp<mnemonic, "reduce", [Pure]> {
  let summary = "row " # what # " over the last dimension";
  let arguments = (ins TileAS_FloatTensor:$input);
  let results = (outs TileAS_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

def TileAS_ReduceMaxOp : TileAS_ReduceOp<"reduce_max", "maximum">;
def TileAS_ReduceSumOp : TileAS_ReduceOp<"reduce_sum", "sum">;

def TileAS_ReduceLanesOp : TileAS_SchedulableOp<"reduce_lanes", "reduce",
    [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "combines a row's partial results held by consecutive lanes";
  let description = [{
    `%r = tileas.reduce_lanes %p {kind = "sum", lanes = 8} : tensor<128xf32>`
    gives `%r[i] = %p[g] + .. + %p[g + 7]` with `g = i - i % 8`: the row
    reduction of a tile whose rows are split over `lanes` consecutive rows
    (smem_load's `lanes`), each partial the reduction of one piece, every
    piece's lane left holding the whole row's. `kind` is "sum" or "max";
    `lanes` a power of two of at most 128 that divides the length (up to 32
    lanes of a warp combine by shuffles; more through shared memory).
  }];
  let arguments = (ins TileAS_FloatTensor:$input, StrAttr:$kind,
                       ConfinedAttr<I64Attr, [IntMinValue<2>]>:$lanes);
  let results = (outs TileAS_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def TileAS_ScanOp : TileAS_SchedulableOp<"scan", "reduce",
    [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "the inclusive prefix sum or maximum along each row";
  let description = [{
    `%c = tileas.scan %x {kind = "sum"} : tensor<128x256xf32>` gives
    `%c[i, j] = %x[i, 0] + .. + %x[i, j]` (`kind = "prod"`: the running
    product, `"max"`: the running maximum): cuTile's `ct.cumsum(x, axis=1)`
    and `ct.cumprod`. With `lanes = L` (a tile
    whose rows are split over L consecutive lanes, smem_load's `lanes`,
    L at most 32) each lane holds a piece of its row, and the pieces before
    it are combined into it, so the scan runs along the whole row. With
    `reverse` the scan runs from the row's end (`ct.cumsum(x, axis=1,
    reverse=True)`: `%c[i, j] = %x[i, j] + .. + %x[i, C - 1]`), the pieces
    after a lane's combined into it.
  }];
  let arguments = (ins TileAS_FloatTensor:$input, StrAttr:$kind,
                       OptionalAttr<ConfinedAttr<I64Attr, [IntMinValue<1>]>>:$lanes,
                       UnitAttr:$reverse);
  let results = (outs TileAS_FloatTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

def TileAS_ReduceAllOp : TileAS_SchedulableOp<"reduce_all", "reduce",
    [Pure]> {
  let summary = "reduces a whole register vector to one value";
  let description = [{
    `%m = tileas.reduce_all %row {kind = "max"} : tensor<1024xf32> -> f32`
    is the maximum (`kind = "sum"`: the sum) of every element: a 1 x C tile
    (cuTile's `ct.max(row, axis=1)` over one row, its unit dimension
    dropped) spread over the agent's threads, each holding C / 128
    consecutive elements. Every thread gets the same value.
  }];
  let arguments = (ins TileAS_FloatTensor:$input, StrAttr:$kind);
  let results = (outs AnyFloat:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Allocation (outside the pipelined loop; not schedulable).
//===----------------------------------------------------------------------===//

def TileAS_AllocSmemOp : TileAS_Op<"alloc_smem"> {
  let summary = "allocates a shared-memory tile buffer";
  let results = (outs Res<TileAS_SmemType, "",
                          [MemAlloc<TileAS_SharedMemory>]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def TileAS_AllocTmemOp : TileAS_Op<"alloc_tmem"> {
  let summary = "allocates a tensor-memory tile";
  let results = (outs Res<TileAS_TmemType, "",
                          [MemAlloc<TileAS_TensorMemory>]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def TileAS_GlobalLoadOp : TileAS_Op<"global_load"> {
  let summary = "one element every thread reads from global memory";
  let description = [{
    `%e = tileas.global_load %src[%offset] if %inside : memref<?xi32> -> i32`
    reads element %offset (counted from the base, as global_store counts)
    of the array %src when %inside holds, else zero. Every thread reads the
    same element: a scalar the kernel reads from memory (cuTile's MoE
    sample loads the expert of its block, `ct.load(ids, index=b,
    shape=())`, and loads that expert's weights at it).
  }];
  let arguments = (ins Arg<AnyMemRef, "global array", [MemRead]>:$src,
                       Index:$offset, I1:$inside);
  let results = (outs AnyTypeOf<[AnyFloat, AnySignlessInteger]>:$result);
  let assemblyFormat = [{
    $src `[` $offset `]` `if` $inside attr-dict `:` type($src) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

def TileAS_GlobalStoreOp : TileAS_Op<"global_store"> {
  let summary = "one element written to global memory by one thread";
  let description = [{
    `tileas.global_store %v, %dst[%offset] if %inside : f32, memref<?xf32>`
    writes the scalar %v to element %offset (counted from the base, the
    array's strides applied by whoever computed it) of the array %dst (a
    kernel argument of the array's rank: its base pointer), when %inside
    holds. One thread of
    the agent that runs it writes: a value a CTA computes once (cuTile's
    LayerNorm stores a row's mean and reciprocal deviation, a tile of one
    element, which no TMA box can hold: a box spans 16 bytes at least).
    With `combine` (as global_scatter's: add, max, min, xchg, and, or, xor)
    that thread combines the value with the element atomically (cuTile's
    `ct.atomic_add(out, 0, ct.sum(x))`: a sum over the grid); `fenced` puts
    a fence of the GPU before and after.
  }];
  let arguments = (ins AnyTypeOf<[AnyFloat, AnySignlessInteger]>:$value,
                       Arg<AnyMemRef, "global array", [MemRead, MemWrite]>:$dst,
                       Index:$offset, I1:$inside,
                       OptionalAttr<StrAttr>:$combine, UnitAttr:$fenced);
  let assemblyFormat = [{
    $value `,` $dst `[` $offset `]` `if` $inside attr-dict `:` type($value)
    `,` type($dst)
  }];
  let hasVerifier = 1;
}

def TileAS_GlobalGatherOp : TileAS_Op<"global_gather", [
    AttrSizedOperandSegments]> {
  let summary = "a register tile read element by element from global memory";
  let description = [{
    `%v = tileas.global_gather %src[%i, %j : tensor<128xi32>,
    tensor<128xi32>] strides(%s0, %s1) bounds(%m, %n) mask(%keep :
    tensor<128xi1>) padding = 0.0 : memref<?x?xf32> -> tensor<128xf32>`: each thread reads the elements it
    holds, element e at `sum_d %idx_d[e] * %strides_d` from the base (the
    strides in elements), where every index lies in [0, bound) and the
    mask (optional) holds; the padding elsewhere. One index tile per
    dimension of the array, each the result's shape (positions: the
    translation makes them where it reads them). What a TMA box cannot
    move: a box starting at an index that is not 16-byte aligned (a
    stencil's shifted read), a box narrower than 16 bytes. An i32 gather
    at positions from an array the function never writes (an embedding's
    ids, MoE's routing) is itself positions (ir/Positions.h): made where
    an element access reads it as an index, each read a load.
  }];
  let arguments = (ins Arg<AnyMemRef, "global array", [MemRead]>:$src,
                       Variadic<TensorOf<[I32]>>:$indices,
                       Variadic<Index>:$strides, Variadic<Index>:$bounds,
                       Optional<TensorOf<[I1]>>:$mask,
                       TileAS_ElementValueAttr:$padding);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $src `[` $indices `:` type($indices) `]` `strides` `(` $strides `)`
    `bounds` `(` $bounds `)` (`mask` `(` $mask^ `:` type($mask) `)`)?
    `padding` `=` $padding attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TileAS_GlobalScatterOp : TileAS_Op<"global_scatter", [
    AttrSizedOperandSegments]> {
  let summary = "a register tile written element by element to global memory";
  let description = [{
    `tileas.global_scatter %v, %dst[%i : tensor<512xi32>] strides(%s)
    bounds(%n) mask(%keep : tensor<512xi1>) : tensor<512xf32>,
    memref<?xf32>`:
    each thread writes the elements it holds, as global_gather reads them,
    where every index lies in [0, bound) and the mask holds. A TMA store
    writes its whole box: a scatter masked by more than the array's bounds
    (Triton's `offs < n`) is this. With `combine` (add, max, min, xchg,
    and, or, xor) each element is combined with what the array holds,
    atomically per element (cuTile's `ct.atomic_add`, ...; `add` on f32 or
    i32, the others on i32, xchg on f32 too); `fenced` puts a fence of the
    GPU before and after (an acquire or release ordering).
  }];
  let arguments = (ins AnyRankedTensor:$value,
                       Arg<AnyMemRef, "global array", [MemRead, MemWrite]>:$dst,
                       Variadic<TensorOf<[I32]>>:$indices,
                       Variadic<Index>:$strides, Variadic<Index>:$bounds,
                       Optional<TensorOf<[I1]>>:$mask,
                       OptionalAttr<StrAttr>:$combine, UnitAttr:$fenced);
  let assemblyFormat = [{
    $value `,` $dst `[` $indices `:` type($indices) `]` `strides` `(`
    $strides `)` `bounds` `(` $bounds `)`
    (`mask` `(` $mask^ `:` type($mask) `)`)? attr-dict `:` type($value) `,`
    type($dst)
  }];
  let hasVerifier = 1;
}

def TileAS_TileCountOp : TileAS_Op<"tile_count"> {
  let summary = "the output tiles a kernel walks over the CTAs it is given";
  let description = [{
    `tileas.tile_count %tiles` in a function's body (outside its loops)
    makes it a kernel that walks its own tiles, as a persistent loop written
    by hand does (`for t in range(ct.bid(0), tiles, ct.num_blocks(0))`):
    the body stands for one tile, `gpu.block_id x` is that tile's number
    (0 to %tiles - 1) and y and z are 0, and the CTAs the kernel is launched
    with take the tiles in turn. The materializer plans the function
    persistent (docs/materialize.md, "Persistent kernels"), and fails when
    it cannot; the translation walks tiles `blockIdx.x, + gridDim.x, ...`
    below %tiles, computed once before the walk. Unlike the materializer's
    `persistent` option, the launch grid is the CTAs: the kernel takes no
    grid parameters.
  }];
  let arguments = (ins Index:$tiles);
  let assemblyFormat = "$tiles attr-dict";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The tile count in `func`'s body, if it walks its own tiles.
    static TileCountOp of(::mlir::Operation *func);
  }];
}

//===----------------------------------------------------------------------===//
// Pipes, mutexes and agents (materializer output; not schedulable).
//
// The materializer turns the schedule's cross-stage dependences into pipes,
// unit sharing between warp groups into mutexes and the warp-specialized
// partition into agents. Every op carries the (stage, order) of the op it
// serves as optional i32 attributes, so later passes and tests can trace
// each handshake back to the schedule.
//===----------------------------------------------------------------------===//

/// Kinds spelled as strings in the IR (`producer = "tma"`) whose C++ enum is
/// generated from these records; the string constraint below is derived from
/// the same cases so that the two cannot drift apart.
def TileAS_PipeProducerKind : I32EnumAttr<"PipeProducerKind",
    "the unit that fills a pipe slot", [
      I32EnumAttrCase<"Tma", 0, "tma">,
      I32EnumAttrCase<"Umma", 1, "umma">,
      I32EnumAttrCase<"Simt", 2, "simt">,
      I32EnumAttrCase<"CpAsync", 3, "cpasync">]> {
  let cppNamespace = "::mlir::tileas";
  let genSpecializedAttr = 0;
}

def TileAS_PipeConsumerKind : I32EnumAttr<"PipeConsumerKind",
    "the unit that drains a pipe slot", [
      I32EnumAttrCase<"Umma", 0, "umma">,
      I32EnumAttrCase<"Simt", 1, "simt">,
      I32EnumAttrCase<"TmaStore", 2, "tma_store">,
      I32EnumAttrCase<"Wgmma", 3, "wgmma">]> {
  let cppNamespace = "::mlir::tileas";
  let genSpecializedAttr = 0;
}

def TileAS_MutexImplKind : I32EnumAttr<"MutexImplKind",
    "how a mutex's token ring is realised", [
      I32EnumAttrCase<"NamedBarrier", 0, "namedbar">,
      I32EnumAttrCase<"MBarrier", 1, "mbarrier">]> {
  let cppNamespace = "::mlir::tileas";
  let genSpecializedAttr = 0;
}

def TileAS_SignalKind : I32EnumAttr<"SignalKind",
    "how a commit or release makes its barrier phase complete", [
      I32EnumAttrCase<"ExpectTx", 0, "expect_tx">,
      I32EnumAttrCase<"Tcgen05Commit", 1, "tcgen05_commit">,
      I32EnumAttrCase<"Arrive", 2, "arrive">,
      I32EnumAttrCase<"CpAsyncArrive", 3, "cpasync_arrive">,
      I32EnumAttrCase<"BulkWait", 4, "bulk_wait">,
      I32EnumAttrCase<"WgmmaWait", 5, "wgmma_wait">]> {
  let cppNamespace = "::mlir::tileas";
  let genSpecializedAttr = 0;
}

def TileAS_FenceKind : I32EnumAttr<"FenceKind",
    "an ordering fence between proxies or around thread syncs", [
      I32EnumAttrCase<"ProxyAsync", 0, "proxy_async">,
      I32EnumAttrCase<"Tcgen05Before", 1, "tcgen05_before">,
      I32EnumAttrCase<"Tcgen05After", 2, "tcgen05_after">,
      I32EnumAttrCase<"Tcgen05WaitSt", 3, "tcgen05_wait_st">,
      I32EnumAttrCase<"Tcgen05WaitLd", 4, "tcgen05_wait_ld">]> {
  let cppNamespace = "::mlir::tileas";
  let genSpecializedAttr = 0;
}

def TileAS_AgentRoleKind : I32EnumAttr<"AgentRole",
    "the job of a warp-specialized agent", [
      I32EnumAttrCase<"Load", 0, "load">,
      I32EnumAttrCase<"Mma", 1, "mma">,
      I32EnumAttrCase<"Epilogue", 2, "epilogue">,
      I32EnumAttrCase<"Softmax", 3, "softmax">,
      I32EnumAttrCase<"Correction", 4, "correction">,
      I32EnumAttrCase<"Simt", 5, "simt">]> {
  let cppNamespace = "::mlir::tileas";
  let genSpecializedAttr = 0;
}

/// A string attribute holding one case of `kind`.
class TileAS_StrEnumAttr<I32EnumAttr kind> : ConfinedAttr<StrAttr, [
    AttrConstraint<CPred<kind.cppNamespace # "::symbolize" # kind.className #
        "(::llvm::cast<::mlir::StringAttr>($_self).getValue()).has_value()">,
      "whose value is one of " #
        !interleave(!foreach(c, kind.enumerants, c.str), ", ")>]>;

/// Barrier waits and arrivals order every access to the buffers they guard,
/// and the buffers live in shared or tensor memory, so both are touched.
defvar TileAS_BarrierEffects = [
    MemRead<TileAS_SharedMemory>, MemWrite<TileAS_SharedMemory>,
    MemRead<TileAS_TensorMemory>, MemWrite<TileAS_TensorMemory>];

class TileAS_MaterializedOp<string mnemonic, list<Trait> traits = []>
    : TileAS_Op<mnemonic, traits> {
  dag scheduleAttrs = (ins OptionalAttr<I32Attr>:$stage,
                           OptionalAttr<I32Attr>:$order);
}

def TileAS_PipeCreateOp : TileAS_MaterializedOp<"pipe.create", [
    AttrSizedOperandSegments,
    OptionalTypesMatchWith<"a pipe shares the buffers of a pipe of its type",
                           "result", "shares", "$_self">]> {
  let summary = "creates a pipe: depth buffers with full and empty barriers";
  let description = [{
    `%p = tileas.pipe.create {depth = 4 : i32, producer = "tma",
        consumers = ["umma"], bytes = 16384 : i64}
        : !tileas.pipe<!tileas.smem<128x64xbf16>>`
    `bytes` is the transaction count a TMA producer expects per slot.
    `consumers` names the unit of each consuming role: every slot's empty
    barrier completes after one release per entry, each performed the way
    its unit can (tcgen05.commit for UMMA, a thread arrive for SIMT).
    `shares %q` reuses `%q`'s buffers (their lifetimes are disjoint; `%q`
    must have the same depth); the barriers stay this pipe's own.
    `aliases %q` hands `%q`'s slots on: iteration k of this pipe is written,
    in place, into the slot of `%q`'s iteration k by a thread that holds that
    slot (it waited on it and does not release it); this pipe's consumers
    release the slot, arriving on `%q`'s empty barrier, so `consumers` of `%q`
    counts them. It has full barriers of its own and no empty ones (FA4's P
    written over S's TMEM columns).
    `joins %q` makes the two one pipe with two buffers per slot, as CUTLASS
    loads A and B (one full and one empty barrier per stage): this pipe has
    buffers and no barriers of its own, and each of its slot ops follows
    `%q`'s of the same iteration in the same thread. Its acquire and wait
    hold while `%q`'s do (they wait for nothing themselves); its commit adds
    its bytes to `%q`'s full barrier before `%q`'s commit arrives, and its
    release comes before `%q`'s, which arrives for both. Both pipes are TMA
    producers of the same depth and consumers.
  }];
  let arguments = !con((ins Optional<TileAS_PipeType>:$shares,
                            Optional<TileAS_PipeType>:$aliases,
                            Optional<TileAS_PipeType>:$joins,
                            I32Attr:$depth,
                            TileAS_StrEnumAttr<TileAS_PipeProducerKind>:$producer,
                            TypedArrayAttrBase<
                                TileAS_StrEnumAttr<TileAS_PipeConsumerKind>,
                                "consumer kinds">:$consumers,
                            OptionalAttr<I64Attr>:$bytes),
                       scheduleAttrs);
  // The barriers always live in shared memory; the slots in the payload's
  // memory.
  let results = (outs Res<TileAS_PipeType, "",
                          [MemAlloc<TileAS_SharedMemory>,
                           MemAlloc<TileAS_TensorMemory>]>:$result);
  let assemblyFormat = [{
    (`shares` $shares^)? (`aliases` $aliases^ `:` qualified(type($aliases)))?
    (`joins` $joins^ `:` qualified(type($joins)))?
    attr-dict `:` qualified(type($result))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    PipeProducerKind getProducerKind() {
      return *symbolizePipeProducerKind(getProducer());
    }
    /// The consumer kind of entry `i` of `consumers`.
    PipeConsumerKind getConsumerKind(unsigned i) {
      return *symbolizePipeConsumerKind(
          ::llvm::cast<::mlir::StringAttr>(getConsumers()[i]).getValue());
    }
  }];
}

/// Acquire and wait block on a slot's barrier and hand back its buffer: the
/// producer writes the acquired buffer, the consumer reads the waited one.
class TileAS_PipeSlotOp<string mnemonic>
    : TileAS_MaterializedOp<mnemonic, [MemoryEffects<TileAS_BarrierEffects>,
        TypesMatchWith<"the result is one slot of the pipe", "pipe", "result",
                       "::llvm::cast<::mlir::tileas::PipeType>($_self)"
                       ".getPayload()">]> {
  let arguments = !con((ins TileAS_PipeType:$pipe, Index:$iter),
                       scheduleAttrs);
  let results = (outs TileAS_PipePayload:$result);
  let assemblyFormat = [{
    $pipe `,` $iter attr-dict `:` qualified(type($pipe)) `->`
    qualified(type($result))
  }];
}

def TileAS_PipeProducerAcquireOp
    : TileAS_PipeSlotOp<"pipe.producer_acquire"> {
  let summary = "waits until slot iter % depth is empty and returns it";
}

def TileAS_PipeProducerCommitOp : TileAS_MaterializedOp<"pipe.producer_commit",
    [MemoryEffects<TileAS_BarrierEffects>,
     TypesMatchWith<"the committed value is one slot of the pipe", "pipe",
                    "value",
                    "::llvm::cast<::mlir::tileas::PipeType>($_self)"
                    ".getPayload()">]> {
  let summary = "marks slot iter % depth full once the producer's writes land";
  let description = [{
    `tileas.pipe.producer_commit %p, %k, %slot {via = "expect_tx"}
        : !tileas.pipe<!tileas.smem<128x64xbf16>>`
    `%slot` is what the producer wrote (the acquired slot). `via` is how the
    full barrier's phase completes: `expect_tx` (TMA: arrive with the
    pipe's bytes, the copy engine completes the transaction),
    `tcgen05_commit` (UMMA: an arrive once the issuer's MMAs finish),
    `arrive` (SIMT threads) or `cpasync_arrive` (cp.async.mbarrier.arrive).
  }];
  let arguments = !con((ins TileAS_PipeType:$pipe, Index:$iter,
                            TileAS_PipePayload:$value,
                            TileAS_StrEnumAttr<TileAS_SignalKind>:$via),
                       scheduleAttrs);
  let assemblyFormat = [{
    $pipe `,` $iter `,` $value attr-dict `:` qualified(type($pipe))
  }];
  let hasVerifier = 1;
}

def TileAS_PipeConsumerWaitOp : TileAS_PipeSlotOp<"pipe.consumer_wait"> {
  let summary = "waits until slot iter % depth is full and returns it";
}

def TileAS_PipeConsumerReleaseOp
    : TileAS_MaterializedOp<"pipe.consumer_release",
        [MemoryEffects<TileAS_BarrierEffects>]> {
  let summary = "marks slot iter % depth empty once the consumer's reads end";
  let description = [{
    `tileas.pipe.consumer_release %p, %k {via = "tcgen05_commit"}
        : !tileas.pipe<...>`
    `via` is how this consumer's arrival on the empty barrier happens:
    `tcgen05_commit` (after the UMMAs that read the slot finish), `arrive`
    (SIMT threads, after their reads), `bulk_wait` (a TMA store's bulk
    group has read the slot) or `wgmma_wait` (Hopper: the arrive follows a
    `wgmma.wait_group` that retires the group of the wgmma that read the
    slot; the translation keeps one group in flight, so iteration k's slot
    is released after iteration k + 1's wgmma is issued, or after the loop's
    final `wait_group 0`). A UMMA consumer always releases with
    `tcgen05_commit`, even when the slot's next writer is an MMA of the same
    thread: PTX orders an MMA behind an earlier one only when both use the
    same accumulator, so nothing else says when the reads have ended.
    `arrivals` (default 1) counts the arrivals the release makes for the
    consumer entries it stands for: in a ring whose tiles are read by
    different numbers of consumer groups, a tile read by fewer arrives for
    the difference with its last release.
  }];
  let arguments = !con((ins TileAS_PipeType:$pipe, Index:$iter,
                            TileAS_StrEnumAttr<TileAS_SignalKind>:$via,
                            OptionalAttr<I32Attr>:$arrivals),
                       scheduleAttrs);
  let assemblyFormat = "$pipe `,` $iter attr-dict `:` qualified(type($pipe))";
  let hasVerifier = 1;
}

def TileAS_SmemViewOp : TileAS_MaterializedOp<"smem_view", [Pure]> {
  let summary = "reads one SMEM buffer as a tile of another shape";
  let description = [{
    `%v = tileas.smem_view %slot : !tileas.smem<128x64xbf16> ->
        !tileas.smem<64x128xbf16>`
    The same bytes seen as a tile of another shape or element type, of the
    same size: how one ring's slots hold tiles of different shapes (K
    128x64 and V^T 64x128 in one ring). The translation lays each view out
    for its own readers and writers; the slot's address is unchanged.
  }];
  let arguments = !con((ins TileAS_SmemType:$source), scheduleAttrs);
  let results = (outs TileAS_SmemType:$result);
  let assemblyFormat = [{
    $source attr-dict `:` qualified(type($source)) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def TileAS_FenceOp : TileAS_MaterializedOp<"fence", [
    MemoryEffects<TileAS_BarrierEffects>]> {
  let summary = "orders memory between proxies or around a thread sync";
  let description = [{
    `tileas.fence "proxy_async"`: generic-proxy shared-memory writes become
    visible to TMA and UMMA (fence.proxy.async.shared::cta).
    `tcgen05_before` / `tcgen05_after`: tcgen05 ops before an arrive stay
    before it, after a wait stay after it (tcgen05.fence::*_thread_sync).
    `tcgen05_wait_st` / `tcgen05_wait_ld`: this thread's tcgen05.st /
    tcgen05.ld have completed.
  }];
  let arguments = !con((ins TileAS_StrEnumAttr<TileAS_FenceKind>:$kind),
                       scheduleAttrs);
  let assemblyFormat = "$kind attr-dict";
}

def TileAS_MutexCreateOp : TileAS_MaterializedOp<"mutex.create"> {
  let summary = "creates a token ring over `groups` warp groups";
  let description = [{
    `%m = tileas.mutex.create {groups = 2 : i32, impl = "namedbar",
        barrier_id = 8 : i32} : !tileas.mutex`

    A `namedbar` mutex uses named barriers `barrier_id` to
    `barrier_id + groups - 1`, one per group; an `mbarrier` mutex uses one
    mbarrier per group in shared memory.
  }];
  let arguments = !con((ins I32Attr:$groups,
                            TileAS_StrEnumAttr<TileAS_MutexImplKind>:$impl,
                            OptionalAttr<I32Attr>:$barrier_id),
                       scheduleAttrs);
  let results = (outs Res<TileAS_MutexType, "",
                          [MemAlloc<TileAS_SharedMemory>]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    MutexImplKind getImplKind() { return *symbolizeMutexImplKind(getImpl()); }
  }];
}

/// The protected span is unit-heavy code (MUFU, tensor-core issue) whose
/// ops may be Pure, so the lock and unlock also read and write every memory
/// to stay in place relative to all other effects.
class TileAS_MutexOp<string mnemonic>
    : TileAS_MaterializedOp<mnemonic, [MemoryEffects<!listconcat(
        TileAS_BarrierEffects, [MemRead, MemWrite])>]> {
  let arguments = !con((ins TileAS_MutexType:$mutex, Index:$group),
                       scheduleAttrs);
  let assemblyFormat = "$mutex `,` $group attr-dict `:` qualified(type($mutex))";
}

def TileAS_MutexLockOp : TileAS_MutexOp<"mutex.lock"> {
  let summary = "waits until group `group` holds the token";
}

def TileAS_MutexUnlockOp : TileAS_MutexOp<"mutex.unlock"> {
  let summary = "passes the token to group (group + 1) % groups";
}

def TileAS_AgentOp : TileAS_MaterializedOp<"agent", [
    SingleBlock, NoRegionArguments, RecursiveMemoryEffects]> {
  let summary = "code run by one warp-specialized role";
  let description = [{
    `tileas.agent {role = "load", warps = 1 : i32, regs = 40 : i32} {
       ... tileas.agent_yield }`

    Several agents in sequence form the warp-specialized partition of the
    enclosing body; each runs on its own `warps` warps, which set their
    register budget to `regs` (setmaxnreg) when it is given.

    `replicas = 2` (ping-pong consumers, a persistent function only): the
    body runs on two copies of the agent's warps. Copy r takes the CTA's
    output tiles r, r + 2, ...; the copies take turns on the main loop and
    on the epilogue, so that one copy's epilogue runs beside the other's
    MMAs. Each copy is `warps` warps; the pipes count iterations in tile
    order whichever copy runs them.
  }];
  let arguments = !con((ins TileAS_StrEnumAttr<TileAS_AgentRoleKind>:$role,
                            I32Attr:$warps, OptionalAttr<I32Attr>:$regs,
                            OptionalAttr<I32Attr>:$replicas),
                       scheduleAttrs);
  let regions = (region SizedRegion<1>:$body);
  // `attr-dict $body` is ambiguous for ODS because both may start with `{`;
  // `role` is required, so the C++ parser always reads the dictionary first.
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    AgentRole getRoleKind() { return *symbolizeAgentRole(getRole()); }
  }];
}

def TileAS_AgentYieldOp : TileAS_MaterializedOp<"agent_yield", [
    Pure, Terminator, HasParent<"AgentOp">]> {
  let summary = "ends an agent's body";
  let arguments = scheduleAttrs;
  let assemblyFormat = "attr-dict";
}

#endif // TILEPIPE_IR_TILEASOPS_TD

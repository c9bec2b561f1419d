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

def TileAS_TmaLoadOp : TileAS_SchedulableOp<"tma_load", "tma_load",
    [MemoryEffects<[MemRead]>]> {
  let summary = "copies one descriptor box from global to shared memory";
  let description = [{
    `%a = tileas.tma_load %desc[%i, %j] : !tileas.tma_desc<128x64xbf16>
        -> !tileas.smem<128x64xbf16>`

    One coordinate per descriptor dimension; the result is the box.
  }];
  let arguments = (ins TileAS_TmaDescType:$desc, Variadic<Index>:$coords);
  let results = (outs TileAS_SmemType:$result);
  let assemblyFormat = [{
    $desc `[` $coords `]` attr-dict `:` qualified(type($desc)) `->`
    qualified(type($result))
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

def TileAS_CpAsyncOp : TileAS_SchedulableOp<"cp_async", "cp_async"> {
  let summary = "copies a tile from a global memref to shared memory";
  let description = [{
    `%s = tileas.cp_async %src[%i, %j] : memref<?x?xbf16>
        -> !tileas.smem<64x64xbf16>`

    The coordinates index the tile's first element in `src`.
  }];
  let arguments = (ins Arg<AnyMemRef, "global source", [MemRead]>:$src,
                       Variadic<Index>:$coords);
  let results = (outs TileAS_SmemType:$result);
  let assemblyFormat = [{
    $src `[` $coords `]` attr-dict `:` type($src) `->` qualified(type($result))
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

def TileAS_TmemStoreOp : TileAS_TileMoveOp<"tmem_store", TileAS_RegisterTile,
    TileAS_TmemType, [MemoryEffects<[MemWrite<TileAS_TensorMemory>]>]> {
  let summary = "writes a register tile to tensor memory";
}

def TileAS_SmemLoadOp : TileAS_TileMoveOp<"smem_load", TileAS_SmemType,
    TileAS_RegisterTile, [MemoryEffects<[MemRead<TileAS_SharedMemory>]>]> {
  let summary = "reads a shared-memory tile into registers";
}

def TileAS_SmemStoreOp : TileAS_TileMoveOp<"smem_store", TileAS_RegisterTile,
    TileAS_SmemType, [MemoryEffects<[MemWrite<TileAS_SharedMemory>]>]> {
  let summary = "writes a register tile to shared memory";
}

//===----------------------------------------------------------------------===//
// Tensor-core MMA.
//===----------------------------------------------------------------------===//

def TileAS_UmmaOp : TileAS_SchedulableOp<"umma", "", [
    MemoryEffects<[MemRead<TileAS_SharedMemory>, MemRead<TileAS_TensorMemory>,
                   MemWrite<TileAS_TensorMemory>]>],
    ["isAccumulatorOperand"]> {
  let summary = "tensor-core MMA into a tensor-memory accumulator";
  let description = [{
    `%d = tileas.umma %a, %b, %acc {accumulate} : !tileas.smem<128x64xbf16>,
        !tileas.smem<128x64xbf16>, !tileas.tmem<128x128xf32>
        -> !tileas.tmem<128x128xf32>`

    D = A * B^T (+ acc when `accumulate` is set). A is MxK in shared memory
    (class `umma`) or tensor memory (class `umma_ts`), B is NxK (K-major) in
    shared memory, and the accumulator and result are MxN in tensor memory.
  }];
  let arguments = (ins TileAS_MmaOperand:$a, TileAS_SmemType:$b,
                       TileAS_TmemType:$acc, UnitAttr:$accumulate);
  let results = (outs TileAS_TmemType:$result);
  let assemblyFormat = [{
    $a `,` $b `,` $acc attr-dict `:` qualified(type($a)) `,`
    qualified(type($b)) `,` qualified(type($acc)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
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

#endif // TILEPIPE_IR_TILEASOPS_TD

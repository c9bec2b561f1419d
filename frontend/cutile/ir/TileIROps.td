//===- TileIROps.td - The ops of tileir --------------------*- tablegen -*-===//
//
// The ops cuTile writes, with the operands, attributes and results the
// bytecode carries for each. Types print as tileirdisasm prints them
// (`tile<128x64xbf16>`, not `!tileir.tile<...>`) through custom<IRType>.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_FRONTEND_CUTILE_IR_TILEIROPS_TD
#define TILEPIPE_FRONTEND_CUTILE_IR_TILEIROPS_TD

include "frontend/cutile/ir/TileIRTypes.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

def TileIR_AnyView : AnyTypeOf<[TileIR_TensorViewType, TileIR_PartitionViewType]>;
def TileIR_Hints : OptionalAttr<TileIR_OptimizationHintsAttr>;

//===----------------------------------------------------------------------===//
// Kernel structure.
//===----------------------------------------------------------------------===//

def TileIR_BytecodeModuleOp : TileIR_Op<"module", [
    SymbolTable, IsolatedFromAbove, NoTerminator, SingleBlock,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getDefaultDialect"]>]> {
  let summary = "a bytecode module (13.3+) holding entries";
  let arguments = (ins SymbolNameAttr:$sym_name,
                       OptionalAttr<StrAttr>:$producer);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
}

def TileIR_EntryOp : TileIR_Op<"entry", [
    Symbol, IsolatedFromAbove,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getDefaultDialect"]>]> {
  let summary = "a kernel: its parameters and body";
  let description = [{
    `entry @matmul(%arg0: tile<ptr<bf16>>, %arg1: tile<i32>)
    optimization_hints=<default = {}> { ... return }`. Parameters are the
    flattened kernel arguments (an array is its pointer, shape and strides
    under cuTile's calling convention). Ops inside print without `tileir.`.
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       TileIR_Hints:$optimization_hints);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Block::BlockArgListType getArguments() {
      return getBody().getArguments();
    }
  }];
}

class TileIR_TerminatorOp<string mnemonic, list<Trait> traits = []>
    : TileIR_Op<mnemonic, traits # [Pure, Terminator]> {
  let arguments = (ins Variadic<AnyType>:$operands);
  let assemblyFormat = [{
    ($operands^ `:` custom<IRTypeList>(type($operands)))? attr-dict
  }];
}

def TileIR_ReturnOp : TileIR_TerminatorOp<"return", [ReturnLike]> {
  let summary = "ends an entry";
}
def TileIR_ContinueOp : TileIR_TerminatorOp<"continue"> {
  let summary = "ends a loop iteration with the next iteration's values";
}
def TileIR_BreakOp : TileIR_TerminatorOp<"break"> {
  let summary = "leaves a `loop` with its results";
}
def TileIR_YieldOp : TileIR_TerminatorOp<"yield", [ReturnLike]> {
  let summary = "ends an `if` branch or a reduce/scan body";
}

def TileIR_ForOp : TileIR_Op<"for", [RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<OpAsmOpInterface,
                              ["getDefaultDialect", "getAsmBlockArgumentNames"]>]> {
  let summary = "a counted loop with loop-carried values";
  let description = [{
    `for %i in (%lb to %ub, step %s) : tile<i32> iter_values(%acc = %init)
    -> (tile<128x256xf32>) { ... continue %next : tile<128x256xf32> }`.
    `unsigned_cmp` (13.2+) compares the induction variable unsigned.
  }];
  let arguments = (ins TileIR_TileType:$lowerBound, TileIR_TileType:$upperBound,
                       TileIR_TileType:$step, Variadic<AnyType>:$initValues,
                       UnitAttr:$unsigned_cmp);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$region);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::Value getInductionVar() { return getRegion().getArgument(0); }
    ::mlir::Block::BlockArgListType getRegionIterArgs() {
      return getRegion().getArguments().drop_front();
    }
  }];
}

def TileIR_LoopOp : TileIR_Op<"loop", [RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getDefaultDialect"]>]> {
  let summary = "an uncounted loop, left by `break`";
  let arguments = (ins Variadic<AnyType>:$initValues);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$region);
  let hasCustomAssemblyFormat = 1;
}

def TileIR_IfOp : TileIR_Op<"if", [RecursiveMemoryEffects,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getDefaultDialect"]>]> {
  let summary = "runs one of two regions on a scalar i1";
  let arguments = (ins TileIR_TileType:$condition);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$thenRegion, AnyRegion:$elseRegion);
  let hasCustomAssemblyFormat = 1;
}

class TileIR_CombineOp<string mnemonic> : TileIR_Op<mnemonic,
    [RecursiveMemoryEffects,
     DeclareOpInterfaceMethods<OpAsmOpInterface,
                               ["getDefaultDialect", "getAsmBlockArgumentNames"]>]> {
  let arguments = (ins Variadic<TileIR_TileType>:$operands, I32Attr:$dim,
                       ArrayAttr:$identities, UnitAttr:$reverse);
  let results = (outs Variadic<TileIR_TileType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TileIR_ReduceOp : TileIR_CombineOp<"reduce"> {
  let summary = "reduces tiles along `dim` with the body as combiner";
  let description = [{
    `reduce %x dim=1 identities=[0xFF800000 : f32] : tile<1x1024xf32> ->
    tile<1xf32> (%lhs: tile<f32>, %rhs: tile<f32>) { ... yield }`: the body
    combines one element of each operand pairwise (lhs values, then rhs
    values) and yields one per operand. `reverse` is never set.
  }];
}

def TileIR_ScanOp : TileIR_CombineOp<"scan"> {
  let summary = "prefix scan along `dim` (`reverse` from the end)";
}

//===----------------------------------------------------------------------===//
// Values and scalars.
//===----------------------------------------------------------------------===//

def TileIR_ConstantOp : TileIR_Op<"constant", [Pure, ConstantLike]> {
  let summary = "a constant tile: `constant <f32: 0.0> : tile<128x1xf32>`";
  let arguments = (ins ElementsAttr:$value);
  let results = (outs TileIR_TileType:$result);
  let assemblyFormat = [{
    custom<ConstantValue>($value, type($result)) attr-dict
  }];
  let hasVerifier = 1;
}

def TileIR_AssumeOp : TileIR_Op<"assume", [Pure,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "attaches a predicate (bounded, div_by, same_elements)";
  let arguments = (ins AnyType:$value, AnyAttr:$predicate);
  let results = (outs AnyType:$result);
  let assemblyFormat = [{
    custom<AssumePredicate>($predicate) `,` $value attr-dict `:`
    custom<IRType>(type($value))
  }];
  let hasVerifier = 1;
}

def TileIR_MakeTokenOp : TileIR_Op<"make_token", [Pure]> {
  let summary = "a fresh token";
  let results = (outs TileIR_TokenType:$result);
  let assemblyFormat = "attr-dict `:` custom<IRType>(type($result))";
}

def TileIR_JoinTokensOp : TileIR_Op<"join_tokens", [Pure]> {
  let summary = "a token ordered after all of its operands";
  let arguments = (ins Variadic<TileIR_TokenType>:$tokens);
  let results = (outs TileIR_TokenType:$result);
  let assemblyFormat = [{
    $tokens attr-dict `:` custom<IRType>(type($result))
  }];
}

def TileIR_IotaOp : TileIR_Op<"iota", [Pure]> {
  let summary = "0, 1, 2, ... along a rank-1 tile";
  let results = (outs TileIR_TileType:$result);
  let assemblyFormat = "attr-dict `:` custom<IRType>(type($result))";
}

def TileIR_GetTileBlockIdOp : TileIR_Op<"get_tile_block_id", [Pure]> {
  let summary = "this tile block's index in the grid (x, y, z)";
  let results = (outs TileIR_TileType:$blockId_x, TileIR_TileType:$blockId_y,
                      TileIR_TileType:$blockId_z);
  let assemblyFormat = [{
    attr-dict `:` custom<TripleType>(type($blockId_x), type($blockId_y), type($blockId_z))
  }];
}

def TileIR_GetNumTileBlocksOp : TileIR_Op<"get_num_tile_blocks", [Pure]> {
  let summary = "the grid's size (x, y, z)";
  let results = (outs TileIR_TileType:$gridSize_x, TileIR_TileType:$gridSize_y,
                      TileIR_TileType:$gridSize_z);
  let assemblyFormat = [{
    attr-dict `:` custom<TripleType>(type($gridSize_x), type($gridSize_y), type($gridSize_z))
  }];
}

//===----------------------------------------------------------------------===//
// Views and memory.
//===----------------------------------------------------------------------===//

def TileIR_MakeTensorViewOp : TileIR_Op<"make_tensor_view", [Pure,
    AttrSizedOperandSegments]> {
  let summary = "a tensor view from a base pointer and dynamic shape/strides";
  let description = [{
    One operand per `?` in the result's shape, then one per `?` in its
    strides: `make_tensor_view %p, shape = [%m, %n], strides = [%s, %t] :
    tile<i32> -> tensor_view<?x?xbf16, strides=[?,?]>`.
  }];
  let arguments = (ins TileIR_TileType:$base, Variadic<TileIR_TileType>:$dynamicShape,
                       Variadic<TileIR_TileType>:$dynamicStrides);
  let results = (outs TileIR_TensorViewType:$result);
  // Static sizes and strides are written inline among the operands, as
  // tileirdisasm writes them: `strides = [%s, 1]`.
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def TileIR_MakePartitionViewOp : TileIR_Op<"make_partition_view", [Pure,
    TypesMatchWith<"the source is the partition's tensor view", "result",
                   "tensor_view",
                   "::llvm::cast<PartitionViewType>($_self).getTensorView()">]> {
  let summary = "cuts a tensor view into tiles";
  let arguments = (ins TileIR_TensorViewType:$tensor_view);
  let results = (outs TileIR_PartitionViewType:$result);
  let assemblyFormat = [{
    $tensor_view attr-dict `:` custom<IRType>(type($result))
  }];
}

class TileIR_ShapeQueryOp<string mnemonic> : TileIR_Op<mnemonic, [Pure]> {
  let arguments = (ins TileIR_AnyView:$src);
  let results = (outs Variadic<TileIR_TileType>:$results);
  let assemblyFormat = [{
    $src attr-dict `:` custom<IRType>(type($src)) `->`
    custom<RankTypes>(ref(type($src)), type($results))
  }];
  let hasVerifier = 1;
}

def TileIR_GetIndexSpaceShapeOp
    : TileIR_ShapeQueryOp<"get_index_space_shape"> {
  let summary = "how many tiles a partition view has along each dimension";
}
def TileIR_GetTensorShapeOp : TileIR_ShapeQueryOp<"get_tensor_shape"> {
  let summary = "a view's tensor shape";
}

def TileIR_LoadViewTkoOp : TileIR_Op<"load_view_tko", [
    MemoryEffects<[MemRead]>, AttrSizedOperandSegments]> {
  let summary = "loads the tile at a partition view's tile index";
  let description = [{
    `load_view_tko weak %pv[%i, %j] token = %t optimization_hints =
    <default = {latency = 2}> : partition_view<...>, tile<i32> ->
    tile<128x64xbf16>, token`. `inbounds` (13.4+) lists, per dimension,
    whether the index is known to be inside the tensor.
  }];
  let arguments = (ins TileIR_PartitionViewType:$view,
                       Variadic<TileIR_TileType>:$index,
                       Optional<TileIR_TokenType>:$token,
                       TileIR_MemoryOrdering:$memory_ordering_semantics,
                       OptionalAttr<TileIR_MemoryScope>:$memory_scope,
                       TileIR_Hints:$optimization_hints,
                       OptionalAttr<DenseBoolArrayAttr>:$inbounds);
  let results = (outs TileIR_TileType:$tile, TileIR_TokenType:$result_token);
  let assemblyFormat = [{
    $memory_ordering_semantics ($memory_scope^)? $view `[` $index `]`
    (`token` `=` $token^)?
    (`optimization_hints` `=` $optimization_hints^)? attr-dict `:`
    custom<IRType>(type($view)) `,` custom<SameTypes>(ref($index), type($index)) `->`
    custom<IRType>(type($tile)) `,` custom<IRType>(type($result_token))
  }];
  let hasVerifier = 1;
}

def TileIR_StoreViewTkoOp : TileIR_Op<"store_view_tko", [
    MemoryEffects<[MemWrite]>, AttrSizedOperandSegments]> {
  let summary = "stores a tile at a partition view's tile index";
  let arguments = (ins TileIR_TileType:$tile, TileIR_PartitionViewType:$view,
                       Variadic<TileIR_TileType>:$index,
                       Optional<TileIR_TokenType>:$token,
                       TileIR_MemoryOrdering:$memory_ordering_semantics,
                       OptionalAttr<TileIR_MemoryScope>:$memory_scope,
                       TileIR_Hints:$optimization_hints,
                       OptionalAttr<DenseBoolArrayAttr>:$inbounds);
  let results = (outs TileIR_TokenType:$result_token);
  let assemblyFormat = [{
    $memory_ordering_semantics ($memory_scope^)? $tile `,` $view `[` $index `]`
    (`token` `=` $token^)?
    (`optimization_hints` `=` $optimization_hints^)? attr-dict `:`
    custom<IRType>(type($tile)) `,` custom<IRType>(type($view)) `,`
    custom<SameTypes>(ref($index), type($index)) `->`
    custom<IRType>(type($result_token))
  }];
  let hasVerifier = 1;
}

def TileIR_LoadPtrTkoOp : TileIR_Op<"load_ptr_tko", [
    MemoryEffects<[MemRead]>, AttrSizedOperandSegments]> {
  let summary = "gathers through a tile of pointers, optionally masked";
  let arguments = (ins TileIR_TileType:$source, Optional<TileIR_TileType>:$mask,
                       Optional<TileIR_TileType>:$paddingValue,
                       Optional<TileIR_TokenType>:$token,
                       TileIR_MemoryOrdering:$memory_ordering_semantics,
                       OptionalAttr<TileIR_MemoryScope>:$memory_scope,
                       TileIR_Hints:$optimization_hints);
  let results = (outs TileIR_TileType:$result, TileIR_TokenType:$result_token);
  let assemblyFormat = [{
    $memory_ordering_semantics ($memory_scope^)? $source
    (`mask` `=` $mask^ `:` custom<IRType>(type($mask)))?
    (`padding` `=` $paddingValue^ `:` custom<IRType>(type($paddingValue)))?
    (`token` `=` $token^)?
    (`optimization_hints` `=` $optimization_hints^)? attr-dict `:`
    custom<IRType>(type($source)) `->`
    custom<IRType>(type($result)) `,` custom<IRType>(type($result_token))
  }];
}

def TileIR_StorePtrTkoOp : TileIR_Op<"store_ptr_tko", [
    MemoryEffects<[MemWrite]>, AttrSizedOperandSegments]> {
  let summary = "scatters through a tile of pointers, optionally masked";
  let arguments = (ins TileIR_TileType:$destination, TileIR_TileType:$value,
                       Optional<TileIR_TileType>:$mask,
                       Optional<TileIR_TokenType>:$token,
                       TileIR_MemoryOrdering:$memory_ordering_semantics,
                       OptionalAttr<TileIR_MemoryScope>:$memory_scope,
                       TileIR_Hints:$optimization_hints);
  let results = (outs TileIR_TokenType:$result_token);
  let assemblyFormat = [{
    $memory_ordering_semantics ($memory_scope^)? $value `,` $destination
    (`mask` `=` $mask^ `:` custom<IRType>(type($mask)))?
    (`token` `=` $token^)?
    (`optimization_hints` `=` $optimization_hints^)? attr-dict `:`
    custom<IRType>(type($value)) `,` custom<IRType>(type($destination))
    `->` custom<IRType>(type($result_token))
  }];
}

def TileIR_AtomicRMWTkoOp : TileIR_Op<"atomic_rmw_tko", [
    MemoryEffects<[MemRead, MemWrite]>, AttrSizedOperandSegments]> {
  let summary = "an atomic read-modify-write through a tile of pointers";
  let description = [{
    cuTile's `ct.atomic_add`, `atomic_max`, ..., `atomic_xchg`: each element
    at its pointer combined with `arg` (mode), atomically per element; the
    result is the values before.
  }];
  let arguments = (ins TileIR_TileType:$pointers, TileIR_TileType:$arg,
                       Optional<TileIR_TileType>:$mask,
                       Optional<TileIR_TokenType>:$token,
                       TileIR_MemoryOrdering:$memory_ordering_semantics,
                       TileIR_MemoryScope:$memory_scope,
                       TileIR_AtomicRMWMode:$mode);
  let results = (outs TileIR_TileType:$result, TileIR_TokenType:$result_token);
  let assemblyFormat = [{
    $memory_ordering_semantics $memory_scope $mode $pointers `,` $arg
    (`mask` `=` $mask^ `:` custom<IRType>(type($mask)))?
    (`token` `=` $token^)? attr-dict `:`
    custom<IRType>(type($pointers)) `,` custom<IRType>(type($arg)) `->`
    custom<IRType>(type($result)) `,` custom<IRType>(type($result_token))
  }];
}

def TileIR_AtomicCASTkoOp : TileIR_Op<"atomic_cas_tko", [
    MemoryEffects<[MemRead, MemWrite]>, AttrSizedOperandSegments]> {
  let summary = "an atomic compare-and-swap through a tile of pointers";
  let description = [{
    cuTile's `ct.atomic_cas`: each element at its pointer replaced by `val`
    when it equals `cmp`, atomically per element; the result is the values
    before (a lock's acquisition, as LayerNorm backward's).
  }];
  let arguments = (ins TileIR_TileType:$pointers, TileIR_TileType:$cmp,
                       TileIR_TileType:$val, Optional<TileIR_TileType>:$mask,
                       Optional<TileIR_TokenType>:$token,
                       TileIR_MemoryOrdering:$memory_ordering_semantics,
                       TileIR_MemoryScope:$memory_scope);
  let results = (outs TileIR_TileType:$result, TileIR_TokenType:$result_token);
  let assemblyFormat = [{
    $memory_ordering_semantics $memory_scope $pointers `,` $cmp `,` $val
    (`mask` `=` $mask^ `:` custom<IRType>(type($mask)))?
    (`token` `=` $token^)? attr-dict `:`
    custom<IRType>(type($pointers)) `,` custom<IRType>(type($cmp)) `,`
    custom<IRType>(type($val)) `->`
    custom<IRType>(type($result)) `,` custom<IRType>(type($result_token))
  }];
}

def TileIR_OffsetOp : TileIR_Op<"offset", [Pure,
    AllTypesMatch<["ptr", "result"]>]> {
  let summary = "pointer + offset elements, element-wise";
  let arguments = (ins TileIR_TileType:$ptr, TileIR_TileType:$offset);
  let results = (outs TileIR_TileType:$result);
  let assemblyFormat = [{
    $ptr `,` $offset attr-dict `:` custom<IRType>(type($ptr)) `,`
    custom<IRType>(type($offset)) `->` custom<IRType>(type($result))
  }];
}

//===----------------------------------------------------------------------===//
// Shape ops and conversions: `op %x : tile<A> -> tile<B>`.
//===----------------------------------------------------------------------===//

class TileIR_CastOp<string mnemonic, dag attrs = (ins), string attrFormat = "">
    : TileIR_Op<mnemonic, [Pure]> {
  let arguments = !con((ins TileIR_TileType:$source), attrs);
  let results = (outs TileIR_TileType:$result);
  let assemblyFormat = "$source " # attrFormat # [{ attr-dict `:`
    custom<IRType>(type($source)) `->` custom<IRType>(type($result))
  }];
}

def TileIR_ReshapeOp : TileIR_CastOp<"reshape"> {
  let summary = "same elements, new shape";
  let hasVerifier = 1;
}
def TileIR_BroadcastOp : TileIR_CastOp<"broadcast"> {
  let summary = "repeats size-1 dimensions to the result's shape";
  let hasVerifier = 1;
}
def TileIR_PermuteOp : TileIR_CastOp<"permute",
    (ins DenseI32ArrayAttr:$permutation), "$permutation"> {
  let summary = "permutes dimensions: result dim i is source dim perm[i]";
}
def TileIR_BitcastOp : TileIR_CastOp<"bitcast"> {
  let summary = "reinterprets element bits";
}
def TileIR_PtrToIntOp : TileIR_CastOp<"ptr_to_int"> {
  let summary = "pointer to i64";
}
def TileIR_IntToPtrOp : TileIR_CastOp<"int_to_ptr"> {
  let summary = "i64 to pointer";
}
def TileIR_PtrToPtrOp : TileIR_CastOp<"ptr_to_ptr"> {
  let summary = "pointer to pointer of another element type";
}
def TileIR_FToFOp : TileIR_CastOp<"ftof",
    (ins OptionalAttr<TileIR_RoundingMode>:$rounding_mode),
    "(`rounding` `<` $rounding_mode^ `>`)?"> {
  let summary = "float to float";
}
def TileIR_IToFOp : TileIR_CastOp<"itof",
    (ins TileIR_Signedness:$signedness,
         OptionalAttr<TileIR_RoundingMode>:$rounding_mode),
    "$signedness (`rounding` `<` $rounding_mode^ `>`)?"> {
  let summary = "integer to float";
}
def TileIR_FToIOp : TileIR_CastOp<"ftoi",
    (ins TileIR_Signedness:$signedness,
         OptionalAttr<TileIR_RoundingMode>:$rounding_mode,
         UnitAttr:$saturating),
    "$signedness (`rounding` `<` $rounding_mode^ `>`)? (`saturating` $saturating^)?"> {
  let summary = "float to integer";
}
def TileIR_ExtIOp : TileIR_CastOp<"exti", (ins TileIR_Signedness:$signedness),
    "$signedness"> {
  let summary = "widens integers";
}
def TileIR_TruncIOp : TileIR_CastOp<"trunci",
    (ins OptionalAttr<TileIR_IntegerOverflow>:$overflow),
    "(`overflow` `<` $overflow^ `>`)?"> {
  let summary = "narrows integers";
}

def TileIR_CatOp : TileIR_Op<"cat", [Pure]> {
  let summary = "concatenates two tiles along `dim`";
  let arguments = (ins TileIR_TileType:$lhs, TileIR_TileType:$rhs, I64Attr:$dim);
  let results = (outs TileIR_TileType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `dim` `=` $dim attr-dict `:` custom<IRType>(type($lhs))
    `,` custom<IRType>(type($rhs)) `->` custom<IRType>(type($result))
  }];
}

def TileIR_ExtractOp : TileIR_Op<"extract", [Pure]> {
  let summary = "the sub-tile at a tile index";
  let arguments = (ins TileIR_TileType:$source, Variadic<TileIR_TileType>:$indices);
  let results = (outs TileIR_TileType:$result);
  let assemblyFormat = [{
    $source `[` $indices `]` attr-dict `:` custom<IRType>(type($source))
    `,` custom<SameTypes>(ref($indices), type($indices)) `->` custom<IRType>(type($result))
  }];
  let hasVerifier = 1;
}

def TileIR_SelectOp : TileIR_Op<"select", [Pure,
    AllTypesMatch<["val_if_true", "val_if_false", "result"]>]> {
  let summary = "element-wise cond ? a : b";
  let arguments = (ins TileIR_TileType:$cond, TileIR_TileType:$val_if_true,
                       TileIR_TileType:$val_if_false);
  let results = (outs TileIR_TileType:$result);
  let assemblyFormat = [{
    $cond `,` $val_if_true `,` $val_if_false attr-dict `:`
    custom<IRType>(type($cond)) `,` custom<IRType>(type($result))
  }];
}

//===----------------------------------------------------------------------===//
// Tensor-core multiply-accumulate.
//===----------------------------------------------------------------------===//

def TileIR_MmaFOp : TileIR_Op<"mmaf", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "acc + lhs (MxK) * rhs (KxN), float";
  let arguments = (ins TileIR_TileType:$lhs, TileIR_TileType:$rhs, TileIR_TileType:$acc,
                       UnitAttr:$fast_acc);
  let results = (outs TileIR_TileType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc (`fast_acc` $fast_acc^)? attr-dict `:`
    custom<IRType>(type($lhs)) `,` custom<IRType>(type($rhs)) `,`
    custom<IRType>(type($acc))
  }];
  let hasVerifier = 1;
}

def TileIR_MmaIOp : TileIR_Op<"mmai", [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "acc + lhs * rhs, integer";
  let arguments = (ins TileIR_TileType:$lhs, TileIR_TileType:$rhs, TileIR_TileType:$acc,
                       TileIR_Signedness:$signedness_lhs,
                       TileIR_Signedness:$signedness_rhs);
  let results = (outs TileIR_TileType:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $acc $signedness_lhs $signedness_rhs attr-dict `:`
    custom<IRType>(type($lhs)) `,` custom<IRType>(type($rhs)) `,`
    custom<IRType>(type($acc))
  }];
}

//===----------------------------------------------------------------------===//
// Element-wise arithmetic: `op %a, %b [modifiers] : tile<T>`.
//===----------------------------------------------------------------------===//

class TileIR_ElementwiseOp<string mnemonic, int arity, dag attrs = (ins),
                           string attrFormat = "">
    : TileIR_Op<mnemonic, [Pure, SameOperandsAndResultType]> {
  let arguments = !con(
    !cond(!eq(arity, 1): (ins TileIR_TileType:$source),
          !eq(arity, 2): (ins TileIR_TileType:$lhs, TileIR_TileType:$rhs),
          true: (ins TileIR_TileType:$lhs, TileIR_TileType:$rhs, TileIR_TileType:$acc)),
    attrs);
  let results = (outs TileIR_TileType:$result);
  let assemblyFormat = !cond(!eq(arity, 1): "$source",
                             !eq(arity, 2): "$lhs `,` $rhs",
                             true: "$lhs `,` $rhs `,` $acc")
    # " " # attrFormat # " attr-dict `:` custom<IRType>(type($result))";
}

defvar RoundingFtz = (ins OptionalAttr<TileIR_RoundingMode>:$rounding_mode,
                          UnitAttr:$flush_to_zero);
defvar RoundingFtzFormat =
  "(`rounding` `<` $rounding_mode^ `>`)? (`flush_to_zero` $flush_to_zero^)?";
defvar Rounding = (ins OptionalAttr<TileIR_RoundingMode>:$rounding_mode);
defvar RoundingFormat = "(`rounding` `<` $rounding_mode^ `>`)?";
defvar Ftz = (ins UnitAttr:$flush_to_zero);
defvar FtzFormat = "(`flush_to_zero` $flush_to_zero^)?";
defvar NanFtz = (ins UnitAttr:$propagate_nan, UnitAttr:$flush_to_zero);
defvar NanFtzFormat =
  "(`propagate_nan` $propagate_nan^)? (`flush_to_zero` $flush_to_zero^)?";
defvar Overflow = (ins OptionalAttr<TileIR_IntegerOverflow>:$overflow);
defvar OverflowFormat = "(`overflow` `<` $overflow^ `>`)?";
defvar Sign = (ins TileIR_Signedness:$signedness);
defvar SignFormat = "$signedness";

// Floating point.
def TileIR_AddFOp : TileIR_ElementwiseOp<"addf", 2, RoundingFtz, RoundingFtzFormat>;
def TileIR_SubFOp : TileIR_ElementwiseOp<"subf", 2, RoundingFtz, RoundingFtzFormat>;
def TileIR_MulFOp : TileIR_ElementwiseOp<"mulf", 2, RoundingFtz, RoundingFtzFormat>;
def TileIR_DivFOp : TileIR_ElementwiseOp<"divf", 2, RoundingFtz, RoundingFtzFormat>;
def TileIR_FmaOp : TileIR_ElementwiseOp<"fma", 3, RoundingFtz, RoundingFtzFormat>;
def TileIR_MaxFOp : TileIR_ElementwiseOp<"maxf", 2, NanFtz, NanFtzFormat>;
def TileIR_MinFOp : TileIR_ElementwiseOp<"minf", 2, NanFtz, NanFtzFormat>;
def TileIR_RemFOp : TileIR_ElementwiseOp<"remf", 2>;
def TileIR_PowFOp : TileIR_ElementwiseOp<"pow", 2>;
// cuTile's `x ** n` with an integer n (13.4): float base, integer exponent.
def TileIR_FPowIOp : TileIR_Op<"fpowi", [Pure,
    AllTypesMatch<["source", "result"]>]> {
  let summary = "element-wise float raised to a signed integer power";
  let arguments = (ins TileIR_TileType:$source, TileIR_TileType:$exponent);
  let results = (outs TileIR_TileType:$result);
  let assemblyFormat = [{
    $source `,` $exponent attr-dict `:`
    custom<IRType>(type($source)) `,` custom<IRType>(type($exponent))
  }];
}
def TileIR_Atan2Op : TileIR_ElementwiseOp<"atan2", 2>;
def TileIR_NegFOp : TileIR_ElementwiseOp<"negf", 1>;
def TileIR_AbsFOp : TileIR_ElementwiseOp<"absf", 1>;
def TileIR_CeilOp : TileIR_ElementwiseOp<"ceil", 1>;
def TileIR_FloorOp : TileIR_ElementwiseOp<"floor", 1>;
def TileIR_ExpOp : TileIR_ElementwiseOp<"exp", 1, Rounding, RoundingFormat>;
def TileIR_Exp2Op : TileIR_ElementwiseOp<"exp2", 1, Ftz, FtzFormat>;
def TileIR_LogOp : TileIR_ElementwiseOp<"log", 1>;
def TileIR_Log2Op : TileIR_ElementwiseOp<"log2", 1>;
def TileIR_RsqrtOp : TileIR_ElementwiseOp<"rsqrt", 1, Ftz, FtzFormat>;
def TileIR_SqrtOp : TileIR_ElementwiseOp<"sqrt", 1, RoundingFtz, RoundingFtzFormat>;
def TileIR_TanHOp : TileIR_ElementwiseOp<"tanh", 1, Rounding, RoundingFormat>;
def TileIR_TanOp : TileIR_ElementwiseOp<"tan", 1>;
def TileIR_SinOp : TileIR_ElementwiseOp<"sin", 1>;
def TileIR_SinHOp : TileIR_ElementwiseOp<"sinh", 1>;
def TileIR_CosOp : TileIR_ElementwiseOp<"cos", 1>;
def TileIR_CosHOp : TileIR_ElementwiseOp<"cosh", 1>;

// Integer.
def TileIR_AddIOp : TileIR_ElementwiseOp<"addi", 2, Overflow, OverflowFormat>;
def TileIR_SubIOp : TileIR_ElementwiseOp<"subi", 2, Overflow, OverflowFormat>;
def TileIR_MulIOp : TileIR_ElementwiseOp<"muli", 2, Overflow, OverflowFormat>;
def TileIR_ShLIOp : TileIR_ElementwiseOp<"shli", 2, Overflow, OverflowFormat>;
def TileIR_DivIOp : TileIR_ElementwiseOp<"divi", 2,
    !con(Sign, Rounding), !strconcat(SignFormat, " ", RoundingFormat)>;
def TileIR_RemIOp : TileIR_ElementwiseOp<"remi", 2, Sign, SignFormat>;
def TileIR_MaxIOp : TileIR_ElementwiseOp<"maxi", 2, Sign, SignFormat>;
def TileIR_MinIOp : TileIR_ElementwiseOp<"mini", 2, Sign, SignFormat>;
def TileIR_ShRIOp : TileIR_ElementwiseOp<"shri", 2, Sign, SignFormat>;
def TileIR_MulhiIOp : TileIR_ElementwiseOp<"mulhii", 2>;
def TileIR_AndIOp : TileIR_ElementwiseOp<"andi", 2>;
def TileIR_OrIOp : TileIR_ElementwiseOp<"ori", 2>;
def TileIR_XOrIOp : TileIR_ElementwiseOp<"xori", 2>;
def TileIR_AbsIOp : TileIR_ElementwiseOp<"absi", 1>;
def TileIR_NegIOp : TileIR_ElementwiseOp<"negi", 1, Overflow, OverflowFormat>;

// Comparisons: the result is a tile of i1 of the operands' shape.
def TileIR_CmpIOp : TileIR_Op<"cmpi", [Pure, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "element-wise integer comparison";
  let arguments = (ins TileIR_ComparisonPredicate:$comparison_predicate,
                       TileIR_TileType:$lhs, TileIR_TileType:$rhs,
                       TileIR_Signedness:$signedness);
  let results = (outs TileIR_TileType:$result);
  let assemblyFormat = [{
    $comparison_predicate $lhs `,` $rhs `,` $signedness attr-dict `:`
    custom<IRType>(type($lhs)) `->` custom<IRType>(type($result))
  }];
}

def TileIR_CmpFOp : TileIR_Op<"cmpf", [Pure, AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "element-wise float comparison, ordered or not";
  let arguments = (ins TileIR_ComparisonPredicate:$comparison_predicate,
                       TileIR_ComparisonOrdering:$comparison_ordering,
                       TileIR_TileType:$lhs, TileIR_TileType:$rhs);
  let results = (outs TileIR_TileType:$result);
  let assemblyFormat = [{
    $comparison_predicate $comparison_ordering $lhs `,` $rhs attr-dict `:`
    custom<IRType>(type($lhs)) `->` custom<IRType>(type($result))
  }];
}

//===----------------------------------------------------------------------===//
// Debugging.
//===----------------------------------------------------------------------===//

def TileIR_AssertOp : TileIR_Op<"assert"> {
  let summary = "reports `message` where the i1 condition is false";
  let arguments = (ins TileIR_TileType:$condition, StrAttr:$message);
  let assemblyFormat = [{
    $condition `,` $message attr-dict `:` custom<IRType>(type($condition))
  }];
}

#endif // TILEPIPE_FRONTEND_CUTILE_IR_TILEIROPS_TD

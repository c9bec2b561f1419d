//===- TileIRTypes.td - Types and attributes of tileir -----*- tablegen -*-===//
//
// The types of CUDA Tile IR (tiles, pointers, tokens, tensor and partition
// views), the assume predicates and optimization hints, and the enums ops
// carry (rounding modes, signedness, comparison predicates, memory
// ordering). The syntax is tileirdisasm's: `tile<128x64xbf16>`,
// `tensor_view<?x?xbf16, strides=[?,?]>`, `bounded<0, ?>`.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_FRONTEND_CUTILE_IR_TILEIRTYPES_TD
#define TILEPIPE_FRONTEND_CUTILE_IR_TILEIRTYPES_TD

include "frontend/cutile/ir/TileIRDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Types.
//===----------------------------------------------------------------------===//

class TileIR_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<TileIR_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def TileIR_PtrType : TileIR_Type<"Ptr", "ptr"> {
  let summary = "a pointer to global memory, as a tile element";
  let parameters = (ins "::mlir::Type":$pointee);
  let assemblyFormat = "`<` $pointee `>`";
}

def TileIR_TileType : TileIR_Type<"Tile", "tile"> {
  let summary = "a statically shaped tile of numbers or pointers";
  let description = [{
    `tile<128x64xbf16>`; rank 0 is `tile<i32>`, a scalar. Elements are
    builtin integer and float types or `ptr<T>`.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t", "static shape">:$shape,
                        "::mlir::Type":$elementType);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
    int64_t getNumElements() const;
  }];
}

def TileIR_TokenType : TileIR_Type<"Token", "token"> {
  let summary = "orders memory operations";
}

def TileIR_TensorViewType : TileIR_Type<"TensorView", "tensor_view"> {
  let summary = "a strided tensor in global memory";
  let description = [{
    `tensor_view<?x?xbf16, strides=[?,1]>`: shape and strides, each static or
    dynamic (`?`, ShapedType::kDynamic).
  }];
  let parameters = (ins "::mlir::Type":$elementType,
                        ArrayRefParameter<"int64_t", "shape">:$shape,
                        ArrayRefParameter<"int64_t", "strides">:$strides);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    int64_t getRank() const { return getShape().size(); }
  }];
}

def TileIR_PartitionViewType : TileIR_Type<"PartitionView", "partition_view"> {
  let summary = "a tensor view cut into tiles of one shape";
  let description = [{
    `partition_view<tile=(128x64), padding_value = neg_inf,
    tensor_view<?x?xbf16, strides=[?,?]>, dim_map=[1, 0]>`. `dim_map[i]` is
    the tensor dimension that tile dimension i walks (identity when empty);
    `padding_value` (empty when absent) fills what lies outside the tensor.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t", "tile shape">:$tileShape,
                        TileIR_TensorViewType:$tensorView,
                        ArrayRefParameter<"int64_t", "dim map">:$dimMap,
                        StringRefParameter<"padding value", "\"\"">:$paddingValue);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

//===----------------------------------------------------------------------===//
// Enums ops carry.
//===----------------------------------------------------------------------===//

def TileIR_RoundingMode : I32EnumAttr<"RoundingMode", "rounding mode", [
    I32EnumAttrCase<"nearest_even", 0>, I32EnumAttrCase<"zero", 1>,
    I32EnumAttrCase<"negative_inf", 2>, I32EnumAttrCase<"positive_inf", 3>,
    I32EnumAttrCase<"approx", 4>, I32EnumAttrCase<"full", 5>,
    I32EnumAttrCase<"nearest_int_to_zero", 6>,
    I32EnumAttrCase<"nearest_away", 7>]> {
  let cppNamespace = "::tilepipe::tileir";
}

def TileIR_IntegerOverflow : I32EnumAttr<"IntegerOverflow", "overflow flags", [
    I32EnumAttrCase<"none", 0>, I32EnumAttrCase<"nsw", 1>,
    I32EnumAttrCase<"nuw", 2>, I32EnumAttrCase<"nw", 3>]> {
  let cppNamespace = "::tilepipe::tileir";
}

def TileIR_Signedness : I32EnumAttr<"Signedness", "integer signedness", [
    I32EnumAttrCase<"Unsigned", 0, "unsigned">,
    I32EnumAttrCase<"Signed", 1, "signed">]> {
  let cppNamespace = "::tilepipe::tileir";
}

def TileIR_ComparisonPredicate
    : I32EnumAttr<"ComparisonPredicate", "comparison predicate", [
    I32EnumAttrCase<"equal", 0>, I32EnumAttrCase<"not_equal", 1>,
    I32EnumAttrCase<"less_than", 2>, I32EnumAttrCase<"less_than_or_equal", 3>,
    I32EnumAttrCase<"greater_than", 4>,
    I32EnumAttrCase<"greater_than_or_equal", 5>]> {
  let cppNamespace = "::tilepipe::tileir";
}

def TileIR_ComparisonOrdering
    : I32EnumAttr<"ComparisonOrdering", "NaN ordering of a comparison", [
    I32EnumAttrCase<"unordered", 0>, I32EnumAttrCase<"ordered", 1>]> {
  let cppNamespace = "::tilepipe::tileir";
}

def TileIR_MemoryOrdering
    : I32EnumAttr<"MemoryOrdering", "memory ordering semantics", [
    I32EnumAttrCase<"weak", 0>, I32EnumAttrCase<"relaxed", 1>,
    I32EnumAttrCase<"acquire", 2>, I32EnumAttrCase<"release", 3>,
    I32EnumAttrCase<"acq_rel", 4>]> {
  let cppNamespace = "::tilepipe::tileir";
}

def TileIR_MemoryScope : I32EnumAttr<"MemoryScope", "memory scope", [
    I32EnumAttrCase<"tl_blk", 0>, I32EnumAttrCase<"device", 1>,
    I32EnumAttrCase<"sys", 2>]> {
  let cppNamespace = "::tilepipe::tileir";
}

def TileIR_AtomicRMWMode : I32EnumAttr<"AtomicRMWMode", "atomic RMW mode", [
    I32EnumAttrCase<"And", 0, "and">, I32EnumAttrCase<"Or", 1, "or">,
    I32EnumAttrCase<"Xor", 2, "xor">, I32EnumAttrCase<"add", 3>,
    I32EnumAttrCase<"addf", 4>, I32EnumAttrCase<"max", 5>,
    I32EnumAttrCase<"min", 6>, I32EnumAttrCase<"umax", 7>,
    I32EnumAttrCase<"umin", 8>, I32EnumAttrCase<"xchg", 9>]> {
  let cppNamespace = "::tilepipe::tileir";
}

//===----------------------------------------------------------------------===//
// Attributes.
//===----------------------------------------------------------------------===//

class TileIR_Attr<string name, string attrMnemonic>
    : AttrDef<TileIR_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def TileIR_DivByAttr : TileIR_Attr<"DivBy", "div_by"> {
  let summary = "assume: divisible by `divisor` (every N along dim D)";
  let parameters = (ins "uint64_t":$divisor,
                        OptionalParameter<"::std::optional<int64_t>">:$every,
                        OptionalParameter<"::std::optional<int64_t>">:$along);
  let hasCustomAssemblyFormat = 1;
}

def TileIR_BoundedAttr : TileIR_Attr<"Bounded", "bounded"> {
  let summary = "assume: lb <= value <= ub, either side open (`?`)";
  let parameters = (ins OptionalParameter<"::std::optional<int64_t>">:$lb,
                        OptionalParameter<"::std::optional<int64_t>">:$ub);
  let hasCustomAssemblyFormat = 1;
}

def TileIR_SameElementsAttr : TileIR_Attr<"SameElements", "same_elements"> {
  let summary = "assume: equal values in every chunk of this shape";
  let parameters = (ins ArrayRefParameter<"int64_t", "chunk">:$chunk);
  let assemblyFormat = "`<` `[` $chunk `]` `>`";
}

def TileIR_OptimizationHintsAttr
    : TileIR_Attr<"OptimizationHints", "optimization_hints"> {
  let summary = "per-architecture hints: <default = {latency = 2}>";
  let description = [{
    Keys are `default` or a GPU name (`sm_100`); each value is a dictionary of
    hints (`latency`, `allow_tma`, `occupancy`, `num_cta_in_cga`,
    `num_worker_warps_per_cta`).
  }];
  let parameters = (ins "::mlir::DictionaryAttr":$hintsByArch);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
}

#endif // TILEPIPE_FRONTEND_CUTILE_IR_TILEIRTYPES_TD

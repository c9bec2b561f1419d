//===- TileASTypes.td - Tile buffer and descriptor types ---*- tablegen -*-===//
//
// Tiles that live outside registers. All three share one shape-and-element
// layout and one `<128x64xbf16>` syntax, so they derive from one class and
// implement ShapedTypeInterface: verifiers and getWork() can then treat smem,
// tmem and register (tensor) tiles uniformly.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_IR_TILEASTYPES_TD
#define TILEPIPE_IR_TILEASTYPES_TD

include "ir/TileASDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/BuiltinTypeInterfaces.td"

class TileAS_TileType<string name, string typeMnemonic>
    : TypeDef<TileAS_Dialect, name, [ShapedTypeInterface]> {
  let mnemonic = typeMnemonic;
  let parameters = (ins
    ArrayRefParameter<"int64_t", "static tile shape">:$shape,
    "::mlir::Type":$elementType
  );
  let builders = [
    TypeBuilderWithInferredContext<(ins
        "::llvm::ArrayRef<int64_t>":$shape, "::mlir::Type":$elementType), [{
      return $_get(elementType.getContext(), shape, elementType);
    }]>
  ];
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;

  let extraClassDeclaration = [{
    /// Tiles are always ranked; ShapedTypeInterface asks.
    bool hasRank() const { return true; }
    ::mlir::ShapedType
    cloneWith(::std::optional<::llvm::ArrayRef<int64_t>> shape,
              ::mlir::Type elementType) const;
    /// Element bit width times element count, rounded up to whole bytes.
    int64_t getSizeInBytes() const;
  }];
  // The parser, printer and helpers are identical for every tile type, so
  // they are stamped out here rather than repeated in C++.
  let extraClassDefinition = [{
    ::mlir::ShapedType
    $cppClass::cloneWith(::std::optional<::llvm::ArrayRef<int64_t>> shape,
                         ::mlir::Type elementType) const {
      return $cppClass::get(shape.value_or(getShape()), elementType);
    }
    int64_t $cppClass::getSizeInBytes() const {
      return ::mlir::tileas::getTileSizeInBytes(*this);
    }
    ::mlir::Type $cppClass::parse(::mlir::AsmParser &parser) {
      return ::mlir::tileas::detail::parseTileType<$cppClass>(parser);
    }
    void $cppClass::print(::mlir::AsmPrinter &printer) const {
      ::mlir::tileas::detail::printTileType(printer, getShape(),
                                            getElementType());
    }
  }];
}

def TileAS_SmemType : TileAS_TileType<"Smem", "smem"> {
  let summary = "a tile buffer in shared memory";
  let description = [{
    Syntax: `!tileas.smem<128x64xbf16>`. A statically shaped buffer in the
    CTA's shared memory, written by TMA or cp.async and read by UMMA.
  }];
}

def TileAS_TmemType : TileAS_TileType<"Tmem", "tmem"> {
  let summary = "a tile in tensor memory";
  let description = [{
    Syntax: `!tileas.tmem<128x128xf32>`. Tensor memory is 128 lanes by 512
    32-bit columns, so a tile is rank 2 with dimension 0 mapped to lanes.
  }];
}

def TileAS_TmaDescType : TileAS_TileType<"TmaDesc", "tma_desc"> {
  let summary = "a TMA tensor-map descriptor";
  let description = [{
    Syntax: `!tileas.tma_desc<128x64xbf16>`. The shape is the descriptor's
    box: the tile one tma_load brings into shared memory.
  }];
}

//===----------------------------------------------------------------------===//
// Synchronization objects created by the schedule materializer.
//===----------------------------------------------------------------------===//

def TileAS_PipeType : TypeDef<TileAS_Dialect, "Pipe"> {
  let mnemonic = "pipe";
  let summary = "a multi-buffered producer/consumer channel";
  let description = [{
    Syntax: `!tileas.pipe<!tileas.smem<128x64xbf16>>`. A ring of `depth`
    buffers of the payload tile plus a full and an empty mbarrier per slot.
    The payload is what one slot holds, so it must be an on-chip tile.
  }];
  let parameters = (ins "::mlir::Type":$payload);
  let assemblyFormat = "`<` $payload `>`";
  let genVerifyDecl = 1;
}

def TileAS_MutexType : TypeDef<TileAS_Dialect, "Mutex"> {
  let mnemonic = "mutex";
  let summary = "a token ring handing a unit between warp groups in turn";
  let description = [{
    Syntax: `!tileas.mutex`. Carries no payload; it only orders groups.
  }];
}

//===----------------------------------------------------------------------===//
// Operand constraints.
//===----------------------------------------------------------------------===//

def TileAS_FloatTensor : StaticShapeTensorOf<[AnyFloat]>;
def TileAS_FloatTensorOrScalar : AnyTypeOf<[TileAS_FloatTensor, AnyFloat]>;
def TileAS_RegisterTile : StaticShapeTensorOf<[AnyType]>;
def TileAS_MmaOperand : AnyTypeOf<[TileAS_SmemType, TileAS_TmemType]>;
def TileAS_PipePayload : AnyTypeOf<[TileAS_SmemType, TileAS_TmemType]>;

#endif // TILEPIPE_IR_TILEASTYPES_TD

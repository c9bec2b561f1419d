//===- TileASDialect.td - The tileas dialect ---------------*- tablegen -*-===//
//
// The dialect record and the op base class every tileas op derives from.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_IR_TILEASDIALECT_TD
#define TILEPIPE_IR_TILEASDIALECT_TD

include "mlir/IR/OpBase.td"

def TileAS_Dialect : Dialect {
  let name = "tileas";
  let cppNamespace = "::mlir::tileas";
  let summary = "Tile-level IR for software pipelining on NVIDIA Blackwell";
  let description = [{
    Ops over whole tiles held in shared memory, tensor memory or registers.
    The dialect sits at the level the modulo scheduler works at: each op is
    one issue of an asynchronous copy, a tensor-core MMA or a SIMT tile
    operation, and reports its op class and work through
    SchedulableOpInterface so that the target model stays data-driven.
  }];
  let useDefaultTypePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Defined next to the type storage classes, which addTypes needs.
    void registerTypes();
  }];
}

class TileAS_Op<string mnemonic, list<Trait> traits = []>
    : Op<TileAS_Dialect, mnemonic, traits>;

#endif // TILEPIPE_IR_TILEASDIALECT_TD

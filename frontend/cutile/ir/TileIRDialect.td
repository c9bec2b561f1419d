//===- TileIRDialect.td - The tileir dialect ---------------*- tablegen -*-===//
//
// tilepipe's model of CUDA Tile IR, the IR NVIDIA's cuTile writes as
// bytecode. The ops carry cuTile's names and, as far as ODS allows, the
// syntax `tileirdisasm` prints, so that a kernel read from bytecode can be
// compared with NVIDIA's own disassembly line by line.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_FRONTEND_CUTILE_IR_TILEIRDIALECT_TD
#define TILEPIPE_FRONTEND_CUTILE_IR_TILEIRDIALECT_TD

include "mlir/IR/OpBase.td"

def TileIR_Dialect : Dialect {
  let name = "tileir";
  let cppNamespace = "::tilepipe::tileir";
  let summary = "CUDA Tile IR as cuTile writes it";
  let description = [{
    Tiles of values (`!tileir.tile<128x64xbf16>`), pointers to global memory
    as tile elements (`!tileir.tile<ptr<bf16>>`), tensor and partition views
    over global memory, tokens that order memory operations, and the ops of
    a cuTile kernel: `tileir.entry` with its body, loops, loads and stores
    through views, MMAs, reductions and element-wise arithmetic. Inside an
    entry the `tileir.` prefix may be left out, as tileirdisasm does.
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let extraClassDeclaration = [{
    /// Defined next to the storage classes, which addTypes/addAttributes need.
    void registerTypes();
    void registerAttributes();
  }];
}

class TileIR_Op<string mnemonic, list<Trait> traits = []>
    : Op<TileIR_Dialect, mnemonic, traits>;

#endif // TILEPIPE_FRONTEND_CUTILE_IR_TILEIRDIALECT_TD

//===- TileIRDialect.cpp - The tileir dialect -----------------------------===//

#include "frontend/cutile/ir/TileIRDialect.h"

using namespace mlir;
using namespace tilepipe::tileir;

#include "frontend/cutile/ir/TileIRDialect.cpp.inc"

void TileIRDialect::initialize() {
  registerTypes();
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "frontend/cutile/ir/TileIROps.cpp.inc"
      >();
}

void tilepipe::tileir::registerTileIRDialect(DialectRegistry &registry) {
  registry.insert<TileIRDialect>();
}

//===- TileASDialect.cpp - The tileas dialect -----------------------------===//
//
// Dialect registration and the out-of-line pieces of the generated dialect
// and interface classes.
//
//===----------------------------------------------------------------------===//

#include "ir/TileASDialect.h"

using namespace mlir;
using namespace mlir::tileas;

#include "ir/TileASDialect.cpp.inc"
#include "ir/TileASInterfaces.cpp.inc"

MLIR_DEFINE_EXPLICIT_TYPE_ID(::mlir::tileas::SharedMemoryResource)
MLIR_DEFINE_EXPLICIT_TYPE_ID(::mlir::tileas::TensorMemoryResource)

void TileASDialect::initialize() {
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "ir/TileASOps.cpp.inc"
      >();
}

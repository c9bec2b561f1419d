//===- fuzz-mlir.cpp - libFuzzer target: the MLIR reader ------------------===//
//
// Parses the bytes as an MLIR module with the dialects tilepipe-opt
// registers (tileas, arith, func, math, memref, scf, tensor, ub, and the
// scheduling models on arith and math), then verifies it: the tileas
// parsers, printers' inverse and verifiers must reject, never crash. Each
// input gets a fresh context, so nothing uniqued by one input outlives it.
//
//===----------------------------------------------------------------------===//

#include "ir/ExternalModels.h"
#include "ir/TileASDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <cstddef>
#include <cstdint>

static const mlir::DialectRegistry &registry() {
  static const mlir::DialectRegistry *registry = [] {
    auto *r = new mlir::DialectRegistry();
    r->insert<mlir::tileas::TileASDialect, mlir::arith::ArithDialect,
              mlir::func::FuncDialect, mlir::math::MathDialect,
              mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
              mlir::tensor::TensorDialect, mlir::ub::UBDialect>();
    tilepipe::registerArithMathSchedulingModels(*r);
    return r;
  }();
  return *registry;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::MLIRContext context(registry(),
                            mlir::MLIRContext::Threading::DISABLED);
  // Diagnostics are expected; keep them off stderr.
  context.getDiagEngine().registerHandler(
      [](mlir::Diagnostic &) { return mlir::success(); });

  // A copy ends in NUL, as the buffers of files read by tilepipe-opt do.
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(
          llvm::StringRef(reinterpret_cast<const char *>(data), size),
          "fuzz.mlir"),
      llvm::SMLoc());
  mlir::ParserConfig config(&context);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceFile<mlir::ModuleOp>(sourceMgr, config);
  if (module)
    (void)mlir::verify(*module);
  return 0;
}

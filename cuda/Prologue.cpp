//===- Prologue.cpp - what runs before a kernel's roles split -------------===//

#include "cuda/Prologue.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

bool cuda::isIndexOp(Operation *op) {
  if (isa<gpu::BlockIdOp, gpu::GridDimOp>(op))
    return true;
  if (!op->getDialect() || op->getDialect()->getNamespace() != "arith" ||
      op->getNumRegions() || op->getNumResults() != 1)
    return false;
  auto scalar = [](Type t) { return t.isIntOrIndex(); };
  return llvm::all_of(op->getResultTypes(), scalar) &&
         llvm::all_of(op->getOperandTypes(), scalar);
}

KernelPrologue cuda::collectPrologue(func::FuncOp func) {
  KernelPrologue prologue;
  if (func.isExternal())
    return prologue;
  Block &body = func.getBody().front();
  // Operands must be ready before the roles split: arguments, or values
  // the prologue itself made earlier.
  auto ready = [&](Value v) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return arg.getOwner() == &body;
    return prologue.ops.contains(v.getDefiningOp());
  };
  // A tile loaded after the loop (an epilogue's source tile) is the
  // epilogue's own: loaded early it would hold SMEM the mainloop needs. The
  // loop, peeled or in agents, is the body's first op with regions.
  bool afterLoop = false;
  for (Operation &op : body) {
    afterLoop |= op.getNumRegions() > 0;
    auto load = dyn_cast<tileas::TmaLoadOp>(op);
    if (load && (load.getDst() || afterLoop))
      continue;
    if (!load && !isIndexOp(&op))
      continue;
    if (!llvm::all_of(op.getOperands(), ready))
      continue;
    prologue.ops.insert(&op);
    if (load)
      prologue.loads.push_back(load);
  }
  return prologue;
}

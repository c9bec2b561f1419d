//===- Prologue.cpp - what runs before a kernel's roles split -------------===//

#include "cuda/analysis/Prologue.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

bool cuda::isIndexOp(Operation *op) {
  if (isa<gpu::BlockIdOp, gpu::GridDimOp>(op))
    return true;
  if (!isa_and_present<arith::ArithDialect>(op->getDialect()) ||
      op->getNumRegions() || op->getNumResults() == 0)
    return false;
  // Integer ops, and the casts between integers and floats of scalars
  // computed from integers (a float from sizes, an integer back from it).
  // A float argument is not index arithmetic: an integer made from it is
  // not the prologue's (translate-errors.mlir, late_coords).
  if (isa<arith::FPToSIOp, arith::FPToUIOp>(op) &&
      isa<BlockArgument>(op->getOperand(0)))
    return false;
  bool cast =
      isa<arith::SIToFPOp, arith::UIToFPOp, arith::FPToSIOp, arith::FPToUIOp>(
          op);
  auto scalar = [&](Type t) {
    return t.isIntOrIndex() || (cast && isa<FloatType>(t));
  };
  return llvm::all_of(op->getResultTypes(), scalar) &&
         llvm::all_of(op->getOperandTypes(), scalar);
}

bool cuda::loadsAfterLoop(tileas::TmaLoadOp load) {
  if (load.getDst() || load->getParentOfType<scf::ForOp>())
    return false;
  if (load->getParentOfType<tileas::AgentOp>())
    return true;
  for (Operation *before = load->getPrevNode(); before;
       before = before->getPrevNode())
    if (before->getNumRegions() > 0)
      return true;
  return false;
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
  for (Operation &op : body) {
    auto load = dyn_cast<tileas::TmaLoadOp>(op);
    if (load && (load.getDst() || loadsAfterLoop(load)))
      continue;
    // A scalar read from memory (MoE's expert of a block) is index
    // arithmetic's input: every role may need it.
    if (!load && !isIndexOp(&op) && !isa<tileas::GlobalLoadOp>(op))
      continue;
    if (!llvm::all_of(op.getOperands(), ready))
      continue;
    prologue.ops.insert(&op);
    if (load)
      prologue.loads.push_back(load);
  }
  return prologue;
}

//===- ElementwiseOps.h - the runtime function of each elementwise op -*- C++ -*-===//
//
// One table for the tile math the translation knows, tileas's own ops and
// the float ops of arith and math the scheduler models
// (ir/ExternalModels.cpp): the runtime function that computes it on a
// register tile (runtime/frag.cuh), and whether it takes the result's
// element type as a template argument (a conversion). Both the whole-tile
// translation (EmitKernel.cpp) and the streamed one (TileStreams.cpp) read
// it, so an op translates the same way in both.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_CUDA_ANALYSIS_ELEMENTWISEOPS_H
#define TILEPIPE_CUDA_ANALYSIS_ELEMENTWISEOPS_H

#include "mlir/IR/Operation.h"

#include <optional>
#include <string>
#include <vector>

namespace tilepipe::cuda {

struct ElementwiseCall {
  llvm::StringRef callee;     ///< "tp::exp2"
  bool resultElement = false; ///< tp::cvt<Elem>(...)
  std::string predicate;      ///< tp::cmpf<tp::CmpF::OGT>(...)
  /// The call's template arguments, `elem` the result's CUDA element type.
  std::vector<std::string> templateArgs(llvm::StringRef elem) const {
    if (resultElement)
      return {elem.str()};
    if (!predicate.empty())
      return {predicate};
    return {};
  }
};

/// The runtime call of `op` on register tiles, or nullopt when `op` is not
/// elementwise math (reductions are not: they change the shape). A
/// comparison or a select is one only on tiles (on scalars C++ spells it).
std::optional<ElementwiseCall> elementwiseCall(mlir::Operation *op);

/// The C++ function of a float arith/math op on scalars ("fmaxf",
/// "tp::math::exp"), or ""
/// where C++ spells it with an operator (add, sub, mul, div, neg) or the
/// op has no scalar form here.
llvm::StringRef scalarFunction(mlir::Operation *op);

} // namespace tilepipe::cuda

#endif // TILEPIPE_CUDA_ANALYSIS_ELEMENTWISEOPS_H

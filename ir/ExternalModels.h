//===- ExternalModels.h - the scheduling interface on other dialects -*- C++
//-*-===//
//
// SchedulableOpInterface attached as external models to ops of dialects other
// than tileas, so a compiler's own IR is scheduled without rewriting it into
// tileas first (docs/adopting.md). Registered here: elementwise arith and
// math ops on ranked tensors, mapped to the SIMT op classes of the target
// (fma, exp2). A compiler attaches its own the same way.
//
//===----------------------------------------------------------------------===//

#ifndef TILEPIPE_IR_EXTERNALMODELS_H
#define TILEPIPE_IR_EXTERNALMODELS_H

#include "ir/TileASDialect.h"

#include "mlir/IR/DialectRegistry.h"

namespace tilepipe {

/// The target op class an external model names.
struct FmaClass {
  static constexpr llvm::StringLiteral name = "fma";
};
struct Exp2Class {
  static constexpr llvm::StringLiteral name = "exp2";
};
struct CvtClass {
  static constexpr llvm::StringLiteral name = "cvt";
};

struct GenericClass {
  static constexpr llvm::StringLiteral name = "generic";
};

/// An elementwise op on a ranked tensor: op class `Class::name`, work = the
/// elements of its result. The pattern a compiler copies for its own ops.
/// An op that is also index arithmetic on scalars (arith.select, cmpf,
/// sitofp) names `ScalarClass` there: `GenericClass`, index arithmetic's.
template <typename OpTy, typename Class, typename ScalarClass = Class>
struct ElementwiseSchedulingModel
    : public mlir::tileas::SchedulableOpInterface::ExternalModel<
          ElementwiseSchedulingModel<OpTy, Class, ScalarClass>, OpTy> {
  static bool onTile(mlir::Operation *op) {
    auto shaped = llvm::dyn_cast<mlir::ShapedType>(op->getResult(0).getType());
    return shaped && shaped.hasStaticShape();
  }
  llvm::StringRef getOpClass(mlir::Operation *op) const {
    return onTile(op) ? llvm::StringRef(Class::name)
                      : llvm::StringRef(ScalarClass::name);
  }
  target::OpWork getWork(mlir::Operation *op) const {
    target::OpWork work;
    if (onTile(op))
      work.elements = llvm::cast<mlir::ShapedType>(op->getResult(0).getType())
                          .getNumElements();
    return work;
  }
  bool isAccumulatorOperand(mlir::Operation *, unsigned) const { return false; }
};

/// The float ops of arith and math on tiles: addf, subf, mulf, maximumf,
/// minimumf, maxnumf, minnumf, negf, math.absf, math.fma, math.erf, and
/// cmpf and select on tiles (one FSETP or SEL an element) as "fma"; divf and
/// math's exp2, exp, log, log2, sqrt, rsqrt, tanh, sin and cos as "exp2" (the
/// MUFU); extf and truncf as "cvt".
void registerArithMathSchedulingModels(mlir::DialectRegistry &registry);

/// The dialects tile kernels are written with (tileas, arith, func, gpu,
/// math, memref, scf, tensor, ub) and the models above: what every tilepipe
/// tool that reads tile IR registers.
void registerTileIRDialects(mlir::DialectRegistry &registry);

} // namespace tilepipe

#endif // TILEPIPE_IR_EXTERNALMODELS_H

//===- ExternalModels.cpp - the scheduling interface on arith and math ----===//

#include "ir/ExternalModels.h"

#include "ir/TileASDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/UB/IR/UBOps.h"

using namespace mlir;

void tilepipe::registerArithMathSchedulingModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    arith::AddFOp::attachInterface<
        ElementwiseSchedulingModel<arith::AddFOp, FmaClass>>(*ctx);
    arith::SubFOp::attachInterface<
        ElementwiseSchedulingModel<arith::SubFOp, FmaClass>>(*ctx);
    arith::MulFOp::attachInterface<
        ElementwiseSchedulingModel<arith::MulFOp, FmaClass>>(*ctx);
    arith::MaximumFOp::attachInterface<
        ElementwiseSchedulingModel<arith::MaximumFOp, FmaClass>>(*ctx);
    arith::NegFOp::attachInterface<
        ElementwiseSchedulingModel<arith::NegFOp, FmaClass>>(*ctx);
    arith::MinimumFOp::attachInterface<
        ElementwiseSchedulingModel<arith::MinimumFOp, FmaClass>>(*ctx);
    arith::MaxNumFOp::attachInterface<
        ElementwiseSchedulingModel<arith::MaxNumFOp, FmaClass>>(*ctx);
    arith::MinNumFOp::attachInterface<
        ElementwiseSchedulingModel<arith::MinNumFOp, FmaClass>>(*ctx);
    // IEEE division: a reciprocal on the MUFU, refined on the FMA pipe.
    arith::DivFOp::attachInterface<
        ElementwiseSchedulingModel<arith::DivFOp, Exp2Class>>(*ctx);
    // A comparison and a select on a tile: an instruction an element (FSETP,
    // SEL), so they stream in a chain as the float math does. On scalars
    // they stay index arithmetic.
    arith::CmpFOp::attachInterface<
        ElementwiseSchedulingModel<arith::CmpFOp, FmaClass, GenericClass>>(
        *ctx);
    arith::SelectOp::attachInterface<
        ElementwiseSchedulingModel<arith::SelectOp, FmaClass, GenericClass>>(
        *ctx);
    // Positions to float on a tile (a position-dependent bias): an I2F an
    // element, on the conversion unit as extf's.
    arith::SIToFPOp::attachInterface<
        ElementwiseSchedulingModel<arith::SIToFPOp, CvtClass, GenericClass>>(
        *ctx);
    arith::ExtFOp::attachInterface<
        ElementwiseSchedulingModel<arith::ExtFOp, CvtClass>>(*ctx);
    arith::TruncFOp::attachInterface<
        ElementwiseSchedulingModel<arith::TruncFOp, CvtClass>>(*ctx);
  });
  registry.addExtension(+[](MLIRContext *ctx, math::MathDialect *) {
    math::AbsFOp::attachInterface<
        ElementwiseSchedulingModel<math::AbsFOp, FmaClass>>(*ctx);
    math::FmaOp::attachInterface<
        ElementwiseSchedulingModel<math::FmaOp, FmaClass>>(*ctx);
    // erff is a polynomial on the FMA pipe (one op per element here: its
    // dozen FMAs are not modeled).
    math::ErfOp::attachInterface<
        ElementwiseSchedulingModel<math::ErfOp, FmaClass>>(*ctx);
    // The transcendental functions: at least one MUFU op per element (ex2,
    // lg2, rsq, tanh), the exp2 class's unit; the FMA work of their range
    // reduction is not modeled.
    math::Exp2Op::attachInterface<
        ElementwiseSchedulingModel<math::Exp2Op, Exp2Class>>(*ctx);
    math::ExpOp::attachInterface<
        ElementwiseSchedulingModel<math::ExpOp, Exp2Class>>(*ctx);
    math::LogOp::attachInterface<
        ElementwiseSchedulingModel<math::LogOp, Exp2Class>>(*ctx);
    math::Log2Op::attachInterface<
        ElementwiseSchedulingModel<math::Log2Op, Exp2Class>>(*ctx);
    math::SqrtOp::attachInterface<
        ElementwiseSchedulingModel<math::SqrtOp, Exp2Class>>(*ctx);
    math::RsqrtOp::attachInterface<
        ElementwiseSchedulingModel<math::RsqrtOp, Exp2Class>>(*ctx);
    math::TanhOp::attachInterface<
        ElementwiseSchedulingModel<math::TanhOp, Exp2Class>>(*ctx);
    math::SinOp::attachInterface<
        ElementwiseSchedulingModel<math::SinOp, Exp2Class>>(*ctx);
    math::CosOp::attachInterface<
        ElementwiseSchedulingModel<math::CosOp, Exp2Class>>(*ctx);
    math::TanOp::attachInterface<
        ElementwiseSchedulingModel<math::TanOp, Exp2Class>>(*ctx);
    math::SinhOp::attachInterface<
        ElementwiseSchedulingModel<math::SinhOp, Exp2Class>>(*ctx);
    math::CoshOp::attachInterface<
        ElementwiseSchedulingModel<math::CoshOp, Exp2Class>>(*ctx);
    math::Atan2Op::attachInterface<
        ElementwiseSchedulingModel<math::Atan2Op, Exp2Class>>(*ctx);
    math::PowFOp::attachInterface<
        ElementwiseSchedulingModel<math::PowFOp, Exp2Class>>(*ctx);
    // Rounding to an integral value is one FRND an element; fmodf's
    // quotient loop is not modeled.
    math::CeilOp::attachInterface<
        ElementwiseSchedulingModel<math::CeilOp, FmaClass>>(*ctx);
    math::FloorOp::attachInterface<
        ElementwiseSchedulingModel<math::FloorOp, FmaClass>>(*ctx);
  });
}

void tilepipe::registerTileIRDialects(DialectRegistry &registry) {
  // gpu: a kernel's tile origins come from gpu.block_id (docs/cuda.md).
  registry.insert<tileas::TileASDialect, arith::ArithDialect, func::FuncDialect,
                  gpu::GPUDialect, math::MathDialect, memref::MemRefDialect,
                  scf::SCFDialect, tensor::TensorDialect, ub::UBDialect>();
  registerArithMathSchedulingModels(registry);
}

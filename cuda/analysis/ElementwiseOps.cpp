//===- ElementwiseOps.cpp - the runtime function of each elementwise op ---===//

#include "cuda/analysis/ElementwiseOps.h"

#include "ir/TileASDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace tilepipe;
using namespace tilepipe::cuda;

/// The runtime function of arith's integer op `op` on tiles
/// (runtime/positions.cuh).
static llvm::StringRef integerTileCallee(Operation *op) {
  if (auto cmp = dyn_cast<arith::CmpIOp>(op)) {
    // Interned: the callee outlives this call as a StringRef.
    return StringAttr::get(op->getContext(),
                           "tp::tile_cmpi_" + arith::stringifyCmpIPredicate(
                                                  cmp.getPredicate()))
        .getValue();
  }
  return llvm::TypeSwitch<Operation *, llvm::StringRef>(op)
      .Case([](arith::AddIOp) { return "tp::tile_addi"; })
      .Case([](arith::SubIOp) { return "tp::tile_subi"; })
      .Case([](arith::MulIOp) { return "tp::tile_muli"; })
      .Case([](arith::AndIOp) { return "tp::tile_andi"; })
      .Case([](arith::OrIOp) { return "tp::tile_ori"; })
      .Case([](arith::XOrIOp) { return "tp::tile_xori"; })
      .Case([](arith::MaxSIOp) { return "tp::tile_maxsi"; })
      .Case([](arith::DivSIOp) { return "tp::tile_divsi"; })
      .Case([](arith::RemSIOp) { return "tp::tile_remsi"; })
      .Case([](arith::FloorDivSIOp) { return "tp::tile_floordivsi"; })
      .Case([](arith::CeilDivSIOp) { return "tp::tile_ceildivsi"; })
      .Case([](arith::ShLIOp) { return "tp::tile_shli"; })
      .Case([](arith::ShRSIOp) { return "tp::tile_shrsi"; })
      .Default([](Operation *) { return "tp::tile_minsi"; });
}

std::optional<ElementwiseCall> cuda::elementwiseCall(Operation *op) {
  using Call = std::optional<ElementwiseCall>;
  auto plain = [](llvm::StringRef callee) -> Call {
    return ElementwiseCall{callee, false, ""};
  };
  return llvm::TypeSwitch<Operation *, Call>(op)
      .Case<tileas::AddOp, arith::AddFOp>(
          [&](auto) { return plain("tp::add"); })
      .Case<tileas::SubOp, arith::SubFOp>(
          [&](auto) { return plain("tp::sub"); })
      .Case<tileas::MulOp, arith::MulFOp>(
          [&](auto) { return plain("tp::mul"); })
      .Case<tileas::MaxOp, arith::MaximumFOp>(
          [&](auto) { return plain("tp::max"); })
      .Case<arith::MinimumFOp, arith::MinNumFOp>(
          [&](auto) { return plain("tp::min"); })
      .Case<arith::MaxNumFOp>([&](auto) { return plain("tp::max"); })
      .Case<arith::DivFOp>([&](auto) { return plain("tp::div"); })
      .Case<arith::NegFOp>([&](auto) { return plain("tp::neg"); })
      .Case<math::AbsFOp>([&](auto) { return plain("tp::abs"); })
      .Case<tileas::Exp2Op, math::Exp2Op>(
          [&](auto) { return plain("tp::exp2"); })
      .Case<math::ExpOp>([&](auto) { return plain("tp::exp"); })
      .Case<math::LogOp>([&](auto) { return plain("tp::log"); })
      .Case<math::Log2Op>([&](auto) { return plain("tp::log2"); })
      .Case<math::SqrtOp>([&](auto) { return plain("tp::sqrt"); })
      .Case<math::RsqrtOp>([&](auto) { return plain("tp::rsqrt"); })
      .Case<math::TanhOp>([&](auto) { return plain("tp::tanh"); })
      .Case<math::ErfOp>([&](auto) { return plain("tp::erf"); })
      .Case<math::SinOp>([&](auto) { return plain("tp::sin"); })
      .Case<math::CosOp>([&](auto) { return plain("tp::cos"); })
      .Case<math::TanOp>([&](auto) { return plain("tp::tan"); })
      .Case<math::SinhOp>([&](auto) { return plain("tp::sinh"); })
      .Case<math::CoshOp>([&](auto) { return plain("tp::cosh"); })
      .Case<math::CeilOp>([&](auto) { return plain("tp::ceil"); })
      .Case<math::FloorOp>([&](auto) { return plain("tp::floor"); })
      .Case<math::Atan2Op>([&](auto) { return plain("tp::atan2"); })
      .Case<math::PowFOp>([&](auto) { return plain("tp::pow"); })
      .Case<arith::RemFOp>([&](auto) { return plain("tp::remf"); })
      .Case<tileas::FmaOp, math::FmaOp>([&](auto) { return plain("tp::fma"); })
      .Case<tileas::CvtOp, arith::ExtFOp, arith::TruncFOp>([&](auto) -> Call {
        return ElementwiseCall{"tp::cvt", true, ""};
      })
      // Positions to float (a position-dependent bias): exact below 2^24.
      // Floats to i32 (an argmax's index), toward zero.
      // Integers widened (sign-extended) or narrowed (wrapping) on tiles:
      // int8 data unpacked in i32, an i32 result stored as int8.
      .Case<arith::SIToFPOp, arith::FPToSIOp, arith::ExtSIOp, arith::TruncIOp>(
          [&](Operation *c) -> Call {
            if (!isa<RankedTensorType>(c->getResult(0).getType()))
              return std::nullopt;
            return ElementwiseCall{"tp::cvt", true, ""};
          })
      .Case([&](arith::CmpFOp cmp) -> Call {
        if (!isa<RankedTensorType>(cmp.getType()))
          return std::nullopt;
        std::string p = arith::stringifyCmpFPredicate(cmp.getPredicate())
                            .upper();
        if (p == "TRUE" || p == "FALSE")
          p = p == "TRUE" ? "True" : "False";
        return ElementwiseCall{"tp::cmpf", false, "tp::CmpF::" + p};
      })
      // Integer math on tiles: positions and masks (tileas.iota).
      .Case<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::AndIOp,
            arith::OrIOp, arith::XOrIOp, arith::MaxSIOp, arith::MinSIOp,
            arith::DivSIOp, arith::RemSIOp, arith::FloorDivSIOp,
            arith::CeilDivSIOp, arith::ShLIOp, arith::ShRSIOp, arith::CmpIOp>(
          [&](Operation *o) -> Call {
            if (!isa<RankedTensorType>(o->getResult(0).getType()))
              return std::nullopt;
            return plain(integerTileCallee(o));
          })
      .Case([&](arith::SelectOp select) -> Call {
        if (!isa<RankedTensorType>(select.getType()))
          return std::nullopt;
        return plain("tp::select");
      })
      .Default([](Operation *) -> Call { return std::nullopt; });
}

llvm::StringRef cuda::scalarFunction(Operation *op) {
  return llvm::TypeSwitch<Operation *, llvm::StringRef>(op)
      .Case([](arith::MaximumFOp) { return "fmaxf"; })
      .Case([](arith::MinimumFOp) { return "fminf"; })
      .Case([](arith::MaxNumFOp) { return "fmaxf"; })
      .Case([](arith::MinNumFOp) { return "fminf"; })
      .Case([](math::FmaOp) { return "fmaf"; })
      .Case([](math::AbsFOp) { return "fabsf"; })
      .Case([](math::Exp2Op) { return "exp2f"; })
      .Case([](math::ExpOp) { return "tp::math::exp"; })
      .Case([](math::LogOp) { return "tp::math::log"; })
      .Case([](math::Log2Op) { return "tp::math::log2"; })
      .Case([](math::SqrtOp) { return "tp::math::sqrt_rn"; })
      .Case([](math::RsqrtOp) { return "tp::math::rsqrt"; })
      .Case([](math::TanhOp) { return "tp::math::tanh"; })
      .Case([](math::ErfOp) { return "tp::math::erf"; })
      .Case([](math::SinOp) { return "tp::math::sin"; })
      .Case([](math::CosOp) { return "tp::math::cos"; })
      .Case([](math::TanOp) { return "tp::math::tan"; })
      .Case([](math::SinhOp) { return "tp::math::sinh"; })
      .Case([](math::CoshOp) { return "tp::math::cosh"; })
      .Case([](math::CeilOp) { return "ceilf"; })
      .Case([](math::FloorOp) { return "floorf"; })
      .Case([](math::Atan2Op) { return "tp::math::atan2"; })
      .Case([](math::PowFOp) { return "tp::math::pow"; })
      .Case([](arith::RemFOp) { return "fmodf"; })
      .Default([](Operation *) { return ""; });
}

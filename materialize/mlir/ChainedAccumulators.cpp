//===- ChainedAccumulators.cpp - MMA accumulators two loops share ---------===//

#include "materialize/mlir/ChainedAccumulators.h"

#include "ir/TileASDialect.h"

using namespace mlir;

namespace {

/// Whether iteration argument `i` of `loop` is the accumulator an MMA of
/// its body sums into.
bool accumulatesInto(scf::ForOp loop, unsigned i) {
  BlockArgument arg = loop.getRegionIterArgs()[i];
  for (Operation *user : arg.getUsers()) {
    if (auto w = dyn_cast<tileas::WgmmaOp>(user); w && w.getAcc() == arg)
      return true;
    if (auto u = dyn_cast<tileas::UmmaOp>(user); u && u.getAcc() == arg)
      return true;
  }
  return false;
}

/// The (other loop, its iteration argument) that takes `result` as its
/// initial value, if that argument is an accumulator.
std::optional<std::pair<scf::ForOp, unsigned>> continuedIn(Value result) {
  for (OpOperand &use : result.getUses()) {
    auto other = dyn_cast<scf::ForOp>(use.getOwner());
    if (!other || use.getOperandNumber() < other.getNumControlOperands())
      continue;
    unsigned i = use.getOperandNumber() - other.getNumControlOperands();
    if (accumulatesInto(other, i))
      return std::make_pair(other, i);
  }
  return std::nullopt;
}

} // namespace

scf::ForOp tilepipe::accumulatorPeer(scf::ForOp loop) {
  for (auto [i, init] : llvm::enumerate(loop.getInitArgs()))
    if (auto from = init.getDefiningOp<scf::ForOp>();
        from && accumulatesInto(loop, unsigned(i)) &&
        accumulatesInto(from, cast<OpResult>(init).getResultNumber()))
      return from;
  for (auto [i, result] : llvm::enumerate(loop.getResults()))
    if (accumulatesInto(loop, unsigned(i)))
      if (auto next = continuedIn(result))
        return next->first;
  return nullptr;
}

bool tilepipe::sharesTmemAccumulator(scf::ForOp loop) {
  for (auto [i, init] : llvm::enumerate(loop.getInitArgs()))
    if (accumulatesInto(loop, unsigned(i)) &&
        isa<tileas::TmemType>(init.getType()))
      if (init.getDefiningOp<scf::ForOp>() || continuedIn(loop.getResult(i)))
        return true;
  return false;
}

/// "the loop at line N" (or at its location when it has no line).
std::string tilepipe::describeLoop(scf::ForOp loop) {
  if (auto file = dyn_cast<FileLineColLoc>(loop.getLoc()))
    return ("the loop at line " + Twine(file.getLine())).str();
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "the loop at " << loop.getLoc();
  return text;
}

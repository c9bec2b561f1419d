//===- ChainedAccumulators.cpp - MMA accumulators two loops share ---------===//

#include "materialize/mlir/ChainedAccumulators.h"

#include "ir/TileASDialect.h"

using namespace mlir;

namespace {

/// Whether iteration argument `i` of `loop` is the accumulator an MMA of
/// its body sums into: directly (a GEMM's), or after the body changes it
/// (attention's O, read from TMEM, rescaled and written back, then P V
/// sums into it).
bool accumulatesInto(scf::ForOp loop, unsigned i) {
  SmallVector<Value> work{loop.getRegionIterArgs()[i]};
  llvm::SmallPtrSet<Operation *, 8> seen;
  while (!work.empty()) {
    Value v = work.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (auto w = dyn_cast<tileas::WgmmaOp>(user); w && w.getAcc() == v)
        return true;
      if (auto u = dyn_cast<tileas::UmmaOp>(user); u && u.getAcc() == v)
        return true;
      if (user->getBlock() != loop.getBody() || user->getNumRegions() ||
          !seen.insert(user).second)
        continue;
      llvm::append_range(work, user->getResults());
    }
  }
  return false;
}

/// The other loop that takes `result` as the initial value of an
/// accumulator, if any.
scf::ForOp continuedIn(Value result) {
  for (OpOperand &use : result.getUses()) {
    auto other = dyn_cast<scf::ForOp>(use.getOwner());
    if (!other || use.getOperandNumber() < other.getNumControlOperands())
      continue;
    if (accumulatesInto(other,
                        use.getOperandNumber() - other.getNumControlOperands()))
      return other;
  }
  return nullptr;
}

} // namespace

std::optional<tilepipe::AccumulatorPeer>
tilepipe::accumulatorPeer(scf::ForOp loop) {
  for (auto [i, init] : llvm::enumerate(loop.getInitArgs())) {
    if (!accumulatesInto(loop, unsigned(i)))
      continue;
    bool tmem = isa<tileas::TmemType>(init.getType());
    if (auto from = init.getDefiningOp<scf::ForOp>();
        from && accumulatesInto(from, cast<OpResult>(init).getResultNumber()))
      return AccumulatorPeer{from, tmem};
    if (scf::ForOp next = continuedIn(loop.getResult(i)))
      return AccumulatorPeer{next, tmem};
  }
  return std::nullopt;
}

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

/// The UMMA of `loop`'s body that sums into `v`, defined outside `loop`,
/// as it is (not carried), if any: the code after a
/// K loop made a one-trip loop by the lowering, LoRA's (X A^T) B^T summed
/// into the K loop's result.
Operation *capturedAccumulator(scf::ForOp loop, Value v) {
  for (Operation *user : v.getUsers())
    if (auto u = dyn_cast<tileas::UmmaOp>(user);
        u && u.getAcc() == v && loop->isProperAncestor(user))
      return user;
  return nullptr;
}

/// A loop's TMEM accumulator that another loop's MMA sums into as it is
/// (`capturedAccumulator`), seen from either loop. Only TMEM: a wgmma's
/// register accumulator read so passes in program order (the one-trip loop
/// runs after the K loop on the same threads).
std::optional<tilepipe::AccumulatorPeer> capturedPeer(scf::ForOp loop) {
  for (auto [i, result] : llvm::enumerate(loop.getResults())) {
    if (!isa<tileas::TmemType>(result.getType()) ||
        !accumulatesInto(loop, unsigned(i)))
      continue;
    for (Operation *user : result.getUsers())
      if (auto other = user->getParentOfType<scf::ForOp>();
          other && other != loop)
        if (Operation *mma = capturedAccumulator(other, result))
          return tilepipe::AccumulatorPeer{other, true, mma};
  }
  std::optional<tilepipe::AccumulatorPeer> from;
  loop.getBody()->walk([&](tileas::UmmaOp mma) {
    Value acc = mma.getAcc();
    if (auto f = acc.getDefiningOp<scf::ForOp>();
        f && !from && isa<tileas::TmemType>(acc.getType()) &&
        accumulatesInto(f, cast<OpResult>(acc).getResultNumber()))
      from = tilepipe::AccumulatorPeer{f, true, mma};
  });
  return from;
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
  return capturedPeer(loop);
}

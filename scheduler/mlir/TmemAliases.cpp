//===- TmemAliases.cpp - TMEM tiles that may take another's columns -------===//

#include "scheduler/mlir/TmemAliases.h"

#include "ir/TileASDialect.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace tilepipe;

static std::optional<int64_t> warpGroup(Operation *op) {
  if (auto g = op->getAttrOfType<IntegerAttr>("tileas.warp_group"))
    return g.getInt();
  return std::nullopt;
}

std::vector<TmemAliasCandidate> tilepipe::findTmemAliases(scf::ForOp loop) {
  std::vector<TmemAliasCandidate> found;
  llvm::DenseSet<Value> taken;
  Block *body = loop.getBody();
  for (Operation &op : body->without_terminator()) {
    auto store = dyn_cast<tileas::TmemStoreOp>(&op);
    if (!store || store.getDst())
      continue;
    auto p = cast<tileas::TmemType>(store.getType());
    // The ops of the loop body the stored data is computed from.
    llvm::SetVector<Operation *> slice;
    SmallVector<Value> work{store->getOperand(0)};
    while (!work.empty()) {
      Operation *def = work.pop_back_val().getDefiningOp();
      if (!def || def->getBlock() != body || !slice.insert(def))
        continue;
      llvm::append_range(work, def->getOperands());
    }
    for (Operation *def : slice) {
      if (!isa<tileas::TmemLoadOp>(def))
        continue;
      Value base = def->getOperand(0);
      Operation *maker = base.getDefiningOp();
      auto s = dyn_cast<tileas::TmemType>(base.getType());
      // Made in this iteration by another op (not carried in), by a tile
      // op of its own (not an accumulator chained to the next iteration).
      if (!maker || maker->getBlock() != body || taken.contains(base) || !s ||
          s.getShape().front() != p.getShape().front() ||
          tileas::getTmemColumns(base) <
              tileas::getTmemColumns(store.getResult()))
        continue;
      if (auto umma = dyn_cast<tileas::UmmaOp>(maker);
          umma && umma.getAccumulate())
        continue;
      bool onlyFeeds = llvm::all_of(base.getUsers(), [&](Operation *reader) {
        return isa<tileas::TmemLoadOp>(reader) && slice.contains(reader) &&
               warpGroup(reader) == warpGroup(store);
      });
      if (!onlyFeeds)
        continue;
      found.push_back({store, base});
      taken.insert(base);
      break;
    }
  }
  return found;
}

int64_t tilepipe::tmemColumnsSideBySide(scf::ForOp loop) {
  int64_t columns = 0;
  for (Value init : loop.getInitArgs())
    if (isa<tileas::TmemType>(init.getType()))
      columns += tileas::getTmemColumns(init);
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (op.getNumResults() != 1)
      continue;
    auto t = dyn_cast<tileas::TmemType>(op.getResult(0).getType());
    if (!t || tileas::getIntoOperand(&op))
      continue;
    if (auto umma = dyn_cast<tileas::UmmaOp>(&op); umma && umma.getAccumulate())
      continue; // Accumulates in its accumulator's columns.
    bool inPlace = llvm::any_of(op.getResult(0).getUses(), [](OpOperand &use) {
      auto umma = dyn_cast<tileas::UmmaOp>(use.getOwner());
      return umma && umma.getAccumulate() && use.get() == umma.getAcc();
    });
    if (!inPlace)
      columns += tileas::getTmemColumns(op.getResult(0));
  }
  return columns;
}

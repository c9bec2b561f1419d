//===- WarpGroups.cpp - warp groups inferred from independent chains ------===//

#include "scheduler/mlir/WarpGroups.h"

#include "scheduler/mlir/LoopProblem.h"

#include "ir/TileASDialect.h"

#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace tilepipe;

namespace {

/// Words a thread holds of a row from which a rescaled accumulator gets a
/// warp group of its own.
constexpr int64_t kWideRowWords = 128;

bool isRank2Tile(Type t) {
  auto tile = dyn_cast<RankedTensorType>(t);
  return tile && tile.getRank() == 2;
}

bool holdsRank2Tile(Operation *op) {
  return llvm::any_of(op->getOperandTypes(), isRank2Tile) ||
         llvm::any_of(op->getResultTypes(), isRank2Tile);
}

/// The rescale of an accumulator carried in TMEM that starts at `load` (a
/// tmem_load of the loop's carried tile): the ops its tile flows through,
/// elementwise, up to the tmem_store of the result, when every other tile
/// they read is one of theirs (O * alpha: alpha is a row vector). Empty
/// when the chain is not such a rescale.
SmallVector<Operation *> rescaleFrom(tileas::TmemLoadOp load, Block *body) {
  SmallVector<Operation *> chain{load};
  bool stored = false;
  for (size_t i = 0; i < chain.size(); ++i) {
    if (isa<tileas::TmemStoreOp>(chain[i]))
      continue;
    for (Operation *user : chain[i]->getResult(0).getUsers()) {
      bool store = isa<tileas::TmemStoreOp>(user);
      if (user->getBlock() != body ||
          !(store || (isElementwiseTileOp(user) && holdsRank2Tile(user))))
        return {};
      stored |= store;
      if (!llvm::is_contained(chain, user))
        chain.push_back(user);
    }
  }
  for (Operation *op : llvm::drop_begin(chain))
    for (Value operand : op->getOperands())
      if (isRank2Tile(operand.getType()) &&
          !llvm::is_contained(chain, operand.getDefiningOp()))
        return {};
  return stored ? chain : SmallVector<Operation *>();
}

} // namespace

unsigned tilepipe::inferWarpGroups(scf::ForOp loop) {
  Block *body = loop.getBody();
  SmallVector<Operation *> simt;
  for (Operation &op : body->without_terminator()) {
    if (op.hasAttr("tileas.warp_group"))
      return 0; // The loop names its own.
    if (isSimtTileOp(&op))
      simt.push_back(&op);
  }
  if (simt.size() < 2)
    return 0;

  // Chains run through every op that passes a register tile on, SIMT math
  // or not: an op the scheduler does not model (arith.select on a tile, a
  // "generic" op) between two SIMT ops does not make them independent, and
  // cutting the chain there split one loop into warp groups joined by a
  // pipe that nobody consumed.
  // Only ops that read a tile and make one: a constant or a broadcast
  // used by two chains does not join them.
  auto isTile = [](Type t) { return isa<RankedTensorType>(t); };
  SmallVector<Operation *> linked(simt.begin(), simt.end());
  for (Operation &op : body->without_terminator())
    if (!isSimtTileOp(&op) && op.getNumRegions() == 0 &&
        llvm::any_of(op.getOperandTypes(), isTile) &&
        llvm::any_of(op.getResultTypes(), isTile))
      linked.push_back(&op);
  llvm::EquivalenceClasses<Operation *> chains;
  for (Operation *op : linked)
    chains.insert(op);
  Operation *yield = body->getTerminator();
  for (Operation *op : linked)
    for (Value r : op->getResults())
      for (OpOperand &use : r.getUses()) {
        Operation *user = body->findAncestorOpInBlock(*use.getOwner());
        if (!user)
          continue;
        if (user == yield) {
          // Carried to the next iteration: its readers there.
          for (Operation *next :
               loop.getRegionIterArg(use.getOperandNumber()).getUsers())
            if (Operation *at = body->findAncestorOpInBlock(*next);
                at && chains.findValue(at) != chains.end())
              chains.unionSets(op, at);
        } else if (chains.findValue(user) != chains.end()) {
          chains.unionSets(op, user);
        }
      }

  // Chains in the order of their first op.
  llvm::DenseMap<Operation *, unsigned> indexOf; // Leader -> chain index.
  std::vector<bool> wide;
  for (Operation *op : simt) {
    Operation *leader = chains.getLeaderValue(op);
    auto [it, first] = indexOf.try_emplace(leader, unsigned(wide.size()));
    if (first)
      wide.push_back(false);
    if (holdsRank2Tile(op))
      wide[it->second] = true;
  }
  unsigned n = unsigned(wide.size());
  if (n < 2 || n > kMostInferredWarpGroups || llvm::is_contained(wide, false))
    return 0;

  // The rescales of accumulators carried in TMEM (O *= alpha before
  // O += P V): a load of the carried tile, elementwise ops whose other
  // operands are row vectors, and the store of the result. Where a group
  // is left for them, one correction warp group does them all, as FA4
  // does: a softmax group then holds S and P, not O as well.
  llvm::SetVector<Operation *> rescale;
  for (Operation *op : simt) {
    auto load = dyn_cast<tileas::TmemLoadOp>(op);
    auto arg = load ? dyn_cast<BlockArgument>(load.getSource()) : nullptr;
    if (arg && arg.getOwner() == body && arg.getArgNumber() > 0)
      for (Operation *member : rescaleFrom(load, body))
        rescale.insert(member);
  }
  // Only for wide accumulators: a row of O at head dim 128 is 128 f32
  // words a thread, as much as S; at head dim 64 (64 words) the softmax
  // groups keep it, and a fourth warpgroup would only halve everyone's
  // registers (FA4 written plainly at head dim 128: 0 B spilled with the
  // correction group, 56 B without; two Q tiles at head dim 64: 0 B
  // without, 380 B with; docs/generators.md, "Warp groups").
  int64_t widest = 0;
  for (Operation *op : rescale)
    if (auto load = dyn_cast<tileas::TmemLoadOp>(op))
      if (auto t = dyn_cast<RankedTensorType>(load.getType());
          t && t.getRank() == 2 && t.getElementType().isIntOrFloat())
        widest = std::max<int64_t>(
            widest,
            t.getDimSize(1) * t.getElementType().getIntOrFloatBitWidth() / 32);
  bool correction = widest >= kWideRowWords && n + 1 <= kMostInferredWarpGroups;

  Builder b(loop.getContext());
  for (Operation *op : simt) {
    if (correction && rescale.contains(op)) {
      op->setAttr("tileas.warp_group", b.getI64IntegerAttr(n));
      op->setAttr("tileas.role", b.getStringAttr("correction"));
      continue;
    }
    op->setAttr("tileas.warp_group",
                b.getI64IntegerAttr(indexOf[chains.getLeaderValue(op)]));
  }
  return n + (correction ? 1 : 0);
}

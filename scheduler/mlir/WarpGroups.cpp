//===- WarpGroups.cpp - warp groups inferred from independent chains ------===//

#include "scheduler/mlir/WarpGroups.h"

#include "ir/TileASDialect.h"

#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/SetVector.h"

#include <map>

using namespace mlir;
using namespace tilepipe;

namespace {

/// The ops SIMT threads run on register tiles (LoopProblem.cpp's streaming
/// set): what an agent of warps holds in its registers.
bool isSimtTileOp(Operation *op) {
  return isa<tileas::TmemLoadOp, tileas::TmemStoreOp, tileas::SmemStoreOp,
             tileas::SmemLoadOp, tileas::Exp2Op, tileas::AddOp, tileas::SubOp,
             tileas::MulOp, tileas::MaxOp, tileas::FmaOp, tileas::CvtOp,
             tileas::ReduceMaxOp, tileas::ReduceSumOp>(op);
}

/// Words a thread holds of a row from which a rescaled accumulator gets a
/// warp group of its own.
constexpr int64_t kWideRowWords = 128;

bool holdsRank2Tile(Operation *op) {
  auto rank2 = [](Type t) {
    auto tile = dyn_cast<RankedTensorType>(t);
    return tile && tile.getRank() == 2;
  };
  return llvm::any_of(op->getOperandTypes(), rank2) ||
         llvm::any_of(op->getResultTypes(), rank2);
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

  llvm::EquivalenceClasses<Operation *> chains;
  for (Operation *op : simt)
    chains.insert(op);
  Operation *yield = body->getTerminator();
  for (Operation *op : simt)
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
  std::map<Operation *, unsigned> indexOf; // Leader -> chain index.
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
    if (!arg || arg.getOwner() != body || arg.getArgNumber() == 0)
      continue;
    SmallVector<Operation *> chain{op};
    bool ok = true;
    for (size_t i = 0; i < chain.size() && ok; ++i) {
      Operation *cur = chain[i];
      if (isa<tileas::TmemStoreOp>(cur))
        continue;
      for (Operation *user : cur->getResult(0).getUsers()) {
        bool elementwise = isa<tileas::MulOp, tileas::AddOp, tileas::SubOp,
                               tileas::FmaOp, tileas::MaxOp>(user) &&
                           holdsRank2Tile(user);
        if (user->getBlock() != body ||
            !(elementwise || isa<tileas::TmemStoreOp>(user))) {
          ok = false;
          break;
        }
        for (Value other : user->getOperands())
          if (auto t = dyn_cast<RankedTensorType>(other.getType());
              t && t.getRank() == 2 && !llvm::is_contained(chain, user) &&
              other.getDefiningOp() != cur &&
              !llvm::is_contained(chain, other.getDefiningOp()))
            ok = false;
        if (!llvm::is_contained(chain, user))
          chain.push_back(user);
      }
    }
    if (ok && llvm::any_of(chain, [](Operation *c) {
          return isa<tileas::TmemStoreOp>(c);
        }))
      rescale.insert(chain.begin(), chain.end());
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
